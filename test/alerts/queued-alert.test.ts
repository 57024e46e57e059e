// The queued alert job's retry decision with the queue and executor replaced by recorders (no
// timing): a retryable PSA failure gives the attempt back with the scheduled delay or the PSA's
// Retry-After, whichever is longer (at most an hour), until the schedule is spent; then the executor
// is told to record the failure instead.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import pino from 'pino'
import { type AlertExecutor, type AlertJob, PsaDeferred } from '../../src/alerts/executor.js'
import { QueuedAlertHandler } from '../../src/alerts/queued.js'
import type { PsaFailure } from '../../src/psa/adapter.js'
import type { ClaimedJob, JobQueue } from '../../src/queue/port.js'
import type { WebhookOutbox } from '../../src/webhooks/outbox.js'
import { manualClock } from '../helpers/service.js'

function harness(failure: PsaFailure) {
  const clock = manualClock()
  const retries: { runAt: Date; error: string }[] = []
  const deferred: boolean[] = []
  const queue = {
    retryAt: async (_job: ClaimedJob, runAt: Date, error: string) => {
      retries.push({ runAt, error })
    },
  } as unknown as JobQueue
  // The executor asks the hook whether to defer, as the real one does after a failed PSA call.
  const executor = {
    process: async (job: AlertJob) => {
      const defer = job.hooks?.deferPsaFailure?.(failure) ?? false
      deferred.push(defer)
      if (defer) throw new PsaDeferred(failure)
      return null
    },
  } as unknown as AlertExecutor
  const handler = new QueuedAlertHandler({
    queue,
    executor,
    outbox: {} as WebhookOutbox,
    clock,
    log: pino({ level: 'silent' }),
    psaRetryScheduleMs: [5_000, 30_000],
    onDelivery: () => {},
  })
  const job = (attempts: number): ClaimedJob => ({
    id: 'job-1',
    kind: 'alert',
    attempts,
    leaseToken: 'lease',
    payload: {
      messageId: 'm',
      vendorId: 'v',
      partnerId: 'p',
      integrationId: 'i',
      request: {
        integrationId: 'i',
        correlationId: null,
        data: {
          title: 't',
          summary: 's',
          alertType: 'Malware Detected',
          accountId: 'a',
          productGroup: 'Endpoint Security',
          incidentStatus: 'OPEN',
        },
      },
      newCorrelationId: 'c',
    },
  })
  const delayOf = (i: number) => retries[i]!.runAt.getTime() - clock().getTime()
  return { handler, job, retries, deferred, delayOf }
}

const serverError: PsaFailure = { kind: 'unavailable', retryable: true, message: 'HTTP 503', status: 503 }

describe('queued alert: PSA retries', () => {
  test('retryable failures are retried on the schedule, then recorded', async () => {
    const h = harness(serverError)
    await h.handler.handle(h.job(1))
    await h.handler.handle(h.job(2))
    await h.handler.handle(h.job(3))
    assert.deepEqual(h.deferred, [true, true, false], 'the third attempt records the failure')
    assert.equal(h.retries.length, 2)
    assert.equal(h.delayOf(0), 5_000)
    assert.equal(h.delayOf(1), 30_000)
    assert.equal(h.retries[0]!.error, 'HTTP 503')
  })

  test('a longer Retry-After from the PSA wins; a shorter one does not; an hour at most', async () => {
    const longer = harness({ ...serverError, kind: 'rate-limited', retryAfterMs: 120_000 })
    await longer.handler.handle(longer.job(1))
    assert.equal(longer.delayOf(0), 120_000)

    const shorter = harness({ ...serverError, kind: 'rate-limited', retryAfterMs: 1_000 })
    await shorter.handler.handle(shorter.job(1))
    assert.equal(shorter.delayOf(0), 5_000)

    const huge = harness({ ...serverError, kind: 'rate-limited', retryAfterMs: 24 * 3600_000 })
    await huge.handler.handle(huge.job(1))
    assert.equal(huge.delayOf(0), 3600_000)
  })

  test('a failure that is not retryable is recorded at once', async () => {
    const h = harness({ kind: 'rejected', retryable: false, message: 'HTTP 400', status: 400 })
    await h.handler.handle(h.job(1))
    assert.deepEqual(h.deferred, [false])
    assert.equal(h.retries.length, 0)
  })
})
