// The push URL's token and the push's secret (docs/psa/sync.md, "Where pushes arrive"). Each partner's
// PSA connection has one random secret, sealed at rest; the URL's token is derived from it, so the URL
// can be shown again (an administrator's set-up steps) without storing the token, and only the
// token's SHA-256 is looked up. A new secret is a new URL: the old one stops working at once.
import { createHash, createHmac, randomBytes } from 'node:crypto'

export const newPushSecret = (): string => randomBytes(32).toString('base64url')

export const pushToken = (secret: string): string =>
  createHmac('sha256', secret).update('alertbridge psa push url').digest('base64url')

export const tokenDigest = (token: string): string => createHash('sha256').update(token).digest('hex')

/** Where a partner's PSA pushes, under the service's public address. */
export function pushUrls(publicUrl: string, secret: string): { url: string; deactivationUrl: string } {
  const url = `${publicUrl.replace(/\/+$/, '')}/api/psa-push/${pushToken(secret)}`
  return { url, deactivationUrl: `${url}/deactivated` }
}

/** A push URL's path and its token, in the clear or percent-encoded (a PSA's error may quote it). */
const pushPath = /(psa-push(?:\/|%2F))[A-Za-z0-9_-]+/gi

/**
 * A log line with every push URL's token replaced by `[redacted]` (docs/psa/sync.md#where-pushes-arrive):
 * the token is the push's credential, and request lines, refusals and a PSA's error texts may carry the
 * URL. The logger runs it on every line it writes; a line without `psa-push` costs one search.
 */
export function redactPushTokens(line: string): string {
  return /psa-push/i.test(line) ? line.replace(pushPath, '$1[redacted]') : line
}
