// The reservation protocol that keeps one ticket per correlationId and per open dedup key
// (docs/decision-table.md#one-ticket-per-correlation-id): a ticket row is reserved (status `creating`, with
// a lease) before the PSA is called, and a close is claimed (`closing`) the same way; the unique
// constraints of the tickets table decide between concurrent requests. A request that loses waits for the
// winner to settle and decides again; a reservation whose holder died expires with its lease.
import type { Clock } from '../../platform/clock.js'
import type { AlertFacts, Ticket } from '../../platform/core/types.js'
import type { Store } from '../../platform/db/store.js'
import { operationBudgetMs } from '../../psa/index.js'
import type { Integration, StormSettings } from '../../tenants/index.js'
import type { Decision } from '../domain/decide.js'
import { pastCap } from '../steps/storm/storm.js'
import type { Reservation } from '../tickets/repository.js'
import type { ReservationWaits } from './reservation-waits.js'

/** Runs one write: a batched write of its own, or in the caller's open transaction (executor.ts). */
export type RunWrite = <T>(work: (tx: Store) => Promise<T>) => Promise<T>

/**
 * Another request holds the ticket: `wait` returns once it settled (or its lease ran out), and the
 * caller decides again. Waited for after the caller's own writes have committed, never inside them.
 */
export interface Busy {
  kind: 'busy'
  wait(): Promise<void>
}

export class TicketReservations {
  constructor(
    private readonly deps: {
      store: Store
      clock: Clock
      waits: ReservationWaits
      /** How long a holder may take: the PSA call's budget plus a margin. */
      psaTimeoutMs: number
    },
  ) {}

  /** How long a holder may take: a PSA operation's budget plus a margin. */
  get holdMs(): number {
    return operationBudgetMs(this.deps.psaTimeoutMs) + 5000
  }

  /** When a reservation or close claim made now runs out. */
  private leaseUntil(now: Date): string {
    return new Date(now.getTime() + this.holdMs).toISOString()
  }

  /**
   * Reserves the ticket of a create. Busy when another request holds the correlationId or the dedup
   * key. `after-dead`: the reservation took the place of a creator that died holding it, whose PSA
   * call may have made the ticket. `run`: where the reservation is written (for a PSA elsewhere, a
   * batched write of its own, committed before the PSA is called). `past-cap`: storm control is on
   * and, counted again under the account's lock, the cap is reached; nothing was reserved and the
   * caller decides again (the alert folds: docs/decision-table.md#one-storm-ticket).
   */
  async reserve(
    ticketId: string,
    integration: Pick<Integration, 'id' | 'partnerId'>,
    alert: AlertFacts,
    d: Extract<Decision, { kind: 'create' }>,
    psaKind: string,
    run: RunWrite,
  ): Promise<'reserved' | 'after-dead' | 'past-cap' | Busy> {
    const { store, clock } = this.deps
    const now = clock()
    const r: Reservation = {
      id: ticketId,
      integrationId: integration.id,
      partnerId: integration.partnerId,
      correlationId: d.correlationId,
      accountId: alert.accountId,
      productGroup: alert.productGroup,
      alertType: alert.alertType,
      title: alert.title,
      ruleId: d.rule.id,
      psaKind,
      dedupKey: d.dedupKey,
      dedupOpenKey: d.dedupOpenKey,
      leaseUntil: this.leaseUntil(now),
      now: now.toISOString(),
    }
    const reserved = d.stormCap
      ? await this.reserveUnderCap(r, d.retireTicketId, d.stormCap, run)
      : await run((tx) => tx.tickets.reserve(r, d.retireTicketId))
    if (reserved !== 'busy') return reserved
    return {
      kind: 'busy',
      wait: () =>
        this.waitWhileCreating(r.integrationId, async () => {
          const holders = await Promise.all([
            store.tickets.findByCorrelation(r.integrationId, r.correlationId),
            r.dedupOpenKey ? store.tickets.findByOpenDedupKey(r.integrationId, r.dedupOpenKey) : null,
          ])
          return holders.find((t) => t?.status === 'creating') ?? null
        }),
    }
  }

  /**
   * Storm control's cap, decided where the ticket is reserved: under the lock of the account (or of
   * the integration, with an integration-wide cap) the recent creates are counted, reservations
   * included, and only under the cap is the ticket reserved, in the same transaction. A reservation
   * given back (the PSA refused the create) is a row no longer there, so its place under the cap is
   * free again. While another process's transaction holds the lock this tries again each poll.
   */
  private async reserveUnderCap(
    r: Reservation,
    retireTicketId: string | null,
    cap: StormSettings,
    run: RunWrite,
  ): Promise<'reserved' | 'after-dead' | 'past-cap' | 'busy'> {
    const since = new Date(Date.parse(r.now) - cap.windowMinutes * 60_000).toISOString()
    const wide = cap.maxTicketsPerIntegration !== null
    const deadline = this.waitDeadline()
    for (;;) {
      const answer = await run(async (tx) => {
        if (!(await tx.storms.lockCreates(r.integrationId, wide ? null : r.accountId))) return 'locked'
        const accountCreates = await tx.storms.recentCreates(r.integrationId, r.accountId, since)
        const integrationCreates = wide ? await tx.storms.recentCreates(r.integrationId, null, since) : 0
        if (pastCap(cap, { accountCreates, integrationCreates }, r.accountId) !== null) return 'past-cap'
        return tx.tickets.reserve(r, retireTicketId)
      })
      if (answer !== 'locked') return answer
      if (Date.now() > deadline) return 'busy'
      await this.deps.waits.pause(r.integrationId)
    }
  }

  /** Takes the right to close (open → closing); busy while a concurrent close holds it. */
  async claimClose(integrationId: string, ticket: Ticket, run: RunWrite): Promise<'claimed' | Busy> {
    const { store, clock, waits } = this.deps
    const now = clock()
    const claimed = await run((tx) =>
      tx.tickets.claimClose(ticket.id, this.leaseUntil(now), now.toISOString()),
    )
    if (claimed) return 'claimed'
    return {
      kind: 'busy',
      wait: () =>
        waits.waitFor(
          integrationId,
          async () => (await store.tickets.get(ticket.id))?.status !== 'closing',
          this.waitDeadline(),
        ),
    }
  }

  /** The PSA id of a ticket, or null after waiting for a concurrent creation of it to settle. */
  async createdTicketId(integrationId: string, ticket: Ticket): Promise<string | null> {
    if (ticket.status !== 'creating' && ticket.psaTicketId !== null) return ticket.psaTicketId
    await this.waitWhileCreating(integrationId, () => this.deps.store.tickets.get(ticket.id))
    return null
  }

  /** Wakes the requests of this process waiting on the integration's reservations. */
  released(integrationId: string): void {
    this.deps.waits.released(integrationId)
  }

  /** Waits until the ticket `load` finds is no longer being created (or its creator's lease ran out). */
  private async waitWhileCreating(
    integrationId: string,
    load: () => Promise<{ status: string; leaseUntil: string | null } | null>,
  ): Promise<void> {
    await this.deps.waits.waitFor(
      integrationId,
      async () => {
        const t = await load()
        return (
          t?.status !== 'creating' ||
          (t.leaseUntil !== null && t.leaseUntil < this.deps.clock().toISOString())
        )
      },
      this.waitDeadline(),
    )
  }

  private waitDeadline(): number {
    return Date.now() + this.holdMs
  }
}
