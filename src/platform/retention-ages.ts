// Bounded growth (docs/operations.md#retention): what is pruned, after how long, and the cut-off each age
// gives. Pure. What must never be pruned (an event a delivery or a queued job still needs, a pending
// delivery, the latest usage count of a pair) is kept by the prune statements themselves (db/repositories).

/** Each kind of row that ages out, in the order a run prunes them. */
export const retentionKinds = [
  'delivered_deliveries',
  'dead_deliveries',
  'events',
  'dead_jobs',
  'usage_counts',
  'access_tokens',
  'psa_effects',
  'idempotency_keys',
  'maintenance_windows',
] as const

export type RetentionKind = (typeof retentionKinds)[number]

/** Days each kind is kept; null keeps it for ever (the variable was `0` or `off`). */
export type RetentionDays = Readonly<Record<RetentionKind, number | null>>

export const defaultRetentionDays: RetentionDays = {
  delivered_deliveries: 30,
  dead_deliveries: 30,
  events: 90,
  dead_jobs: 30,
  usage_counts: 400,
  access_tokens: 30,
  psa_effects: 30,
  // A key is answered for 24 h (docs/vendor-api.md#idempotency-keys); not configurable.
  idempotency_keys: 1,
  // One-off maintenance windows, counted from their end (docs/partner-api.md#maintenance-windows).
  maintenance_windows: 30,
}

/** `off`, `0` or a whole number of days, as the environment gives it; null means never pruned. */
export function parseRetentionDays(value: string): number | null {
  const v = value.trim().toLowerCase()
  if (v === 'off') return null
  if (!/^\d+$/.test(v)) throw new RangeError(`"${value}" is not a number of days or "off"`)
  const days = Number(v)
  return days === 0 ? null : days
}

export interface Cutoff {
  kind: RetentionKind
  /** Rows of this kind older than this instant (ISO 8601 UTC) are pruned. */
  before: string
}

const dayMs = 24 * 60 * 60 * 1000

/** The cut-off of every kind that is pruned at all, at `now`. */
export function cutoffs(days: RetentionDays, now: Date): Cutoff[] {
  return retentionKinds.flatMap((kind) => {
    const d = days[kind]
    return d === null ? [] : [{ kind, before: new Date(now.getTime() - d * dayMs).toISOString() }]
  })
}
