// Delivers the outbox: claims due deliveries, signs each attempt per Standard Webhooks (a fresh
// timestamp and signature every time, the same `webhook-id` always), posts it, logs the attempt and
// applies the retry policy (DESIGN §4). At most `perEndpoint` deliveries are in flight per vendor
// endpoint, and a saturated endpoint is left out of the next claim, so one slow vendor never holds
// back another vendor's events. The request slots are this process's own, or with Redis shared by
// every process of the installation (issue 14), so the limit holds however many workers run.
import type { FastifyBaseLogger } from 'fastify'
import { Webhook } from 'standardwebhooks'
import type { Clock } from '../clock.js'
import type { ClaimedDelivery } from '../db/repositories/deliveries.js'
import type { Store } from '../db/store.js'
import { type WriteBatcher, yieldToLoop } from '../db/write-batch.js'
import { previousLive } from '../domain/credentials.js'
import type { DeliveryStatus } from '../domain/delivery.js'
import type { OutboundHttp, OutboundResult } from '../outbound/http.js'
import { BackgroundLoop, settleWithin } from '../queue/wakeup.js'
import type { RedisHandle } from '../redis/connect.js'
import { type EndpointSlots, LocalEndpointSlots, RedisEndpointSlots, type Slot } from './endpoint-slots.js'
import { type AttemptVerdict, judgeAttempt } from './retry-policy.js'

export interface DispatcherOptions {
  store: Store
  /** Claims and attempt records share the batches' commits (issue 11); one transaction each without. */
  writes?: Pick<WriteBatcher, 'run'>
  http: Pick<OutboundHttp, 'post'>
  clock: Clock
  log: FastifyBaseLogger
  scheduleSeconds: readonly number[]
  random?: () => number
  idleMs?: number
  /** The endpoints' request slots (endpointSlots()); this process's own when left out. */
  slots?: EndpointSlots
}

const day = 24 * 60 * 60 * 1000
/** Deliveries in flight to one endpoint at once: a slow vendor holds back only its own events. */
const perEndpoint = 4
/** Deliveries claimed and not yet recorded in this process at once (sending or waiting their turn). */
const maxInFlight = 64
/** Deliveries one endpoint may have claimed at once: 4 sending, the rest next in line (claimed per turn).
 * Their lease grows with it (75 s): how long a dead worker's claims wait on PostgreSQL. */
const perEndpointClaimed = 16
/** One attempt's whole budget (connect, send, answer). */
const timeoutMs = 15_000
/** A claim's lease covers its wait in line behind the endpoint's other claims, then its own attempt. */
const leaseMs = Math.ceil(perEndpointClaimed / perEndpoint) * timeoutMs + 15_000
/** An endpoint failing for this long is paused (DESIGN §4: 5 days). */
const pauseAfterMs = 5 * day
/**
 * A claim that waited in line this long goes back to the outbox, so its attempt still ends inside its
 * lease. In one process the wait is at most (perEndpointClaimed / perEndpoint - 1) attempts (45 s).
 */
const maxWaitMs = leaseMs - timeoutMs - 5_000
/**
 * With slots shared between processes, a claim refused a slot this long goes back to the outbox,
 * where a process that holds the endpoint's slots takes it: claims do not sit in a line that other
 * processes keep busy.
 */
const sharedMaxWaitMs = 5_000
/** A line refused a slot by the shared store asks again after this long (plus up to as much jitter). */
const slotRetryMs = 150

/**
 * The endpoints' request slots: this process's own, or with Redis leased by every process at once. A
 * slot's lease covers one attempt's budget with a margin and is renewed while the attempt lasts, so a
 * killed process's slots are free again within `timeoutMs + 15 s`, with nothing to clean up.
 */
export function endpointSlots(
  redis: Pick<RedisHandle, 'client' | 'key'> | null,
  log: FastifyBaseLogger,
): EndpointSlots {
  if (!redis) return new LocalEndpointSlots(perEndpoint)
  return new RedisEndpointSlots(redis, {
    limit: perEndpoint,
    lockTimeoutMs: timeoutMs + 15_000,
    refreshMs: 10_000,
    acquireTimeoutMs: 2_000,
    log,
  })
}

/**
 * The `webhook-signature` header: one `v1,` signature per secret, space-separated (Standard Webhooks).
 * During a rotation's overlap window the new and the replaced secret both sign, newest first, so a
 * receiver verifying with either secret accepts the message.
 */
function signatures(secrets: readonly string[], id: string, at: Date, body: string): string {
  return secrets.map((secret) => new Webhook(secret).sign(id, at, body)).join(' ')
}

type Endpoint = Awaited<ReturnType<Store['vendors']['webhookEndpoint']>>

/** A claimed delivery waiting in its endpoint's line since `since` (performance.now()). */
interface Waiting {
  d: ClaimedDelivery
  endpoint: Promise<Endpoint>
  since: number
}

export class WebhookDispatcher {
  /** Attempts recorded since start (the worker's summary line reads it). */
  attempts = 0
  /** Request slots held by this process per endpoint (sending, or its answer not yet given back). */
  private readonly held = new Map<string, number>()
  /** Claimed deliveries waiting for a free request slot of their endpoint, oldest first. */
  private readonly lines = new Map<string, Waiting[]>()
  /** Endpoints whose line is being given slots; true when asked again meanwhile (a slot freed here). */
  private readonly pumping = new Map<string, boolean>()
  /** Offers the lines a slot again (shared slots freed elsewhere wake nothing here). */
  private retryTimer: NodeJS.Timeout | null = null
  /** The slot store could not be asked; logged once until it answers again. */
  private slotsDown = false
  private readonly slots: EndpointSlots
  private readonly maxWaitMs: number
  /** Deliveries claimed and not yet settled, per endpoint (in line, sending or being recorded). */
  private readonly claimedPer = new Map<string, number>()
  private readonly inflight = new Set<Promise<void>>()
  private readonly background = new BackgroundLoop(() => this.loop())
  private readonly idleMs: number
  private readonly random: () => number
  private readonly write: <T>(work: (tx: Store) => Promise<T>) => Promise<T>

  constructor(private readonly o: DispatcherOptions) {
    this.idleMs = o.idleMs ?? 10_000
    this.random = o.random ?? Math.random
    this.write = o.writes ? (work) => o.writes!.run(work) : (work) => o.store.transaction(work)
    this.slots = o.slots ?? new LocalEndpointSlots(perEndpoint)
    this.maxWaitMs = this.slots.shared ? sharedMaxWaitMs : maxWaitMs
  }

  /** Something was queued or replayed: look now instead of at the next timer. */
  wake(): void {
    this.background.wake()
  }

  start(): void {
    this.background.start()
  }

  async stop(graceMs: number): Promise<void> {
    if (this.retryTimer) clearTimeout(this.retryTimer)
    this.retryTimer = null
    if (!(await this.background.stop())) return
    // What waits in line was never sent: it goes back to the outbox at once.
    const unsent = [...this.lines.values()].flat().map((w) => w.d)
    this.lines.clear()
    await this.o.store.deliveries
      .release(unsent, this.o.clock().toISOString())
      .catch((err) => this.o.log.warn({ err }, 'could not give back unsent deliveries; their lease runs out'))
    await settleWithin(this.inflight, graceMs)
  }

  private async loop(): Promise<void> {
    const { store, clock, log } = this.o
    while (this.background.running) {
      let delay = this.idleMs
      // Wakes of one turn (every status_update queued, every attempt ended) make one look, not many.
      await yieldToLoop()
      try {
        let claimedNow = 0
        for (const n of this.claimedPer.values()) claimedNow += n
        if (claimedNow < maxInFlight) {
          const now = clock()
          const nowIso = now.toISOString()
          // Endpoints oldest-due first; each gets at most its free slots. An endpoint at its limit
          // is skipped without reading its backlog: a delivery ending wakes this loop.
          const heads = (await store.deliveries.nextDuePerVendor())
            .filter((h): h is { vendorId: string; next: string } => h.next !== null)
            .sort((a, b) => (a.next < b.next ? -1 : 1))
          let earliest: number | null = null
          const due: string[] = []
          const leaseUntil = new Date(now.getTime() + leaseMs).toISOString()
          for (const h of heads) {
            // Holding none of a shared endpoint's slots, this process claims only what it could send
            // at once if it got them; the rest stays in the outbox for the processes sending.
            const limit = this.slots.shared && !this.held.has(h.vendorId) ? perEndpoint : perEndpointClaimed
            const capacity = limit - (this.claimedPer.get(h.vendorId) ?? 0)
            const room = Math.min(capacity, maxInFlight - claimedNow - due.length)
            if (room <= 0) continue
            if (h.next > nowIso) {
              earliest = Math.min(earliest ?? Number.POSITIVE_INFINITY, Date.parse(h.next))
              continue
            }
            due.push(...(await store.deliveries.dueForVendor(h.vendorId, nowIso, room)))
          }
          // The turn's claims in one statement, in the next batched write.
          const claimed =
            due.length === 0 ? [] : await this.write((tx) => tx.deliveries.claimMany(due, nowIso, leaseUntil))
          if (claimed.length > 0) {
            // Each endpoint's URL and secrets are read (and decrypted) once per turn.
            const endpoints = new Map<string, Promise<Endpoint>>()
            for (const d of claimed) {
              let endpoint = endpoints.get(d.vendorId)
              if (!endpoint) {
                endpoint = store.vendors.webhookEndpoint(d.vendorId)
                endpoint.catch(() => {}) // each delivery awaiting it handles a failure
                endpoints.set(d.vendorId, endpoint)
              }
              this.enqueue(d, endpoint)
            }
            continue
          }
          if (earliest !== null) delay = Math.min(this.idleMs, earliest - clock().getTime())
        }
      } catch (err) {
        log.error({ err }, 'the webhook outbox could not be read; retrying in 1 s')
        delay = 1000
      }
      await this.background.sleep(Math.max(delay, 5))
    }
  }

  /** Puts a claimed delivery in its endpoint's line and starts what the endpoint has room for. */
  private enqueue(d: ClaimedDelivery, endpoint: Promise<Endpoint>): void {
    const line = this.lines.get(d.vendorId) ?? []
    line.push({ d, endpoint, since: performance.now() })
    this.lines.set(d.vendorId, line)
    add(this.claimedPer, d.vendorId, 1)
    this.pump(d.vendorId)
  }

  /** Gives the endpoint's line slots while it has deliveries waiting and slots are free. */
  private pump(vendorId: string): void {
    if (this.pumping.has(vendorId)) {
      this.pumping.set(vendorId, true)
      return
    }
    this.pumping.set(vendorId, false)
    const p: Promise<void> = this.fill(vendorId)
      .catch((err) => this.o.log.error({ err, vendorId }, 'webhook line failed unexpectedly'))
      .finally(() => this.inflight.delete(p))
    this.inflight.add(p)
  }

  private async fill(vendorId: string): Promise<void> {
    try {
      for (;;) {
        const line = this.lines.get(vendorId)
        if (line) this.giveBackStale(vendorId, line)
        if (!this.background.running || !line || line.length === 0) {
          if (line?.length === 0) this.lines.delete(vendorId)
          return
        }
        this.pumping.set(vendorId, false)
        let slot: Slot | null = null
        let failed = false
        try {
          slot = await this.slots.tryAcquire(vendorId)
          this.slotsAnswer(null)
        } catch (err) {
          this.slotsAnswer(err)
          failed = true
        }
        if (slot === null) {
          // A slot freed here meanwhile is worth asking for at once; otherwise the line waits for an
          // attempt here to end, or (shared, or the store not answering) for the retry timer.
          if (!failed && this.pumping.get(vendorId)) continue
          if (failed || this.slots.shared) this.retrySoon()
          return
        }
        const next = this.background.running ? this.lines.get(vendorId)?.shift() : undefined
        if (!next) {
          // Stopped, or the line was given back while the slot was being taken.
          await this.slots.release(slot).catch(() => {})
          continue
        }
        add(this.held, vendorId, 1)
        this.run(next.d, next.endpoint, slot)
      }
    } finally {
      this.pumping.delete(vendorId)
    }
  }

  /** Claims that waited in line longer than maxWaitMs go back to the outbox (their lease runs on). */
  private giveBackStale(vendorId: string, line: Waiting[]): void {
    const cutoff = performance.now() - this.maxWaitMs
    let n = 0
    while (n < line.length && line[n]!.since < cutoff) n++
    if (n === 0) return
    const stale = line.splice(0, n).map((w) => w.d)
    add(this.claimedPer, vendorId, -n)
    const p: Promise<void> = this.o.store.deliveries
      .release(stale, this.o.clock().toISOString())
      .catch((err) =>
        this.o.log.warn({ err }, 'could not give back waiting deliveries; their lease runs out'),
      )
      .finally(() => {
        this.inflight.delete(p)
        this.background.wake()
      })
    this.inflight.add(p)
  }

  /** Offers every waiting line a slot again shortly: once per timer, never in a tight loop. */
  private retrySoon(): void {
    if (this.retryTimer || !this.background.running) return
    this.retryTimer = setTimeout(
      () => {
        this.retryTimer = null
        for (const vendorId of [...this.lines.keys()]) this.pump(vendorId)
      },
      slotRetryMs * (1 + this.random()),
    )
  }

  /** Notes whether the slot store answered; its being unreachable is logged once, not per delivery. */
  private slotsAnswer(err: unknown): void {
    if (err === null) {
      if (this.slotsDown) this.o.log.info('endpoint slots can be taken again; webhook deliveries go on')
      this.slotsDown = false
      return
    }
    if (this.slotsDown) return
    this.slotsDown = true
    this.o.log.warn(
      { err },
      'endpoint slots cannot be taken (Redis unreachable): no webhook is sent until they can; deliveries wait and are tried again',
    )
  }

  private run(d: ClaimedDelivery, endpoint: Promise<Endpoint>, slot: Slot): void {
    // The request slot frees once the answer is in; recording the attempt goes on beside the next one.
    let freed: Promise<void> | undefined
    const answered = () => {
      freed ??= this.slots
        .release(slot)
        .catch((err) =>
          this.o.log.warn(
            { err, vendorId: d.vendorId },
            'an endpoint slot was not given back; its lease runs out',
          ),
        )
        .finally(() => {
          add(this.held, d.vendorId, -1)
          this.pump(d.vendorId)
        })
    }
    const p: Promise<void> = this.deliver(d, endpoint, answered)
      .catch((err) => this.o.log.error({ err, deliveryId: d.id }, 'webhook delivery failed unexpectedly'))
      .finally(async () => {
        answered()
        await freed
        add(this.claimedPer, d.vendorId, -1)
        this.inflight.delete(p)
        this.background.wake()
      })
    this.inflight.add(p)
  }

  /** One attempt at one delivery. */
  async deliver(d: ClaimedDelivery, endpoint?: Promise<Endpoint>, answered?: () => void): Promise<void> {
    const { store, clock, log } = this.o
    const { url, secret, previousSecret, authHeader } = await (endpoint ??
      store.vendors.webhookEndpoint(d.vendorId))
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
      if (done && verdict.kind === 'delivered') await tx.vendors.noteWebhookHealth(d.vendorId, null)
      return done
    })
    if (!recorded) {
      log.warn({ deliveryId: d.id }, 'a delivery lease ran out before its attempt was recorded')
      return
    }
    this.attempts++
    log.debug(
      { deliveryId: d.id, vendorId: d.vendorId, status: statusCode, outcome: verdict.kind },
      'webhook attempt',
    )
    if (verdict.kind !== 'delivered') await this.endpointHealth(d.vendorId, verdict, now)
  }

  private async endpointHealth(vendorId: string, verdict: AttemptVerdict, now: Date): Promise<void> {
    const { store, log } = this.o
    const nowIso = now.toISOString()
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

/** Adds `by` to a per-key count, dropping keys that reach zero. */
function add(counts: Map<string, number>, key: string, by: number): void {
  const n = (counts.get(key) ?? 0) + by
  if (n <= 0) counts.delete(key)
  else counts.set(key, n)
}
