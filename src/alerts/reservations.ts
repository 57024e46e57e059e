// The reservation protocol that keeps one ticket per correlationId and per open dedup key (DESIGN §3
// correctness rules): a ticket row is reserved (status `creating`, with a lease) before the PSA is
// called, and a close is claimed (`closing`) the same way; the unique constraints of the tickets table
// decide between concurrent requests. A request that loses waits for the winner to settle and decides
// again; a reservation whose holder died expires with its lease.
import type { Clock } from '../clock.js'
import type { Reservation } from '../db/repositories/tickets.js'
import type { Store } from '../db/store.js'
import type { WriteBatcher } from '../db/write-batch.js'
import type { Decision } from '../domain/decide.js'
import type { Integration } from '../domain/integration.js'
import type { AlertFacts, Ticket } from '../domain/types.js'
import { operationBudgetMs } from './psa-calls.js'
import type { Settlement } from './settlement.js'

export class TicketReservations {
  constructor(
    private readonly deps: {
      store: Store
      /** The reservation is committed (in a shared batch) before the PSA is called. */
      writes: Pick<WriteBatcher, 'run'>
      clock: Clock
      settlement: Settlement
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
   * Reserves the ticket of a create. `busy` when another request holds the correlationId or the dedup
   * key: this waits for it to settle first, and the caller decides again. `after-dead`: the reservation
   * took the place of a creator that died holding it, whose PSA call may have made the ticket.
   */
  async reserve(
    ticketId: string,
    integration: Pick<Integration, 'id' | 'partnerId'>,
    alert: AlertFacts,
    d: Extract<Decision, { kind: 'create' }>,
    psaKind: string,
  ): Promise<'reserved' | 'after-dead' | 'busy'> {
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
    const reserved = await this.deps.writes.run((tx) => tx.tickets.reserve(r, d.retireTicketId))
    if (reserved !== 'busy') return reserved
    await this.waitWhileCreating(r.integrationId, async () => {
      const holders = await Promise.all([
        store.tickets.findByCorrelation(r.integrationId, r.correlationId),
        r.dedupOpenKey ? store.tickets.findByOpenDedupKey(r.integrationId, r.dedupOpenKey) : null,
      ])
      return holders.find((t) => t?.status === 'creating') ?? null
    })
    return 'busy'
  }

  /** Takes the right to close (open → closing). False after waiting for a concurrent close to settle. */
  async claimClose(integrationId: string, ticket: Ticket): Promise<boolean> {
    const { store, clock, settlement } = this.deps
    const now = clock()
    const claimed = await this.deps.writes.run((tx) =>
      tx.tickets.claimClose(ticket.id, this.leaseUntil(now), now.toISOString()),
    )
    if (claimed) return true
    await settlement.waitFor(
      integrationId,
      async () => (await store.tickets.get(ticket.id))?.status !== 'closing',
      this.waitDeadline(),
    )
    return false
  }

  /** The PSA id of a ticket, or null after waiting for a concurrent creation of it to settle. */
  async createdTicketId(integrationId: string, ticket: Ticket): Promise<string | null> {
    if (ticket.status !== 'creating' && ticket.psaTicketId !== null) return ticket.psaTicketId
    await this.waitWhileCreating(integrationId, () => this.deps.store.tickets.get(ticket.id))
    return null
  }

  /** Wakes the requests of this process waiting on the integration's reservations. */
  settled(integrationId: string): void {
    this.deps.settlement.settled(integrationId)
  }

  /** Waits until the ticket `load` finds is no longer being created (or its creator's lease ran out). */
  private async waitWhileCreating(
    integrationId: string,
    load: () => Promise<{ status: string; leaseUntil: string | null } | null>,
  ): Promise<void> {
    await this.deps.settlement.waitFor(
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
