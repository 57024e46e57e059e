// The reconciliation poll's round (docs/psa/sync.md#the-poll, #the-poll-and-the-budget): what the PSA
// listed as changed (where it can list that; once a pass, not again on the pages that follow, each
// list starting a minute before the one before was read), then a page of alertbridge's tickets read longest ago —
// its open tickets first, then those closed within the reopen window, so that a technician's reopen is
// heard where no push tells it. Every read is a sync read (src/psa/calls.ts `spend`): it spends only
// what alerts leave of the connection's budgets, and a round held back stops where it is and comes
// back when the budget frees room. The round's first read is `sync-due` once the poll has not heard
// the PSA for an interval, and the next round is never later than that, so the poll is never silent
// for longer than its interval while the PSA has room for one call.
import { type Clock, iso } from '../platform/clock.js'
import type { Config } from '../platform/config.js'
import type { Store } from '../platform/db/store.js'
import type { JobResult } from '../platform/queue/port.js'
import type { PsaCall, PsaFailure, PsaOperations } from '../psa/index.js'
import type { Partner } from '../tenants/index.js'
import type { PsaSyncApplier } from './apply.js'
import type { PollRound, PsaSyncJobs } from './jobs.js'
import { psaIdsOf } from './synced-tickets.js'

export interface PollDeps {
  store: Store
  clock: Clock
  applier: PsaSyncApplier
  jobs: PsaSyncJobs
  config: Config['psaSync'] & { psaTimeoutMs: number }
}

/** Tickets read in one call where a kind names no batch of its own (PsaSyncOperations.readBatch). */
const defaultReadBatch = 10
/** The soonest a round comes back after one the budget or a failure stopped. */
const soonestMs = 1000
/** How long after a failed round (not a wait the PSA or the budget asked for) the next one comes. */
const afterFailureMs = 30_000

/** How a round ended: every due ticket read, a full page read (more are due), or stopped early. */
export type RoundEnd =
  | { kind: 'read'; full: boolean }
  | { kind: 'held'; waitMs: number; reason: string }
  | { kind: 'failed'; failure: PsaFailure }

export class PsaPoll {
  constructor(private readonly d: PollDeps) {}

  /** One round for the partner; it queues the next round itself, whatever this one met. */
  async round(partner: Partner, client: PsaOperations, o: PollRound): Promise<JobResult> {
    const { store, clock, config } = this.d
    const link = await store.psaSync.find(partner.id)
    const interval = link?.mechanism === 'push' ? config.pollPushIntervalMs : config.pollIntervalMs
    const started = clock()
    const lastPoll = link?.lastPollAt ? Date.parse(link.lastPollAt) : null
    const round = new Round(this.d, partner, client, {
      // Not heard by the poll for an interval: the round's first read may go further into the budget.
      due: lastPoll === null || started.getTime() - lastPoll >= interval,
    })
    const carried = o.since !== undefined && Number.isFinite(Date.parse(o.since)) ? o.since : null
    const since = carried ?? (lastPoll === null ? null : minuteBefore(lastPoll))
    const end = await round.run({
      list: o.list !== false,
      since,
      readBefore: new Date(started.getTime() - interval).toISOString(),
    })
    // A read applied marks the poll heard (apply.ts); a listing with nothing of ours to read does here.
    const listed = round.listedAt !== null
    if (listed && !round.readAny) await store.psaSync.heard(partner.id, 'poll', iso(clock))
    else if (!round.readAny && end.kind === 'read') await store.psaSync.polled(partner.id, iso(clock))
    // A round that read everything due (perhaps nothing) is as good as heard for the next one's timing.
    const heard = listed || round.readAny || end.kind === 'read'
    const lastHeard = heard ? clock().getTime() : (lastPoll ?? started.getTime())
    // A pass goes on (a full page, or held back) without its changed list where it was read; the next
    // pass's list starts a minute before this one's was read.
    const next: PollRound = {
      list: end.kind === 'failed' || (end.kind === 'read' && !end.full) || (o.list !== false && !listed),
      ...(round.listedAt !== null ? { since: minuteBefore(round.listedAt) } : since ? { since } : {}),
    }
    await this.next(partner.id, end, interval, lastHeard, next)
    return { kind: 'done' }
  }

  private async next(
    partnerId: string,
    end: RoundEnd,
    interval: number,
    lastHeard: number,
    round: PollRound,
  ): Promise<void> {
    const now = this.d.clock().getTime()
    const waitMs = nextRoundInMs(end, { intervalMs: interval, lastHeard, now })
    const at = new Date(now + waitMs)
    await this.d.store.transaction(async (tx) => {
      await this.d.jobs.poll(tx, partnerId, at, round)
      // Held back: the partner's sync status says why, and when the poll tries again (cleared by the
      // next round that reads, or finds nothing due).
      if (end.kind === 'held') await tx.psaSync.held(partnerId, at.toISOString(), end.reason)
    })
    this.d.jobs.handOver()
  }
}

/**
 * When the next round comes (pure): soon after a full page (a tenth of the interval, spreading a
 * backlog over it), when the budget frees room after a round it held back, a little later after a
 * failure that may pass (one that will not: an interval), else one interval on — and, unless it
 * failed, never later than an interval after the poll last heard the PSA (once overdue, every tenth of
 * the interval), nor ever sooner than a second.
 */
export function nextRoundInMs(
  end: RoundEnd,
  o: { intervalMs: number; lastHeard: number; now: number },
): number {
  const wanted =
    end.kind === 'held'
      ? end.waitMs
      : end.kind === 'failed'
        ? end.failure.retryable
          ? (end.failure.retryAfterMs ?? afterFailureMs)
          : o.intervalMs
        : end.full
          ? Math.max(soonestMs, o.intervalMs / 10)
          : o.intervalMs
  if (end.kind === 'failed') return Math.max(soonestMs, Math.min(wanted, o.intervalMs))
  // Due to be heard within the interval; once overdue (the budget left no room), every tenth of it.
  const latest = o.lastHeard + o.intervalMs - o.now
  const bound = latest > 0 ? latest : o.intervalMs / 10
  return Math.max(soonestMs, Math.min(wanted, bound, o.intervalMs))
}

/** One round's reads and what they met. */
class Round {
  /** When the PSA's list of changed tickets that answered was asked for (ms); null: none answered. */
  listedAt: number | null = null
  /** At least one batch of tickets was read back (and applied). */
  readAny = false
  private due: boolean

  constructor(
    private readonly d: PollDeps,
    private readonly partner: Partner,
    private readonly client: PsaOperations,
    o: { due: boolean },
  ) {
    this.due = o.due
  }

  /** The first call of a due round is `sync-due`; every other one `sync`. */
  private call(): PsaCall {
    const spend = this.due ? 'sync-due' : 'sync'
    this.due = false
    return { signal: AbortSignal.timeout(this.d.config.psaTimeoutMs * 3), spend }
  }

  async run(o: { list: boolean; since: string | null; readBefore: string }): Promise<RoundEnd> {
    const { store, config } = this.d
    const partnerId = this.partner.id
    // Where the PSA lists what changed since a time, its list comes first, once a pass: a change is
    // heard within one round, whatever page it is on.
    if (this.client.changedSince && o.since && o.list) {
      const asked = this.d.clock().getTime()
      const changed = await this.client.changedSince(o.since, this.call())
      if (!changed.ok) return stopped(changed.failure)
      this.listedAt = asked
      const ours = await store.psaSync.byPsaTicketIds(partnerId, changed.value.ticketIds)
      const stop = await this.read(psaIdsOf(ours))
      if (stop) return stop
    }
    const page = await store.psaPoll.nextToPoll(partnerId, {
      readBefore: o.readBefore,
      now: this.d.clock(),
      limit: config.pollPageSize,
    })
    const stop = await this.read(psaIdsOf(page))
    return stop ?? { kind: 'read', full: page.length === config.pollPageSize }
  }

  /**
   * Reads `ids` back a batch at a time and applies each batch as it comes, so that a round the budget
   * stops keeps what it read; null when every batch was read.
   */
  private async read(ids: readonly string[]): Promise<RoundEnd | null> {
    const batch = Math.max(1, this.client.readBatch ?? defaultReadBatch)
    for (let i = 0; i < ids.length; ) {
      // The due read is one ticket's: it keeps the poll heard, not its pace, past the sync ceiling.
      const take = this.due ? 1 : batch
      const readStartedAt = iso(this.d.clock)
      const read = await this.client.readTickets(ids.slice(i, i + take), this.call())
      i += take
      if (!read.ok) return stopped(read.failure)
      this.readAny = true
      await this.d.applier.apply(this.partner.id, this.partner.psa.kind, read.value, 'poll', readStartedAt)
    }
    return null
  }
}

const minuteBefore = (ms: number) => new Date(ms - 60_000).toISOString()

/** A failed read: a wait the budget or the PSA asked for holds the round back; anything else fails it. */
function stopped(failure: PsaFailure): RoundEnd {
  return failure.throttled && failure.retryAfterMs !== undefined
    ? { kind: 'held', waitMs: failure.retryAfterMs, reason: failure.message }
    : { kind: 'failed', failure }
}
