// The webhook strategy after the answer: the queued alert job runs the same executor as the
// synchronous route. The executor records the outcome and its status_update in one transaction, kept
// to one per messageId by the database, so a job that runs twice (its runner died after recording) finds
// its message recorded and is simply done. A retryable PSA failure is tried again on the job's retry
// policy (or after the PSA's Retry-After, if longer) until the policy is spent; then the failure is
// recorded like on the synchronous path. A wait the PSA asked for (429 or 503 with Retry-After) is not a
// failure: the job runs again after it without spending an attempt (docs/psa/README.md). While the
// alert's vendor or partner is disabled the job is held: not run, not failed, no attempt spent;
// enabling the tenant resumes it.
import Type, { type Static } from 'typebox'
import type { Store } from '../../platform/db/store.js'
import { defineJob, jobKind } from '../../platform/queue/jobs.js'
import type { JobKindEntry } from '../../platform/queue/port.js'
import { tenantHold } from '../../tenants/index.js'
import type { DeliveryJobs } from '../../webhooks/index.js'
import type { AlertExecutor } from '../executor/executor.js'
import { factsOf } from './intake.js'
import { RedactedRequest } from './schema.js'

/** The job payload: everything needed to process the alert, credentials already removed. */
export const QueuedAlert = Type.Object({
  messageId: Type.String({ minLength: 1 }),
  vendorId: Type.String({ minLength: 1 }),
  partnerId: Type.String({ minLength: 1 }),
  integrationId: Type.String({ minLength: 1 }),
  /** The alert as received; its facts are derived again (factsOf) rather than stored twice. */
  request: RedactedRequest,
  newCorrelationId: Type.String({ minLength: 1 }),
})
export type QueuedAlert = Static<typeof QueuedAlert>

/** The alert job: retried on PSA_RETRY_SCHEDULE, never for more than an hour at a time; one partner's
 * jobs run PARTNER_CONCURRENCY at once. Its lease is every job's (platform/queue/lease.ts), renewed while a
 * PSA operation lasts. */
export const alertJob = (o: {
  psaRetryScheduleMs: readonly number[]
  /** One partner's alerts in flight at once (its jobs' group is the partner). */
  partnerConcurrency?: number
}) =>
  defineJob({
    kind: 'alert',
    payload: QueuedAlert,
    retry: { delaysMs: o.psaRetryScheduleMs, maxDelayMs: 60 * 60 * 1000 },
    ...(o.partnerConcurrency === undefined ? {} : { perGroup: o.partnerConcurrency }),
  })

export function alertKind(
  spec: ReturnType<typeof alertJob>,
  deps: {
    executor: Pick<AlertExecutor, 'run'>
    /** Hands the deliveries the outcome queued to the runners once it committed. */
    deliveries: Pick<DeliveryJobs, 'handOver'>
    /** Read fresh for every job: a disabled vendor's or partner's alerts wait, untouched, until it is enabled. */
    tenants: Pick<Store['integrations'], 'tenantState'>
  },
): JobKindEntry {
  return jobKind(spec, async (job) => {
    const alert = job.payload
    const state = await deps.tenants.tenantState(alert.integrationId)
    const hold = state && tenantHold(state)
    if (hold) return { kind: 'hold', key: hold.key, reason: `held: ${hold.reason}` }
    const execution = await deps.executor.run(
      {
        messageId: alert.messageId,
        strategy: 'webhook',
        attempt: job.attempt,
        vendorId: alert.vendorId,
        partnerId: alert.partnerId,
        integrationId: alert.integrationId,
        facts: factsOf(alert.request),
        request: alert.request,
        newCorrelationId: alert.newCorrelationId,
        finishIn: job.finishIn,
      },
      { deferRetryable: job.canRetry, deferThrottled: job.canWait, adoptRecorded: job.attempt > 1 },
    )
    switch (execution.kind) {
      case 'recorded':
        if (execution.notified) deps.deliveries.handOver()
        return { kind: 'done', finished: execution.finished }
      case 'adopted':
        return { kind: 'done' }
      case 'deferred': {
        const { failure } = execution
        // The PSA asked to wait (Retry-After): a wait, which spends none of the alert's attempts.
        if (failure.throttled && job.canWait)
          return { kind: 'wait', reason: failure.message, notBeforeMs: failure.retryAfterMs ?? 0 }
        return { kind: 'retry', reason: failure.message, notBeforeMs: failure.retryAfterMs }
      }
      case 'unrecorded':
        // Not even the failure could be stored (the database): the alert stays queued.
        return { kind: 'retry', reason: 'the outcome could not be recorded' }
    }
  })
}
