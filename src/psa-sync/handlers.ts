// The work of two-way sync's jobs (jobs.ts; docs/psa/sync.md): registering a partner's push with its
// PSA, reading back the tickets pushes named, and the reconciliation poll. Every PSA call goes through
// the partner's connection (its limiter keeps to the PSA's rate budget) within PSA_TIMEOUT_MS.
import type { FastifyBaseLogger } from 'fastify'
import { type Clock, iso } from '../platform/clock.js'
import type { Config } from '../platform/config.js'
import type { Store } from '../platform/db/store.js'
import type { JobResult } from '../platform/queue/port.js'
import type { PsaOperations, PsaRegistry } from '../psa/index.js'
import { afterFailure, psaNames } from '../psa/index.js'
import type { Partner } from '../tenants/index.js'
import type { PsaSyncApplier } from './apply.js'
import type { PollRound, PsaSyncHandlers, PsaSyncJobs } from './jobs.js'
import { PsaPoll } from './poll.js'
import { newPushSecret, pushToken, pushUrls, tokenDigest } from './secrets.js'
import { psaIdsOf } from './synced-tickets.js'

export interface PsaSyncHandlerDeps {
  store: Store
  psa: Pick<PsaRegistry, 'connect'>
  clock: Clock
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>
  applier: PsaSyncApplier
  jobs: PsaSyncJobs
  config: Config['psaSync'] & { psaTimeoutMs: number }
  /** The address PSAs push to: PUBLIC_URL, else the one the service listens on (null before it does). */
  publicUrl(): string | null
}

/** How many pushed ids one read takes. */
const readBatch = 200

export class PsaSyncWork implements PsaSyncHandlers {
  private readonly rounds: PsaPoll

  constructor(private readonly d: PsaSyncHandlerDeps) {
    this.rounds = new PsaPoll(d)
  }

  private budget(): { signal: AbortSignal } {
    return { signal: AbortSignal.timeout(this.d.config.psaTimeoutMs * 3) }
  }

  private async connect(partnerId: string): Promise<{ partner: Partner; client: PsaOperations } | JobResult> {
    const partner = await this.d.store.partners.findById(partnerId)
    if (!partner) return { kind: 'done' }
    const connected = this.d.psa.connect(partner.id, partner.psa)
    if (!connected.ok) return afterFailure(connected.failure, 'the PSA connection cannot be used')
    return { partner, client: connected.client }
  }

  /** A link for the partner's current PSA kind: a new secret (a new URL) when the kind changed. */
  private async link(partner: Partner) {
    const { store, clock } = this.d
    const found = await store.psaSync.find(partner.id)
    if (found && found.psaKind === partner.psa.kind) return found
    const secret = newPushSecret()
    await store.psaSync.replace(
      {
        partnerId: partner.id,
        tokenDigest: tokenDigest(pushToken(secret)),
        secret,
        psaKind: partner.psa.kind,
      },
      iso(clock),
    )
    return (await store.psaSync.find(partner.id))!
  }

  async register(partnerId: string): Promise<JobResult> {
    const { store, clock, log } = this.d
    const connected = await this.connect(partnerId)
    if (!('client' in connected)) return connected
    const { partner, client } = connected
    const link = await this.link(partner)
    const name = psaNames[partner.psa.kind]
    const now = iso(clock)
    const pollOnly = (detail: string) =>
      store.psaSync.setRegistration(partnerId, { mechanism: 'poll', registrationId: null, detail }, now)
    if (!client.push) {
      // A push an earlier version registered and the kind no longer takes (Kaseya BMS's webhook): one
      // try at removing it, not retried (a failure is logged), then the poll alone, the id cleared.
      if (link.registrationId && client.retiredPush) {
        const gone = await client.retiredPush.unregister(link.registrationId, this.budget())
        if (!gone.ok)
          log.warn(
            { partnerId, registrationId: link.registrationId, failure: gone.failure.message },
            'two-way sync: the push an earlier version registered could not be removed',
          )
      }
      await pollOnly(
        client.pollOnlyReason ??
          `${name} cannot push ticket changes: alertbridge reads its open tickets back (the poll).`,
      )
      return { kind: 'done' }
    }
    const publicUrl = this.d.publicUrl()
    if (!publicUrl) {
      await pollOnly('PUBLIC_URL is not set, so the PSA has no address to push to: the poll alone hears it.')
      return { kind: 'done' }
    }
    const urls = pushUrls(publicUrl, link.secret)
    // Registering again (the settings changed) first removes the push this link registered before.
    if (link.registrationId) await client.push.unregister(link.registrationId, this.budget())
    const registered = await client.push.register({ ...urls, secret: link.secret }, this.budget())
    if (!registered.ok) {
      log.warn(
        { partnerId, failure: registered.failure.message },
        'two-way sync: the push could not be registered',
      )
      await pollOnly(
        `${name} refused the push's registration (${registered.failure.message}); the poll hears it meanwhile.`,
      )
      return registered.failure.retryable
        ? afterFailure(registered.failure, 'registering the push')
        : { kind: 'done' }
    }
    const r = registered.value
    await store.psaSync.setRegistration(
      partnerId,
      r.mode === 'registered'
        ? { mechanism: 'push', registrationId: r.registrationId, detail: r.detail }
        : { mechanism: 'manual', registrationId: null, detail: JSON.stringify(r.instructions) },
      now,
    )
    return { kind: 'done' }
  }

  async readPending(partnerId: string): Promise<JobResult> {
    const { store } = this.d
    const connected = await this.connect(partnerId)
    if (!('client' in connected)) return connected
    const { partner, client } = connected
    const taken = await store.psaSync.takePending(partnerId, readBatch)
    // Only alertbridge's own tickets are read back: a push may name any ticket of the PSA.
    const ours = await store.psaSync.byPsaTicketIds(partnerId, taken)
    const ids = psaIdsOf(ours)
    if (ids.length > 0) {
      const readStartedAt = iso(this.d.clock)
      // A sync read: it spends only what alerts leave of the budget (poll.ts says how).
      const read = await client.readTickets(ids, { ...this.budget(), spend: 'sync' })
      if (!read.ok) {
        await store.psaSync.addPending(partnerId, ids, iso(this.d.clock))
        return afterFailure(read.failure, 'reading pushed tickets back')
      }
      await this.d.applier.apply(partnerId, partner.psa.kind, read.value, 'push', readStartedAt)
    }
    // Ids pushed while this read ran (or beyond one batch) are read by the next job.
    if (await store.psaSync.hasPending(partnerId)) {
      await store.transaction((tx) => this.d.jobs.read(tx, partnerId, this.d.config.pushCoalesceMs))
      this.d.jobs.handOver()
    }
    return { kind: 'done' }
  }

  /** The reconciliation poll's round (poll.ts), which queues the next round itself. */
  async poll(partnerId: string, o: PollRound = {}): Promise<JobResult> {
    const connected = await this.connect(partnerId)
    if (!('client' in connected)) return connected
    return this.rounds.round(connected.partner, connected.client, o)
  }
}
