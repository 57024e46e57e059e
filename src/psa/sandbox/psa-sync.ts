// The sandbox's side of two-way sync (docs/psa/sync.md): it cannot push, so the reconciliation poll
// reads its tickets back. A technician is the partner changing a sandbox ticket's status through
// PATCH /api/partner/sandbox/tickets/{id}; a ticket that is not there reads as deleted; the sandbox
// has no merge. "Worked" is a status a technician set that is neither the one alertbridge creates
// with (New) nor a closed one.
import { v7 as uuidv7 } from 'uuid'
import { type Clock, iso } from '../../platform/clock.js'
import { fail, type NoteCall, ok, type PsaResult } from '../adapter.js'
import { deletedRead, type PsaTicketRead, type ReopenRequest } from '../psa-sync-port.js'
import type { SandboxStore } from './store.js'

export class SandboxPsaSync {
  constructor(
    private readonly store: SandboxStore,
    private readonly clock: Clock,
    private readonly partnerId: string,
  ) {}

  async readTickets(ids: readonly string[]): Promise<PsaResult<PsaTicketRead[]>> {
    const reads: PsaTicketRead[] = []
    for (const ticketId of ids) {
      const t = await this.store.find(this.partnerId, ticketId)
      reads.push(
        t
          ? {
              ticketId,
              state: t.closedAt === null ? 'open' : 'closed',
              statusName: t.status,
              mergedInto: null,
              worked: t.closedAt === null && t.status !== 'New',
              changedBy: null,
            }
          : deletedRead(ticketId),
      )
    }
    return ok(reads)
  }

  async reopenTicket(ticketId: string, reopen: ReopenRequest, call: NoteCall): Promise<PsaResult<null>> {
    const t = await this.store.find(this.partnerId, ticketId)
    if (!t)
      return fail({
        kind: 'not-found',
        status: 404,
        retryable: false,
        message: `sandbox ticket ${ticketId} not found`,
      })
    const now = iso(this.clock)
    await this.store.addNote(this.partnerId, ticketId, {
      id: uuidv7(),
      text: `${reopen.note}\n\nMessage ID: ${call.marker}`,
      at: now,
    })
    await this.store.setStatus(this.partnerId, ticketId, reopen.openStatus ?? 'New', now)
    return ok(null)
  }
}
