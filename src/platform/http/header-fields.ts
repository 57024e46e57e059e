// Headers a vendor, a partner or the operator sets for the service to send on its behalf: the vendor's
// webhook auth header (docs/vendor-api.md#self-service) and a partner's credentials for the
// vendor's catalogue endpoint (docs/partner-api.md). One check for all of them (pure): the name is an
// RFC 9110 token and the value an RFC 9110 field value of visible ASCII (no CR, LF, NUL or other
// control character, which would break or split every request it is sent with), and the name is none
// that the connection or a proxy acts on (hop-by-hop and framing headers: `Connection: close,
// webhook-signature` tells a proxy to strip the signature), none of the webhook signature's
// (`webhook-*`), and none the caller says it sets itself. docs/decisions/security/header-fields.md.
import Type from 'typebox'

/** RFC 9110 §5.6.2: token = 1*tchar. */
const tokenPattern = "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$"
const token = new RegExp(tokenPattern)
/**
 * RFC 9110 §5.5 field-value, limited to visible US-ASCII as the RFC asks of new fields: VCHARs, with
 * spaces and tabs only between them (obs-text, bytes above 0x7F, is refused: it has no one meaning).
 */
const fieldValue = /^[\x21-\x7e](?:[\x20-\x7e\t]*[\x21-\x7e])?$/

/** Headers the connection or a proxy acts on, never the caller's to set (RFC 9110 §7.6.1, RFC 9110 §6.4, RFC 9110 §7.2). */
const hopByHop = new Set([
  'connection',
  'keep-alive',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'content-length',
  'host',
  'expect',
])

export const headerNameText =
  "an HTTP header name (letters, digits and !#$%&'*+-.^_`|~); not a hop-by-hop or framing header, not webhook-*"
export const headerValueText =
  'visible ASCII, spaces and tabs only between characters (no line break or control character)'

export const HeaderName = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: tokenPattern,
  description: headerNameText,
})
export const HeaderValue = Type.String({ minLength: 1, maxLength: 4096, description: headerValueText })

/**
 * Why a header the caller wants sent is refused, as a sentence naming `field`, or null when it may be
 * sent. `reserved`: names (lower case) the service sets itself on that call.
 */
export function headerFieldProblem(
  field: string,
  header: { name: string; value: string },
  reserved: readonly string[] = [],
): string | null {
  const name = header.name.toLowerCase()
  if (!token.test(header.name) || header.name.length > 64)
    return `${field}: the header name must be 1 to 64 of letters, digits and !#$%&'*+-.^_\`|~ (an RFC 9110 token).`
  if (hopByHop.has(name) || name.startsWith('proxy-'))
    return `${field}: '${name}' is a hop-by-hop or framing header, which the connection or a proxy acts on; use authorization or a header of your own.`
  if (name.startsWith('webhook-'))
    return `${field}: '${name}' is a webhook signature header (webhook-*), which the service sets itself; use authorization or a header of your own.`
  if (reserved.includes(name))
    return `${field}: '${name}' is set by the service itself; use authorization or a header of your own.`
  if (header.value.length > 4096 || !fieldValue.test(header.value))
    return `${field}: the header value must be visible ASCII characters, with spaces or tabs only between them: no line break, NUL or other control character, no leading or trailing space, at most 4096 characters.`
  return null
}
