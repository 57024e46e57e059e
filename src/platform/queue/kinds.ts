// The closed catalogue of job kinds (docs/architecture.md#one-scheduler): every kind of background work the
// service does, named once, here. A module defines each of its kinds with `defineJob` (jobs.ts) beside the
// work it does, and hands the runtime its handlers; `serviceJobKinds` holds them to this list exactly at
// start: a listed kind without a handler, a handler of a kind not listed, or two handlers of one kind stop
// the process before any job is claimed. The names are stored in the jobs table: a kind is never renamed,
// only added (with its handler) or retired (once no job of it can be left).
import type { JobKindEntry, JobKindList } from './port.js'

export const jobKinds = [
  /** A queued alert (the webhook strategy): alerts/intake/queued.ts. */
  'alert',
  /** An alert held by a maintenance window, released at its end: alerts/steps/maintenance/jobs.ts. */
  'maintenance',
  /** Storm control's batched note on a storm ticket: alerts/steps/storm/notes.ts. */
  'storm-note',
  /** Closing a partner's test ticket: alerts/test-alerts/partner-test.ts. */
  'test-alert-close',
  /** A usage count pushed to the PSA's billing line: billing/usage-push.ts. */
  'usage-push',
  /** Two-way sync: registering the PSA's webhooks, reading pushed tickets back, the poll: psa-sync/jobs.ts. */
  'psa-register',
  'psa-read',
  'psa-poll',
  /** One webhook delivery's attempts: webhooks/delivery-job.ts. */
  'delivery',
  /** An integration's state_snapshot: webhooks/snapshots.ts. */
  'snapshot',
] as const

export type JobKindName = (typeof jobKinds)[number]

/**
 * The handlers the service's runner starts with, checked against the catalogue: every listed kind has
 * exactly one handler and every handler's kind is listed. Throws naming what is wrong.
 */
export function serviceJobKinds(entries: readonly JobKindEntry[]): JobKindList {
  const listed = new Set<string>(jobKinds)
  const seen = new Set<string>()
  const problems: string[] = []
  for (const { kind } of entries) {
    if (!listed.has(kind))
      problems.push(`a handler of the job kind ${kind}, which the catalogue does not list`)
    else if (seen.has(kind)) problems.push(`two handlers of the job kind ${kind}`)
    seen.add(kind)
  }
  for (const kind of jobKinds) if (!seen.has(kind)) problems.push(`no handler of the job kind ${kind}`)
  if (problems.length > 0)
    throw new Error(
      `the job kinds do not match the catalogue (src/platform/queue/kinds.ts): ${problems.join('; ')}`,
    )
  return entries
}
