// The queued alert job's retry decision, with the executor replaced by a recorder (no timing): a
// retryable PSA failure gives the attempt back with the scheduled delay or the PSA's Retry-After,
// whichever is longer (at most an hour), until the schedule is spent; then the executor is told to
// record the failure instead. The attempts are driven as the runner drives them: `canRetry` and the
// delay come from the job kind's retry policy (platform/queue/jobs.ts).
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { created } from '../../../src/alerts/domain/outcome.js'
import type { AlertJob, Execution, ExecutionPolicy } from '../../../src/alerts/executor/execution.js'
import { alertJob, alertKind, type QueuedAlert } from '../../../src/alerts/intake/queued.js'
import { canRetry, retryDelayMs } from '../../../src/platform/queue/jobs.js'
import type { PsaFailure } from '../../../src/psa/adapter.js'

const payload: QueuedAlert = {
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
}

/** No tenant state (the integration is gone): the job runs and the executor says so. */
const noTenantState = { tenantState: async () => null }

function harness(failure: PsaFailure, canWait = true) {
  const spec = alertJob({ psaRetryScheduleMs: [5_000, 30_000] })
  const retries: { delayMs: number; error: string }[] = []
  const deferred: boolean[] = []
  const runs: { job: AlertJob; policy: ExecutionPolicy }[] = []
  // The executor defers a retryable failure when the policy lets it, as the real one does.
  const executor = {
    run: async (job: AlertJob, policy: ExecutionPolicy): Promise<Execution> => {
      runs.push({ job, policy })
      const defer =
        failure.retryable &&
        (policy.deferRetryable || (policy.deferThrottled === true && failure.throttled === true))
      deferred.push(defer)
      if (defer) return { kind: 'deferred', failure }
      return { kind: 'recorded', outcome: created('c'), notified: false, finished: false }
    },
  }
  const kind = alertKind(spec, { executor, deliveries: { handOver: () => {} }, tenants: noTenantState })
  const attempt = async (n: number) => {
    const result = await kind.run({
      id: 'job-1',
      kind: 'alert',
      payload,
      attempt: n,
      canRetry: canRetry(spec.retry, n),
      canWait,
    })
    if (result.kind === 'retry')
      retries.push({ delayMs: retryDelayMs(spec.retry, n, result.notBeforeMs), error: result.reason })
    return result
  }
  return { attempt, retries, deferred, runs }
}

const serverError: PsaFailure = { kind: 'unavailable', retryable: true, message: 'HTTP 503', status: 503 }

describe('queued alert: PSA retries', () => {
  test('retryable failures are retried on the schedule, then recorded', async () => {
    const h = harness(serverError)
    await h.attempt(1)
    await h.attempt(2)
    await h.attempt(3)
    assert.deepEqual(h.deferred, [true, true, false], 'the third attempt records the failure')
    assert.equal(h.retries.length, 2)
    assert.equal(h.retries[0]!.delayMs, 5_000)
    assert.equal(h.retries[1]!.delayMs, 30_000)
    assert.equal(h.retries[0]!.error, 'HTTP 503')
  })

  test('a longer Retry-After from the PSA wins; a shorter one does not; an hour at most', async () => {
    const longer = harness({ ...serverError, kind: 'rate-limited', retryAfterMs: 120_000 })
    await longer.attempt(1)
    assert.equal(longer.retries[0]!.delayMs, 120_000)

    const shorter = harness({ ...serverError, kind: 'rate-limited', retryAfterMs: 1_000 })
    await shorter.attempt(1)
    assert.equal(shorter.retries[0]!.delayMs, 5_000)

    const huge = harness({ ...serverError, kind: 'rate-limited', retryAfterMs: 24 * 3600_000 })
    await huge.attempt(1)
    assert.equal(huge.retries[0]!.delayMs, 3600_000)
  })

  test('a wait the PSA asked for is a wait, even once the schedule is spent; past the wait limit it is a retry', async () => {
    const throttled: PsaFailure = {
      ...serverError,
      kind: 'rate-limited',
      retryAfterMs: 2000,
      throttled: true,
    }
    const h = harness(throttled)
    for (const n of [1, 2, 3, 4]) {
      const r = await h.attempt(n)
      assert.deepEqual(r, { kind: 'wait', reason: 'HTTP 503', notBeforeMs: 2000 }, `run ${n}`)
    }
    assert.deepEqual(h.deferred, [true, true, true, true], 'never recorded as failed')
    const old = harness(throttled, false)
    assert.equal((await old.attempt(1)).kind, 'retry')
    await old.attempt(2)
    await old.attempt(3)
    assert.deepEqual(old.deferred, [true, true, false], 'a job past the wait limit spends its attempts')
  })

  test('a failure that is not retryable is recorded at once', async () => {
    const h = harness({ kind: 'rejected', retryable: false, message: 'HTTP 400', status: 400 })
    await h.attempt(1)
    assert.deepEqual(h.deferred, [false])
    assert.equal(h.retries.length, 0)
  })

  test('a later attempt first looks for what an earlier one recorded; the first does not', async () => {
    const h = harness(serverError)
    await h.attempt(1)
    await h.attempt(2)
    assert.deepEqual(
      h.runs.map((r) => r.policy.adoptRecorded),
      [false, true],
    )
    assert.equal(h.runs[0]!.job.strategy, 'webhook')
    assert.equal(h.runs[0]!.job.newCorrelationId, 'c')
  })

  test('a payload that does not fit the alert job is refused before the executor runs', async () => {
    const h = harness(serverError)
    const kind = alertKind(alertJob({ psaRetryScheduleMs: [] }), {
      executor: { run: async () => assert.fail('the executor must not run') },
      deliveries: { handOver: () => {} },
      tenants: noTenantState,
    })
    const result = await kind.run({
      id: 'job-2',
      kind: 'alert',
      payload: { ...payload, request: { ...payload.request, data: { title: 't' } } },
      attempt: 1,
      canRetry: false,
      canWait: false,
    })
    assert.equal(result.kind, 'invalid')
    assert.match(
      result.kind === 'invalid' ? result.reason : '',
      /alert job's payload is not valid: \/request\/data/,
    )
    assert.equal(h.runs.length, 0)
  })
})
