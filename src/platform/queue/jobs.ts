// The typed job kinds: each kind declares in one place its payload schema (checked whenever a job
// is read back, so no handler ever casts a payload), its retry policy and its cap per group (every
// kind has the same lease: lease.ts). `defineJob` makes
// the spec a producer enqueues with; `jobKind` joins a spec with its handler for the runner.
import type { Static, TSchema } from 'typebox'
import { Compile } from 'typebox/compile'
import type { JobKindEntry, JobResult, NewJob, RetryPolicy, RunningJob } from './port.js'

export interface JobSpec<P extends TSchema> {
  kind: string
  payload: P
  retry: RetryPolicy
  perGroup?: number
  /** The queue's name of one of this kind's groups (as `job` stores it): `<kind>:<group>`. */
  groupKey(group: string): string
  /** A job of this kind, its payload typed by the schema. */
  job(input: { id: string; payload: Static<P>; dedupeKey?: string; runAt?: Date; group?: string }): NewJob
}

export function defineJob<P extends TSchema>(spec: Omit<JobSpec<P>, 'job' | 'groupKey'>): JobSpec<P> {
  // Namespaced by kind: a kind's cap holds only its own groups.
  const groupKey = (group: string) => `${spec.kind}:${group}`
  return {
    ...spec,
    groupKey,
    job: ({ group, ...input }) => ({
      ...input,
      kind: spec.kind,
      ...(group === undefined ? {} : { group: groupKey(group) }),
    }),
  }
}

export function jobKind<P extends TSchema>(
  spec: JobSpec<P>,
  handle: (job: RunningJob<Static<P>>) => Promise<JobResult>,
): JobKindEntry {
  const schema = Compile(spec.payload)
  return {
    kind: spec.kind,
    retry: spec.retry,
    ...(spec.perGroup === undefined ? {} : { perGroup: spec.perGroup }),
    async run(job) {
      const payload = job.payload
      if (!schema.Check(payload)) {
        const first = [...schema.Errors(payload)][0]
        const where = first ? `${first.instancePath || '/'} ${first.message}` : 'does not fit'
        return { kind: 'invalid', reason: `the ${spec.kind} job's payload is not valid: ${where}` }
      }
      return handle({ ...job, payload })
    },
  }
}

/** Once the schedule is spent, a job that still asks to retry waits at least this long. */
const afterScheduleMinMs = 1000

/** How long a job waits before its next attempt (the retry policy, or a later notBefore the handler asked for). */
export function retryDelayMs(policy: RetryPolicy, attempt: number, notBeforeMs = 0): number {
  const spent = attempt > policy.delaysMs.length
  const scheduled = policy.delaysMs[Math.min(attempt, policy.delaysMs.length) - 1] ?? 0
  const floor = spent ? afterScheduleMinMs : 0
  return Math.min(policy.maxDelayMs, Math.max(scheduled, notBeforeMs, floor))
}

/** Whether another attempt is allowed after attempt number `attempt`. */
export const canRetry = (policy: RetryPolicy, attempt: number): boolean => attempt <= policy.delaysMs.length

/** A wait's bounds where the policy does not say them: at least a second, at most five minutes, for a day. */
const waitDefaults = { minMs: 1000, maxMs: 5 * 60 * 1000, limitMs: 24 * 60 * 60 * 1000 }

/**
 * How long a job that asked to wait `notBeforeMs` is held back, and whether the wait is free (spends no
 * attempt): free while the job is younger than the policy's wait limit.
 */
export function waitOf(
  policy: RetryPolicy,
  notBeforeMs: number,
  ageMs: number,
): { delayMs: number; free: boolean } {
  const delayMs = Math.min(policy.maxWaitMs ?? waitDefaults.maxMs, Math.max(waitDefaults.minMs, notBeforeMs))
  return { delayMs, free: ageMs < (policy.waitLimitMs ?? waitDefaults.limitMs) }
}
