// The webhook strategy after the answer: the queued alert job runs the same executor as the
// synchronous route, and the transaction that records its outcome also removes the job and puts the
// status_update event in the outbox, so each accepted alert yields exactly one event. Retryable PSA
// failures give the attempt up and run the job again later (honouring the PSA's Retry-After) until
// the retry schedule is spent; then the failure is recorded like on the synchronous path.
import type { FastifyBaseLogger } from 'fastify'
import type { Clock } from '../clock.js'
import type { Store } from '../db/store.js'
import type { ClaimedJob, JobQueue } from '../queue/port.js'
import type { WebhookOutbox } from '../webhooks/outbox.js'
import { type AlertExecutor, AttemptAbandoned, PsaDeferred } from './executor.js'
import { factsOf, type RedactedRequest } from './intake.js'

/** The job payload: everything needed to process the alert, credentials already removed. */
export interface QueuedAlert {
  messageId: string
  vendorId: string
  partnerId: string
  integrationId: string
  /** The alert as received; its facts are derived again (factsOf) rather than stored twice. */
  request: RedactedRequest
  newCorrelationId: string
}

/** Another worker owns the job now (its lease ran out): this attempt's transaction rolls back. */
class LeaseLost extends AttemptAbandoned {}

/** The longest a PSA's Retry-After may hold a job back. */
const maxPsaDelayMs = 60 * 60 * 1000

export class QueuedAlertHandler {
  constructor(
    private readonly deps: {
      queue: JobQueue
      executor: AlertExecutor
      outbox: WebhookOutbox
      clock: Clock
      log: FastifyBaseLogger
      /** Delays before each retry of a retryable PSA failure, in ms. */
      psaRetryScheduleMs: readonly number[]
      onDelivery: () => void
    },
  ) {}

  readonly handle = async (job: ClaimedJob): Promise<void> => {
    const { queue, executor, outbox, clock, log, psaRetryScheduleMs } = this.deps
    const alert = job.payload as QueuedAlert
    const facts = factsOf(alert.request)
    let delivered = false
    try {
      await executor.process({
        messageId: alert.messageId,
        strategy: 'webhook',
        vendorId: alert.vendorId,
        integrationId: alert.integrationId,
        facts,
        request: alert.request,
        newCorrelationId: alert.newCorrelationId,
        hooks: {
          recorded: async (tx: Store, outcome, integration) => {
            if (!(await queue.complete(tx, job))) throw new LeaseLost(`job ${job.id} lost its lease`)
            const id = await outbox.statusUpdate(tx, {
              vendorId: alert.vendorId,
              integration: integration ?? { id: alert.integrationId, partnerId: alert.partnerId },
              messageId: alert.messageId,
              outcome,
              correlationId: outcome.correlationId ?? facts.correlationId ?? null,
            })
            delivered = id !== null
          },
          deferPsaFailure: (failure) => failure.retryable && job.attempts <= psaRetryScheduleMs.length,
        },
      })
    } catch (err) {
      if (err instanceof LeaseLost) {
        log.warn(
          { messageId: alert.messageId, jobId: job.id },
          'the job lost its lease; its new owner runs it',
        )
        return
      }
      if (!(err instanceof PsaDeferred)) throw err
      const scheduled = psaRetryScheduleMs[job.attempts - 1] ?? 0
      const delay = Math.min(maxPsaDelayMs, Math.max(scheduled, err.failure.retryAfterMs ?? 0))
      log.info(
        { messageId: alert.messageId, attempt: job.attempts, delayMs: delay, failure: err.failure.message },
        'PSA failure; the alert will be tried again',
      )
      await queue.retryAt(job, new Date(clock().getTime() + delay), err.failure.message)
      return
    }
    if (delivered) this.deps.onDelivery()
  }
}
