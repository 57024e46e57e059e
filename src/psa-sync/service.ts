// Two-way sync's entry points (docs/psa/sync.md): a partner's PSA connection saved (its push is
// registered again and its poll started), a push received at /api/psa-push/{token}, the PSA
// deactivating a push, and what the partner sees of it all (status). The jobs' work is handlers.ts.
import { createHash } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import { LRUCache } from 'lru-cache'
import { type Clock, iso } from '../platform/clock.js'
import type { Config } from '../platform/config.js'
import { ok, type Result, refuse } from '../platform/core/result.js'
import type { Store } from '../platform/db/store.js'
import type { PublicAddress } from '../platform/http/public-address.js'
import type { Limiter } from '../platform/redis/limiters.js'
import type { PsaRegistry } from '../psa/index.js'
import { maxPushTicketIds, psaNames } from '../psa/index.js'
import type { PsaSyncJobs } from './jobs.js'
import type { PsaSyncMechanism } from './repository.js'
import { pushUrls, tokenDigest } from './secrets.js'

export interface PsaSyncDeps {
  store: Store
  psa: Pick<PsaRegistry, 'connect'>
  clock: Clock
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>
  jobs: PsaSyncJobs
  config: Config['psaSync'] & { psaTimeoutMs: number }
  /** Pushes a minute per connection (PSA_PUSH_RATE_PER_MINUTE), keyed by partner. */
  pushLimiter: Limiter
  /** Deactivation calls per connection, each of which reads the PSA (a few an hour), keyed by partner. */
  deactivationLimiter: Limiter
  /** Where pushes are sent: PUBLIC_URL, or the address the service listens on. */
  address: Pick<PublicAddress, 'get'>
}

/** What the partner sees of how its PSA is heard. */
export interface PsaSyncStatus {
  mechanism: PsaSyncMechanism
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
  /**
   * The poll is held back by the connection's budget: its next round, and why (the limiter's words).
   * Null when the last round was not held, or its next round is due already.
   */
  heldUntil: string | null
  heldReason: string | null
  pushesRefused: number
  pollIntervalMs: number
}

const refusedPush = 'The push was refused: unknown address, or its signature or time does not verify.'

export class PsaSync {
  /**
   * Pushes already taken, by connection and body digest, for ten minutes: the same push again (a PSA's
   * retry of a delivery it thought failed, a replay) reads nothing. Only an optimisation: every push is
   * read back, so one this process has not seen changes nothing either.
   */
  private readonly seen = new LRUCache<string, true>({ max: 100_000, ttl: 600_000 })

  constructor(private readonly d: PsaSyncDeps) {}

  publicUrl(): string | null {
    return this.d.address.get()
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

  /** The partner asks for the push to be registered again: now, whatever is queued for later. */
  async registerAgain(partnerId: string): Promise<void> {
    await this.d.store.transaction((tx) => this.d.jobs.registerNow(tx, partnerId))
    this.d.jobs.handOver()
  }

  /**
   * Once the runtime starts: every partner's push registered (once) and its poll running. A link that
   * still holds a push its kind no longer takes (a Kaseya BMS webhook an earlier version registered)
   * is registered again too, so that the register job removes that push and the poll alone hears it.
   */
  async scheduleAll(): Promise<void> {
    const { store } = this.d
    for (const partnerId of await store.psaSync.partnerIds()) {
      const link = await store.psaSync.find(partnerId)
      const retired = link?.registrationId ? await this.holdsRetiredPush(partnerId) : false
      await store.transaction(async (tx) => {
        if (!link || retired) await this.d.jobs.register(tx, partnerId)
        await this.d.jobs.poll(tx, partnerId, this.d.clock())
      })
    }
    this.d.jobs.handOver()
  }

  /** The partner's PSA kind takes no push but can remove one an earlier version registered. */
  private async holdsRetiredPush(partnerId: string): Promise<boolean> {
    const partner = await this.d.store.partners.findById(partnerId)
    const connected = partner && this.d.psa.connect(partner.id, partner.psa)
    return !!connected?.ok && !connected.client.push && !!connected.client.retiredPush
  }

  /**
   * Tickets changed in the in-process sandbox PSA, told here as a push would tell it: they are read back
   * at once instead of at the next poll (a vendor's simulated technician, docs/vendor-api.md#self-serve-test-mode).
   */
  async sandboxChanged(partnerId: string, psaTicketIds: readonly string[]): Promise<void> {
    const now = iso(this.d.clock)
    await this.d.store.transaction(async (tx) => {
      await tx.psaSync.addPending(partnerId, psaTicketIds.slice(0, maxPushTicketIds), now)
      await this.d.jobs.read(tx, partnerId, 0)
    })
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
    if (verdict.ticketIds.length > maxPushTicketIds) {
      this.d.log.warn(
        { partnerId: link.partnerId, tickets: verdict.ticketIds.length },
        'two-way sync: a push named too many tickets',
      )
      return refuse(
        'BODY_TOO_LARGE',
        `The push names more than ${maxPushTicketIds.toLocaleString('en')} tickets; at most ${maxPushTicketIds.toLocaleString('en')} ticket ids are taken per push (send them in several).`,
      )
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

  /**
   * A call of the DeactivationUrl (Autotask after 25 failed deliveries). Only a kind whose PSA
   * deactivates pushes takes it (404 for the others), and it is believed only when the PSA reads the
   * registration back inactive or gone (else 409): then the poll alone hears the PSA until the partner
   * registers the push again. Nothing is registered again by itself: the cause (our address failing)
   * wants looking at. docs/psa/sync.md#where-pushes-arrive.
   */
  async deactivated(token: string): Promise<Result<null>> {
    const { store, clock } = this.d
    const link = await store.psaSync.findByDigest(tokenDigest(token))
    if (!link) return refuse('UNAUTHENTICATED', refusedPush)
    const partner = await store.partners.findById(link.partnerId)
    const connected = partner?.psa.kind === link.psaKind ? this.d.psa.connect(partner.id, partner.psa) : null
    const push = connected?.ok ? connected.client.push : null
    const name = psaNames[link.psaKind as keyof typeof psaNames] ?? link.psaKind
    if (!push?.readRegistration)
      return refuse('NOT_FOUND', `${name} does not deactivate pushes; this URL takes no deactivation.`)
    if (link.mechanism !== 'push' || !link.registrationId)
      return refuse('CONFLICT', `No ${name} push is registered for this connection; nothing changed.`)
    const limited = await this.d.deactivationLimiter.consume(link.partnerId).then(
      () => null,
      (r: { msBeforeNext?: number }) => r,
    )
    if (limited)
      return refuse('RATE_LIMITED', 'Too many deactivation calls for this PSA connection; retry later.', {
        headers: { 'retry-after': String(Math.max(1, Math.ceil((limited.msBeforeNext ?? 1000) / 1000))) },
      })
    const registrationId = link.registrationId
    const state = await push.readRegistration(registrationId, {
      signal: AbortSignal.timeout(this.d.config.psaTimeoutMs),
    })
    if (!state.ok) {
      this.d.log.warn(
        { partnerId: link.partnerId, failure: state.failure.message },
        'two-way sync: a deactivation could not be read back',
      )
      return refuse('PSA_ERROR', `${name} could not be asked about push ${registrationId}; nothing changed.`)
    }
    if (state.value === 'active')
      return refuse('CONFLICT', `${name} reads push ${registrationId} as active; nothing changed.`)
    const at = iso(clock)
    const detail = `${name} ${state.value === 'gone' ? 'no longer has' : 'deactivated'} push ${registrationId} (seen at ${at}); the poll hears the PSA meanwhile. Register the push again once the PSA can reach alertbridge (the portal's sync panel, or POST /api/partner/psa/sync/register).`
    // A registration made while Autotask answered (the partner registered again) is left alone.
    await store.psaSync.setRegistration(link.partnerId, { mechanism: 'poll', registrationId, detail }, at, {
      registrationId,
    })
    this.d.log.info(
      { partnerId: link.partnerId, registrationId },
      'two-way sync: the PSA deactivated the push',
    )
    return ok(null)
  }

  async status(partnerId: string): Promise<PsaSyncStatus | null> {
    const link = await this.d.store.psaSync.find(partnerId)
    if (!link) return null
    const manual = link.mechanism === 'manual'
    const base = this.publicUrl()
    const instructions = manual && link.detail ? (JSON.parse(link.detail) as string[]) : null
    const held = link.held && link.held.until > this.d.clock().toISOString() ? link.held : null
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
      heldUntil: held?.until ?? null,
      heldReason: held?.reason ?? null,
      pushesRefused: link.pushesRefused,
      pollIntervalMs:
        link.mechanism === 'push' ? this.d.config.pollPushIntervalMs : this.d.config.pollIntervalMs,
    }
  }
}
