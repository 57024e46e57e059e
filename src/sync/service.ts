// Two-way sync's entry points (docs/psa/sync.md): a partner's PSA connection saved (its push is
// registered again and its poll started), a push received at /api/psa-push/{token}, the PSA
// deactivating a push, and what the partner sees of it all (status). The jobs' work is handlers.ts.
import { createHash } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import { LRUCache } from 'lru-cache'
import { type Clock, iso } from '../clock.js'
import type { Config } from '../config.js'
import type { SyncMechanism } from '../db/repositories/psa-sync.js'
import type { Store } from '../db/store.js'
import { psaNames } from '../domain/partner.js'
import { ok, type Result, refuse } from '../domain/result.js'
import type { PsaRegistry } from '../psa/registry.js'
import type { Limiter } from '../redis/limiters.js'
import type { SyncJobs } from './jobs.js'
import { pushUrls, tokenDigest } from './secrets.js'

export interface PsaSyncDeps {
  store: Store
  psa: Pick<PsaRegistry, 'connect'>
  clock: Clock
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>
  jobs: SyncJobs
  config: Config['sync'] & { psaTimeoutMs: number }
  /** Pushes a minute per connection (PSA_PUSH_RATE_PER_MINUTE), keyed by partner. */
  pushLimiter: Limiter
}

/** What the partner sees of how its PSA is heard. */
export interface SyncStatus {
  mechanism: SyncMechanism
  /** A sentence: what is set up, what an administrator must do, or why the poll alone hears the PSA. */
  detail: string | null
  /** manual: the steps an administrator follows in the PSA. */
  instructions: string[] | null
  /** Where the PSA pushes, and the secret it authenticates with (manual set-up only; admins only). */
  pushUrl: string | null
  pushSecret: string | null
  registeredAt: string | null
  lastPushAt: string | null
  lastPollAt: string | null
  lastHeardAt: string | null
  pushesRefused: number
  pollIntervalMs: number
}

const refusedPush = 'The push was refused: unknown address, or its signature or time does not verify.'

export class PsaSync {
  private listening: string | null = null
  /**
   * Pushes already taken, by connection and body digest, for ten minutes: the same push again (a PSA's
   * retry of a delivery it thought failed, a replay) reads nothing. Only an optimisation: every push is
   * read back, so one this process has not seen changes nothing either.
   */
  private readonly seen = new LRUCache<string, true>({ max: 100_000, ttl: 600_000 })

  constructor(private readonly d: PsaSyncDeps) {}

  /** The address the service listens on, for pushes when PUBLIC_URL is not set. */
  listeningAt(url: string): void {
    this.listening = url
  }

  publicUrl(): string | null {
    return this.d.config.publicUrl ?? this.listening
  }

  /** Inside the transaction that created or changed a partner's PSA connection. */
  async connectionChanged(tx: Store, partnerId: string): Promise<void> {
    await this.d.jobs.register(tx, partnerId)
    await this.d.jobs.poll(tx, partnerId, this.d.clock())
  }

  /** Hands queued sync jobs to the runners once the caller's transaction committed. */
  handOver(): void {
    this.d.jobs.handOver()
  }

  /** The partner asks for the push to be registered again. */
  async registerAgain(partnerId: string): Promise<void> {
    await this.d.store.transaction((tx) => this.d.jobs.register(tx, partnerId))
    this.d.jobs.handOver()
  }

  /** Once the runtime starts: every partner's push registered (once) and its poll running. */
  async scheduleAll(): Promise<void> {
    const { store } = this.d
    for (const partnerId of await store.psaSync.partnerIds()) {
      const link = await store.psaSync.find(partnerId)
      await store.transaction(async (tx) => {
        if (!link) await this.d.jobs.register(tx, partnerId)
        await this.d.jobs.poll(tx, partnerId, this.d.clock())
      })
    }
    this.d.jobs.handOver()
  }

  /**
   * A push at /api/psa-push/{token}: the token names the connection, the PSA's own check (signature,
   * Basic auth, secret header, time) must pass, and only the ticket ids it names are taken, to be read
   * back from the PSA. Refused pushes change nothing.
   */
  async receive(
    token: string,
    headers: Readonly<Record<string, string | string[] | undefined>>,
    rawBody: Buffer,
  ): Promise<Result<{ received: number }>> {
    const { store, clock } = this.d
    const link = await store.psaSync.findByDigest(tokenDigest(token))
    if (!link) return refuse('UNAUTHENTICATED', refusedPush)
    const limited = await this.d.pushLimiter.consume(link.partnerId).then(
      () => null,
      (r: { msBeforeNext?: number }) => r,
    )
    if (limited)
      return refuse('RATE_LIMITED', 'Too many pushes for this PSA connection; retry later.', {
        headers: { 'retry-after': String(Math.max(1, Math.ceil((limited.msBeforeNext ?? 1000) / 1000))) },
      })
    const partner = await store.partners.findById(link.partnerId)
    const connected = partner && this.d.psa.connect(partner.id, partner.psa)
    if (!connected?.ok || !connected.client.push) return refuse('UNAUTHENTICATED', refusedPush)
    const verdict = await connected.client.push.verify(
      { headers, rawBody, secret: link.secret, now: clock() },
      { signal: AbortSignal.timeout(this.d.config.psaTimeoutMs) },
    )
    if (!verdict.ok) {
      await store.psaSync.refused(link.partnerId)
      this.d.log.warn(
        { partnerId: link.partnerId, reason: verdict.reason },
        'two-way sync: a push was refused',
      )
      return refuse('UNAUTHENTICATED', refusedPush)
    }
    const seenKey = `${link.partnerId}:${createHash('sha256').update(rawBody).digest('base64url')}`
    if (this.seen.has(seenKey)) return ok({ received: 0 })
    this.seen.set(seenKey, true)
    const now = iso(clock)
    await store.transaction(async (tx) => {
      await tx.psaSync.addPending(link.partnerId, verdict.ticketIds, now)
      await tx.psaSync.heard(link.partnerId, 'push', now)
      if (verdict.ticketIds.length > 0)
        await this.d.jobs.read(tx, link.partnerId, this.d.config.pushCoalesceMs)
    })
    this.d.jobs.handOver()
    return ok({ received: verdict.ticketIds.length })
  }

  /** The PSA deactivated the push (Autotask after 25 failed deliveries): the poll hears it meanwhile,
   * and the push is registered again in an hour. */
  async deactivated(token: string): Promise<Result<null>> {
    const { store, clock } = this.d
    const link = await store.psaSync.findByDigest(tokenDigest(token))
    if (!link) return refuse('UNAUTHENTICATED', refusedPush)
    const name = psaNames[link.psaKind as keyof typeof psaNames] ?? link.psaKind
    await store.transaction(async (tx) => {
      await tx.psaSync.setRegistration(
        link.partnerId,
        {
          mechanism: 'poll',
          registrationId: link.registrationId,
          detail: `${name} deactivated the push after failed deliveries at ${iso(clock)}; the poll hears the PSA meanwhile and the push is registered again within an hour.`,
        },
        iso(clock),
      )
      await this.d.jobs.register(tx, link.partnerId, 3_600_000)
    })
    this.d.jobs.handOver()
    return ok(null)
  }

  async status(partnerId: string): Promise<SyncStatus | null> {
    const link = await this.d.store.psaSync.find(partnerId)
    if (!link) return null
    const manual = link.mechanism === 'manual'
    const base = this.publicUrl()
    const instructions = manual && link.detail ? (JSON.parse(link.detail) as string[]) : null
    return {
      mechanism: link.mechanism,
      detail: manual ? 'An administrator sets the push up in the PSA, following these steps.' : link.detail,
      instructions,
      pushUrl: manual && base ? pushUrls(base, link.secret).url : null,
      pushSecret: manual ? link.secret : null,
      registeredAt: link.registeredAt,
      lastPushAt: link.lastPushAt,
      lastPollAt: link.lastPollAt,
      lastHeardAt: link.lastHeardAt,
      pushesRefused: link.pushesRefused,
      pollIntervalMs:
        link.mechanism === 'push' ? this.d.config.pollPushIntervalMs : this.d.config.pollIntervalMs,
    }
  }
}
