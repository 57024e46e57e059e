// An account the catch-all took in is mapped (docs/decision-table.md#catch-all): its later alerts go to
// its company (the decision table finds the mapping), and each of its open catch-all tickets is moved
// there where the PSA can move a ticket between companies (the sandbox, ConnectWise, Autotask and
// HaloPSA can; Kaseya BMS and Syncro cannot: docs/psa/README.md), else gets a note that says where
// the account's new alerts now go and gives its dedup key up, so that the next OPEN opens a ticket in
// the account's company. The ticket keeps its UPDATE and RESOLVED.
import type { Clock } from '../../../platform/clock.js'
import type { AccountMapping, TicketRecord } from '../../../platform/core/types.js'
import type { Store } from '../../../platform/db/store.js'
import type { PsaOperations, PsaRegistry } from '../../../psa/index.js'
import type { Integration } from '../../../tenants/index.js'
import { remappedNote } from './catch-all.js'

/** What became of the account's open catch-all tickets. */
export interface RemapResult {
  moved: number
  noted: number
  /** Neither moved nor noted (the PSA failed): they still stop taking the account's new alerts. */
  failed: number
}

/** One PSA call's budget. */
const callMs = 10_000

export class CatchAllRemap {
  constructor(private readonly d: { store: Store; psa: PsaRegistry; clock: Clock }) {}

  async remapped(integration: Integration, mapping: AccountMapping): Promise<RemapResult> {
    const { store } = this.d
    const result: RemapResult = { moved: 0, noted: 0, failed: 0 }
    const tickets = await store.catchAll.openTickets(integration.id, mapping.accountId)
    if (tickets.length === 0) return result
    const [partner, account] = await Promise.all([
      store.partners.findById(integration.partnerId),
      store.vendorData.findAccount(integration.id, mapping.accountId),
    ])
    const connected = partner ? this.d.psa.connect(partner.id, partner.psa) : null
    for (const t of tickets) {
      const outcome = connected?.ok
        ? await this.one(connected.client, t, mapping, account?.name ?? null)
        : 'failed'
      result[outcome]++
      await store.catchAll.remapped(t.id, outcome === 'moved', this.d.clock().toISOString())
    }
    return result
  }

  private async one(
    client: PsaOperations,
    t: TicketRecord,
    m: AccountMapping,
    name: string | null,
  ): Promise<keyof RemapResult> {
    const psaTicketId = t.psaTicketId
    if (psaTicketId === null) return 'failed'
    const call = () => ({ signal: AbortSignal.timeout(callMs), correlationId: t.correlationId })
    const note = (moved: boolean) =>
      client
        .appendNote(psaTicketId, remappedNote(m.accountId, name, m.psaCompanyId, moved), {
          ...call(),
          marker: `catch-all:${t.id}:${m.psaCompanyId}`,
          adopt: false,
        })
        .catch(() => null)
    const move = client.moveTicket
      ? await client
          .moveTicket(psaTicketId, { companyId: m.psaCompanyId, board: m.board }, call())
          .catch(() => null)
      : null
    if (move?.ok) {
      await note(true)
      return 'moved'
    }
    const noted = await note(false)
    return noted?.ok ? 'noted' : 'failed'
  }
}
