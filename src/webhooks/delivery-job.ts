// A webhook delivery's attempts are jobs of the one queue: a `delivery` job (payload: the delivery's
// id) is queued in the transaction that writes the delivery (the outbox) or replays it, grouped by the
// vendor's endpoint, so the queue's cap per group holds 4 attempts in flight per endpoint (with Redis,
// across every process: platform/redis/slots.ts). The job runs one attempt (sender.ts) and answers `retry` at
// the time the retry policy gave, so the one claim, lease and retry mechanism of the queue schedules
// every attempt; the delivery's row keeps the record the APIs show. A job whose vendor is disabled, or
// whose endpoint is paused, disabled or has no URL, is held until the vendor or the endpoint is enabled
// again (resumed by key). docs/webhooks.md says what the vendor sees.
import type { FastifyBaseLogger } from 'fastify'
import Type from 'typebox'
import { v7 as uuidv7 } from 'uuid'
import type { Clock } from '../platform/clock.js'
import type { Store } from '../platform/db/store.js'
import { defineJob, jobKind } from '../platform/queue/jobs.js'
import type { JobKindEntry, JobProducer, JobResult } from '../platform/queue/port.js'
import type { SqlJobQueue } from '../platform/queue/sql-queue.js'
import { holdKey } from '../tenants/index.js'
import type { DeliveryEndpoint } from './deliveries-repository.js'
import type { WebhookSender } from './sender.js'

/** Deliveries in flight to one endpoint at once: a slow vendor holds back only its own events. */
export const perEndpoint = 4

/**
 * The delivery job. Its retry policy has no schedule of its own: every retry is at the time the
 * webhook retry policy gave (notBeforeMs), which is never longer than twice the schedule's longest
 * delay (a Retry-After is clamped to it) nor shorter than a second.
 */
export const deliveryJob = (scheduleSeconds: readonly number[]) =>
  defineJob({
    kind: 'delivery',
    payload: Type.Object({ deliveryId: Type.String({ minLength: 1 }) }),
    retry: { delaysMs: [], maxDelayMs: Math.max(2 * Math.max(0, ...scheduleSeconds) * 1000, 60_000) },
    perGroup: perEndpoint,
  })

export type DeliveryJobSpec = ReturnType<typeof deliveryJob>

/** The key a delivery held for its endpoint (not for its vendor) is resumed by. */
export const endpointHoldKey = (vendorId: string): string => `endpoint:${vendorId}`

/** Queues deliveries' jobs; what the outbox, replays and the endpoint's re-enabling use. */
export class DeliveryJobs {
  constructor(
    private readonly queue: Pick<JobProducer, 'enqueue' | 'handOver' | 'resume'>,
    readonly spec: DeliveryJobSpec,
  ) {}

  /** Inside the transaction that made the deliveries pending; call handOver once it has committed. */
  enqueue(tx: Store, deliveries: readonly { id: string; vendorId: string }[]): Promise<void> {
    return this.queue.enqueue(
      tx,
      deliveries.map((d) =>
        this.spec.job({ id: uuidv7(), payload: { deliveryId: d.id }, group: d.vendorId }),
      ),
    )
  }

  handOver(): void {
    this.queue.handOver()
  }

  /** Inside the transaction that made the endpoint active again: its held deliveries are due now. */
  endpointEnabled(tx: Store, vendorId: string): Promise<number> {
    return this.queue.resume(tx, endpointHoldKey(vendorId))
  }
}

/** Why a delivery to this endpoint cannot be attempted now, and the key that resumes it; null: it can. */
function holdOf(e: DeliveryEndpoint): { key: string; reason: string } | null {
  if (e.vendorDisabled) return { key: holdKey('vendor', e.vendorId), reason: 'held: the vendor is disabled' }
  if (!e.hasUrl) return { key: endpointHoldKey(e.vendorId), reason: 'held: the vendor has no webhook URL' }
  if (e.state !== 'active')
    return { key: endpointHoldKey(e.vendorId), reason: `held: the webhook endpoint is ${e.state}` }
  return null
}

export function deliveryKind(
  spec: DeliveryJobSpec,
  deps: {
    store: Store
    sender: Pick<WebhookSender, 'attempt'>
    /** Drops a disabled endpoint's queued delivery jobs (their deliveries died with it). */
    jobs: Pick<SqlJobQueue, 'dropQueued'>
    clock: Clock
    log: FastifyBaseLogger
  },
): JobKindEntry {
  const { store, clock, log } = deps
  const done: JobResult = { kind: 'done' }
  return jobKind(spec, async (job) => {
    const found = await store.deliveries.withEndpoint(job.payload.deliveryId)
    // Delivered, dead (its endpoint answered 410 meanwhile), or pruned: nothing left to do.
    if (found?.delivery.status !== 'pending') return done
    const { delivery: d, endpoint, sealed } = found
    const hold = holdOf(endpoint)
    if (hold) {
      // Enabled while this run decided: the enabling's resume missed the job, which is due again.
      const stillHeld = async () => {
        const now = await store.deliveries.endpoint(d.vendorId, true)
        return now !== null && holdOf(now)?.key === hold.key
      }
      return { kind: 'hold', ...hold, stillHeld }
    }
    // The attempt before this run was recorded, but its runner died before it rescheduled the job.
    const dueInMs = Date.parse(d.runAt) - clock().getTime()
    if (dueInMs > 0) return { kind: 'retry', reason: 'the next attempt is not due yet', notBeforeMs: dueInMs }
    // The endpoint's turn ends with its answer: the next delivery to it goes while this one records.
    // A delivery that ends here (delivered, dead) removes its job in the same commit as its record.
    let finished = false
    const finishIn = async (tx: Store) => {
      await job.finishIn?.(tx)
      finished = job.finishIn !== undefined
    }
    const target = store.vendors.openEndpoint(sealed)
    const outcome = await deps.sender.attempt(d, target, endpoint.failing, {
      answered: job.groupDone,
      finishIn,
    })
    switch (outcome.kind) {
      case 'retry':
        return {
          kind: 'retry',
          reason: outcome.reason,
          notBeforeMs: outcome.at.getTime() - clock().getTime(),
        }
      case 'endpoint-gone': {
        const now = clock().toISOString()
        const killed = await store.transaction(async (tx) => {
          await tx.vendors.setWebhookState(d.vendorId, 'disabled', outcome.reason, now)
          await deps.jobs.dropQueued(tx, spec.groupKey(d.vendorId))
          return tx.deliveries.killPending(
            d.vendorId,
            'The endpoint answered 410 Gone and was disabled; replay once it is enabled.',
            now,
          )
        })
        log.warn({ vendorId: d.vendorId, killed }, 'webhook endpoint answered 410; disabled')
        return done
      }
      default:
        // Removed with the attempt's record (which, rolled back, would have thrown and not come here).
        return finished ? { kind: 'done', finished } : done
    }
  })
}
