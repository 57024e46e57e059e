// The Retry-After header (RFC 9110 §10.2.3), as webhooks' receivers and PSAs send it.

/** Retry-After in ms: delta-seconds or an HTTP-date; null if absent or invalid; never negative. */
export function parseRetryAfter(value: string | null, now: Date): number | null {
  if (value === null) return null
  const text = value.trim()
  if (/^\d+$/.test(text)) return Number(text) * 1000
  // All three HTTP-date forms (IMF-fixdate, RFC 850, asctime) start with the day name.
  if (!/^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,? /.test(text)) return null
  // asctime carries no zone; HTTP dates are always GMT.
  const at = Date.parse(/ GMT$/.test(text) ? text : `${text} GMT`)
  if (Number.isNaN(at)) return null
  return Math.max(0, at - now.getTime())
}
