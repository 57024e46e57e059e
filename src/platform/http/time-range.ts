// A time range given as a query: `since` and `until` as every list of this API names them, or `from` and
// `to`, which the portal's date pickers send (docs/decisions/portal/screen-additions.md). One spelling per
// end, not both.
import Type from 'typebox'
import { ApiError } from './errors.js'
import { Instant, isoInstant } from './schemas.js'

export const TimeRangeQuery = {
  since: Type.Optional(Instant('at or after (inclusive)')),
  until: Type.Optional(Instant('before (exclusive)')),
  from: Type.Optional(Instant('the same as since')),
  to: Type.Optional(Instant('the same as until')),
}

export interface TimeRange {
  since?: string
  until?: string
}

/** The range a query names, as stored times compare (UTC, milliseconds); since must come before until. */
export function timeRange(q: { since?: string; until?: string; from?: string; to?: string }): TimeRange {
  if (q.since !== undefined && q.from !== undefined)
    throw new ApiError(
      'VALIDATION_FAILED',
      'querystring/since and querystring/from are the same filter; send one.',
    )
  if (q.until !== undefined && q.to !== undefined)
    throw new ApiError(
      'VALIDATION_FAILED',
      'querystring/until and querystring/to are the same filter; send one.',
    )
  const since = q.since ?? q.from
  const until = q.until ?? q.to
  const range = {
    ...(since !== undefined ? { since: isoInstant(since) } : {}),
    ...(until !== undefined ? { until: isoInstant(until) } : {}),
  }
  if (range.since !== undefined && range.until !== undefined && range.since >= range.until)
    throw new ApiError('VALIDATION_FAILED', 'since (from) must be before until (to).')
  return range
}
