// Small wording rules shared by the answers partners read.

/** A message as one sentence: trimmed, ending with a full stop unless it ends with . ! or ? already. */
export function asSentence(message: string): string {
  const text = message.trim()
  return /[.!?]$/.test(text) ? text : `${text}.`
}
