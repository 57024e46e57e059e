// One attempt at one webhook delivery: signed per Standard Webhooks (a fresh timestamp and signature
// every time, the same `webhook-id` always), posted, recorded with the delivery's next state, and
// judged by the retry policy (retry-policy.ts, docs/webhooks.md). The delivery job (delivery-job.ts)
// calls it and turns its outcome into the job's answer; the job's claim is the attempt's only lease.
import type { FastifyBaseLogger } from 'fastify'
import { Webhook } from 'standardwebhooks'
import type { Clock } from '../platform/clock.js'
import type { Store } from '../platform/db/store.js'
import type { WriteBatcher } from '../platform/db/write-batch.js'
import type { OutboundHttp, OutboundResult } from '../platform/outbound/http.js'
import { previousLive, type WebhookTarget } from '../tenants/index.js'
import type { Delivery, DeliveryStatus } from './delivery.js'
import { judgeAttempt } from './retry-policy.js'

export interface SenderOptions {
  store: Store
  /** Attempt records share the batches' commits; one transaction each without. */
  writes?: Pick<WriteBatcher, 'run'>
  http: Pick<OutboundHttp, 'post'>
  clock: Clock
  log: FastifyBaseLogger
  scheduleSeconds: readonly number[]
  random?: () => number
}

/** What the attempt left: the delivery's next step. */
export type AttemptOutcome =
  | { kind: 'delivered' }
  | { kind: 'retry'; at: Date; reason: string }
  | { kind: 'dead'; reason: string }
  /** 410 Gone: the endpoint is to be disabled, its pending deliveries dead. */
  | { kind: 'endpoint-gone'; reason: string }
  /** Nothing recorded: the delivery changed meanwhile (another attempt's record, or a 410's). */
  | { kind: 'unrecorded' }

const day = 24 * 60 * 60 * 1000
/** One attempt's whole budget (connect, send, answer). */
const timeoutMs = 15_000
/** An endpoint failing for this long is paused (docs/webhooks.md: 5 days). */
const pauseAfterMs = 5 * day

/**
 * The `webhook-signature` header: one `v1,` signature per secret, space-separated (Standard Webhooks).
 * During a rotation's overlap window the new and the replaced secret both sign, newest first, so a
 * receiver verifying with either secret accepts the message. The events long-poll signs with it too.
 */
export function signatures(secrets: readonly string[], id: string, at: Date, body: string): string {
  return secrets.map((secret) => new Webhook(secret).sign(id, at, body)).join(' ')
}

export class WebhookSender {
  /** Attempts recorded since start (the worker's summary line reads it). */
  attempts = 0
  private readonly random: () => number
  private readonly write: <T>(work: (tx: Store) => Promise<T>) => Promise<T>

  constructor(private readonly o: SenderOptions) {
    this.random = o.random ?? Math.random
    this.write = o.writes ? (work) => o.writes!.run(work) : (work) => o.store.transaction(work)
  }

  /**
   * Sends the delivery once to `target` (its vendor's endpoint, read with the delivery) and records the
   * attempt. `failing`: whether the endpoint was failing when the delivery was read (false: a success
   * has no failing run to clear, and writes nothing for it; a run that starts meanwhile is cleared by
   * the next success). `answered`: called once the endpoint
   * answered (or the attempt failed), before the record: what the cap of 4 per endpoint protects is
   * over. `finishIn`: written with the record of an attempt that ends the delivery (delivered or dead):
   * the delivery's job removes itself in the same commit.
   */
  async attempt(
    d: Delivery,
    target: WebhookTarget,
    failing: boolean,
    hooks: { answered?: () => void; finishIn?: (tx: Store) => Promise<void> } = {},
  ): Promise<AttemptOutcome> {
    const { answered, finishIn } = hooks
    const { clock, log } = this.o
    const { url, secret, previousSecret, authHeader } = target
    const started = clock()
    let result: OutboundResult
    if (!url || !secret) {
      result = {
        kind: 'error',
        error: 'invalid_url',
        message: 'The vendor has no webhook URL.',
        durationMs: 0,
      }
    } else {
      const headers: Record<string, string> = {}
      if (authHeader) {
        const h = JSON.parse(authHeader) as { name: string; value: string }
        headers[h.name.toLowerCase()] = h.value
      }
      headers['webhook-id'] = d.id
      headers['webhook-timestamp'] = String(Math.floor(started.getTime() / 1000))
      const replaced =
        previousSecret && previousLive(previousSecret.expiresAt, started.toISOString())
          ? [previousSecret.secret]
          : []
      headers['webhook-signature'] = signatures([secret, ...replaced], d.id, started, d.body)
      result = await this.o.http.post({ url, headers, body: d.body, timeoutMs })
    }
    answered?.()
    const now = clock()
    const verdict = judgeAttempt({
      result,
      failedAttempts: d.failedAttempts,
      scheduleSeconds: this.o.scheduleSeconds,
      random: this.random,
      now,
      manual: d.manual,
    })
    const next = verdict.kind === 'retry' ? new Date(now.getTime() + verdict.delayMs) : null
    const status: DeliveryStatus =
      verdict.kind === 'delivered' ? 'delivered' : verdict.kind === 'retry' ? 'pending' : 'dead'
    const statusCode = result.kind === 'response' ? result.status : null
    const error =
      result.kind === 'error'
        ? `${result.error}: ${result.message}`
        : verdict.kind === 'delivered'
          ? null
          : verdict.reason
    // The attempt, and a healthy endpoint's mark, in the next batched write.
    const recorded = await this.write(async (tx) => {
      const done = await tx.deliveries.recordAttempt(d, {
        attempt: {
          number: d.attemptCount + 1,
          trigger: d.manual ? 'manual' : 'scheduled',
          url: url ?? '',
          startedAt: started.toISOString(),
          durationMs: Math.round(result.durationMs),
          statusCode,
          error,
          responseBody: result.kind === 'response' ? result.body : null,
          nextAttemptAt: next?.toISOString() ?? null,
        },
        status,
        // Deferrals (Retry-After) and successes do not count as failed attempts.
        failedAttempts:
          verdict.kind === 'delivered' || (verdict.kind === 'retry' && !verdict.spendsAttempt)
            ? d.failedAttempts
            : d.failedAttempts + 1,
        runAt: (next ?? now).toISOString(),
        lastStatus: statusCode,
        lastError: error,
        now: now.toISOString(),
      })
      if (done && failing && verdict.kind === 'delivered')
        await tx.vendors.noteWebhookHealth(d.vendorId, null)
      if (done && finishIn && (verdict.kind === 'delivered' || verdict.kind === 'dead')) await finishIn(tx)
      return done
    })
    if (!recorded) {
      log.warn({ deliveryId: d.id }, 'a delivery changed before its attempt was recorded')
      return { kind: 'unrecorded' }
    }
    this.attempts++
    log.debug(
      { deliveryId: d.id, vendorId: d.vendorId, status: statusCode, outcome: verdict.kind },
      'webhook attempt',
    )
    switch (verdict.kind) {
      case 'delivered':
        return verdict
      case 'disable-endpoint':
        return { kind: 'endpoint-gone', reason: verdict.reason }
      case 'retry':
        await this.noteFailure(d.vendorId, now)
        return { kind: 'retry', at: next ?? now, reason: verdict.reason }
      case 'dead':
        await this.noteFailure(d.vendorId, now)
        return verdict
    }
  }

  /** Notes the endpoint failing; one failing for days (every attempt since) is paused. */
  private async noteFailure(vendorId: string, now: Date): Promise<void> {
    const { store, log } = this.o
    const nowIso = now.toISOString()
    await store.vendors.noteWebhookHealth(vendorId, nowIso)
    const vendor = await store.vendors.findById(vendorId)
    const since = vendor?.webhookFailingSince
    if (vendor?.webhookState === 'active' && since && now.getTime() - Date.parse(since) >= pauseAfterMs) {
      await store.vendors.setWebhookState(
        vendorId,
        'paused',
        `Every attempt failed since ${since}; deliveries wait until the endpoint is enabled again.`,
        nowIso,
      )
      log.warn({ vendorId, since }, 'webhook endpoint failing for days; paused')
    }
  }
}
