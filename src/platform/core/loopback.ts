// The one exception to the private-address guard (docs/webhooks.md#private-addresses): the demo's own
// webhook URL on this machine. `npm start -- --demo --webhook-url http://127.0.0.1:9000/webhooks` needs no
// ALLOW_PRIVATE_NETWORK; the exception is that URL's origin on loopback, nothing else private.

/** The host names a demo webhook URL may use to name this machine. */
const loopbackHosts = new Set(['127.0.0.1', 'localhost', '[::1]'])

/**
 * Pure: the origin (`http://127.0.0.1:9000`) of an http(s) URL on loopback (127.0.0.1, localhost or [::1])
 * without a user name or password; null for any other URL.
 */
export function loopbackOrigin(url: string): string | null {
  if (!URL.canParse(url)) return null
  const parsed = new URL(url)
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null
  if (parsed.username !== '' || parsed.password !== '') return null
  return loopbackHosts.has(parsed.hostname) ? parsed.origin : null
}

/** Whether the URL's origin is one of the loopback origins allowed. */
export function isAllowedLoopback(url: string, allowed: readonly string[]): boolean {
  if (allowed.length === 0) return false
  const origin = loopbackOrigin(url)
  return origin !== null && allowed.includes(origin)
}
