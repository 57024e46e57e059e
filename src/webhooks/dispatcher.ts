// Delivers the outbox: claims due deliveries, signs each attempt per Standard Webhooks (a fresh
// timestamp and signature every time, the same `webhook-id` always), posts it, logs the attempt and
// applies the retry policy (DESIGN §4). At most `perEndpoint` deliveries are in flight per vendor
// endpoint, and a saturated endpoint is left out of the next claim, so one slow vendor never holds
// back another vendor's events.
import type { FastifyBaseLogger } from 'fastify'
import { Webhook } from 'standardwebhooks'
import type { Clock } from '../clock.js'
import type { ClaimedDelivery } from '../db/repositories/deliveries.js'
import type { Store } from '../db/store.js'
import { previousLive } from '../domain/credentials.js'
import type { DeliveryStatus } from '../domain/delivery.js'
import type { OutboundHttp, OutboundResult } from '../outbound/http.js'
import { settleWithin, Wakeup } from '../queue/wakeup.js'
import { type AttemptVerdict, judgeAttempt } from './retry-policy.js'

export interface DispatcherOptions {
  store: Store
  http: Pick<OutboundHttp, 'post'>
  clock: Clock
  log: FastifyBaseLogger
  scheduleSeconds: readonly number[]
  random?: () => number
  idleMs?: number
}

const day = 24 * 60 * 60 * 1000
/** Deliveries in flight to one endpoint at once: a slow vendor holds back only its own events. */
const perEndpoint = 4
/** Deliveries in flight in this process at once. */
const maxInFlight = 64
/** One attempt's whole budget (connect, send, answer). */
const timeoutMs = 15_000
/** An endpoint failing for this long is paused (DESIGN §4: 5 days). */
const pauseAfterMs = 5 * day

/**
 * The `webhook-signature` header: one `v1,` signature per secret, space-separated (Standard Webhooks).
 * During a rotation's overlap window the new and the replaced secret both sign, newest first, so a
 * receiver verifying with either secret accepts the message.
 */
function signatures(secrets: readonly string[], id: string, at: Date, body: string): string {
  return secrets.map((secret) => new Webhook(secret).sign(id, at, body)).join(' ')
}

export class WebhookDispatcher {
  private readonly perVendor = new Map<string, number>()
  private readonly inflight = new Set<Promise<void>>()
  private readonly wakeup = new Wakeup()
  private running = false
  private loopDone: Promise<void> = Promise.resolve()
  private readonly idleMs: number
  private readonly random: () => number

  constructor(private readonly o: DispatcherOptions) {
    this.idleMs = o.idleMs ?? 10_000
    this.random = o.random ?? Math.random
  }

  /** Something was queued or replayed: look now instead of at the next timer. */
  wake(): void {
    this.wakeup.wake()
  }

  start(): void {
    if (this.running) return
    this.running = true
    this.loopDone = this.loop()
  }

  async stop(graceMs: number): Promise<void> {
    if (!this.running) return
    this.running = false
    this.wakeup.wake()
    await this.loopDone
    await settleWithin(this.inflight, graceMs)
  }

  private async loop(): Promise<void> {
    const { store, clock, log } = this.o
    while (this.running) {
      let delay = this.idleMs
      try {
        if (this.inflight.size < maxInFlight) {
          const now = clock()
          const nowIso = now.toISOString()
          // Endpoints oldest-due first; each gets at most its free slots. An endpoint at its limit
          // is skipped without reading its backlog: a delivery ending wakes this loop.
          const heads = (await store.deliveries.nextDuePerVendor())
            .filter((h): h is { vendorId: string; next: string } => h.next !== null)
            .sort((a, b) => (a.next < b.next ? -1 : 1))
          let started = 0
          let earliest: number | null = null
          for (const h of heads) {
            const capacity = perEndpoint - (this.perVendor.get(h.vendorId) ?? 0)
            const room = Math.min(capacity, maxInFlight - this.inflight.size)
            if (room <= 0) continue
            if (h.next > nowIso) {
              earliest = Math.min(earliest ?? Number.POSITIVE_INFINITY, Date.parse(h.next))
              continue
            }
            const leaseUntil = new Date(now.getTime() + timeoutMs + 15_000).toISOString()
            for (const c of await store.deliveries.dueForVendor(h.vendorId, nowIso, room)) {
              const claimed = await store.deliveries.claim(c.id, nowIso, leaseUntil)
              if (claimed) {
                this.run(claimed)
                started++
              }
            }
          }
          if (started > 0) continue
          if (earliest !== null) delay = Math.min(this.idleMs, earliest - clock().getTime())
        }
      } catch (err) {
        log.error({ err }, 'the webhook outbox could not be read; retrying in 1 s')
        delay = 1000
      }
      if (this.running) await this.wakeup.wait(Math.max(delay, 5))
    }
  }

  private run(d: ClaimedDelivery): void {
    this.perVendor.set(d.vendorId, (this.perVendor.get(d.vendorId) ?? 0) + 1)
    const p = this.deliver(d)
      .catch((err) => this.o.log.error({ err, deliveryId: d.id }, 'webhook delivery failed unexpectedly'))
      .finally(() => {
        const n = (this.perVendor.get(d.vendorId) ?? 1) - 1
        if (n <= 0) this.perVendor.delete(d.vendorId)
        else this.perVendor.set(d.vendorId, n)
        this.inflight.delete(p)
        this.wakeup.wake()
      })
    this.inflight.add(p)
  }

  /** One attempt at one delivery. */
  async deliver(d: ClaimedDelivery): Promise<void> {
    const { store, clock, log } = this.o
    const { url, secret, previousSecret, authHeader } = await store.vendors.webhookEndpoint(d.vendorId)
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
      result = await this.o.http.post({ url, headers, body: d.body, timeoutMs: timeoutMs })
    }
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
    const recorded = await store.deliveries.recordAttempt(d, {
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
    if (!recorded) {
      log.warn({ deliveryId: d.id }, 'a delivery lease ran out before its attempt was recorded')
      return
    }
    log.info(
      { deliveryId: d.id, vendorId: d.vendorId, status: statusCode, outcome: verdict.kind },
      'webhook attempt',
    )
    await this.endpointHealth(d.vendorId, verdict, now)
  }

  private async endpointHealth(vendorId: string, verdict: AttemptVerdict, now: Date): Promise<void> {
    const { store, log } = this.o
    const nowIso = now.toISOString()
    if (verdict.kind === 'delivered') {
      await store.vendors.noteWebhookHealth(vendorId, null)
      return
    }
    if (verdict.kind === 'disable-endpoint') {
      await store.vendors.setWebhookState(vendorId, 'disabled', verdict.reason, nowIso)
      const killed = await store.deliveries.killPending(
        vendorId,
        `The endpoint answered 410 Gone and was disabled; replay once it is enabled.`,
        nowIso,
      )
      log.warn({ vendorId, killed }, 'webhook endpoint answered 410; disabled')
      return
    }
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
