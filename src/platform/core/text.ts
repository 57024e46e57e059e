// Small wording rules shared by the answers partners read.

/** A message as one sentence: trimmed, ending with a full stop unless it ends with . ! or ? already. */
export function asSentence(message: string): string {
  const text = message.trim()
  return /[.!?]$/.test(text) ? text : `${text}.`
}

/** Lone surrogates (half of a pair, not text: no UTF-8 for them) replaced by U+FFFD. */
export function wellFormed(text: string): string {
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
}

/**
 * encodeURIComponent that never throws: it throws URIError on a lone surrogate, which a partner's or
 * a PSA's JSON may carry (`"\ud800"`); that becomes U+FFFD (%EF%BF%BD) instead.
 */
export function uriComponent(text: string): string {
  return encodeURIComponent(wellFormed(text))
}
