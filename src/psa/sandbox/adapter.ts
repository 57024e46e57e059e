// The built-in PSA: keeps its tickets in our database so the service works with no PSA at all, and
// has a fault switch (PUT /api/partner/sandbox/fault) that makes it fail the way real PSAs fail.
import type { Static } from 'typebox'
import { v7 as uuidv7 } from 'uuid'
import { type Clock, iso } from '../../platform/clock.js'
import {
  type BillingLine,
  type CloseCall,
  type CloseRequest,
  type CreateCall,
  fail,
  givenUp,
  type LookupKind,
  type NewPsaTicket,
  type NoteCall,
  ok,
  type PsaCall,
  type PsaConnection,
  type PsaEntity,
  type PsaFailure,
  type PsaOperations,
  type PsaResult,
  type TicketCall,
  type UsageCall,
} from '../adapter.js'
import type { PsaTicketRead, ReopenRequest } from '../psa-sync-port.js'
import { type PsaKindEntry, psaKind } from '../registry.js'
import { moveSandboxTicket } from './move.js'
import { SandboxPsaSync } from './psa-sync.js'
import { SandboxSettings } from './settings.js'
import type { SandboxOperation, SandboxStore } from './store.js'

type Settings = Static<typeof SandboxSettings>
type Conn = PsaConnection<Settings>

const seeded: Record<LookupKind, PsaEntity[]> = {
  companies: [
    { id: '100', name: 'Acme Corporation' },
    { id: '101', name: 'Globex' },
    { id: '102', name: 'Initech' },
  ],
  boards: [
    { id: 'service-desk', name: 'Service Desk' },
    { id: 'security', name: 'Security' },
    { id: 'backup', name: 'Backup' },
  ],
  priorities: [
    { id: 'p1', name: 'P1 - Critical' },
    { id: 'p2', name: 'P2 - High' },
    { id: 'p3', name: 'P3 - Medium' },
    { id: 'p4', name: 'P4 - Low' },
  ],
  statuses: [
    { id: 'new', name: 'New', closed: false },
    { id: 'in-progress', name: 'In Progress', closed: false },
    { id: 'closed', name: 'Closed', closed: true },
  ],
  types: [
    { id: 'incident', name: 'Incident' },
    { id: 'alert', name: 'Alert' },
  ],
  sources: [],
  noteTypes: [],
  categories: [],
}

function given(conn: Conn, what: LookupKind): PsaEntity[] {
  const listed = what in conn.settings ? conn.settings[what as keyof Settings] : undefined
  return (Array.isArray(listed) ? listed : []).map((e) =>
    typeof e === 'string' ? { id: e, name: e } : { id: e.id, name: e.name ?? e.id },
  )
}

/** The sandbox's billing catalogue: each company's agreement has one line per product. */
const products = [
  { id: 'endpoint-seat', name: 'Endpoint protection (per seat)' },
  { id: 'backup-tb', name: 'Cloud backup (per TB)' },
  { id: 'mailbox', name: 'Email security (per mailbox)' },
]

const notFound = (ticketId: string): PsaFailure => ({
  kind: 'not-found',
  status: 404,
  retryable: false,
  message: `sandbox ticket ${ticketId} not found`,
})

/** The sandbox kind: no secrets, always available. */
export function sandboxPsa(store: SandboxStore, clock: Clock): PsaKindEntry {
  return psaKind({
    kind: 'sandbox',
    settings: SandboxSettings,
    secretFields: [],
    adapter: (conn) => new SandboxConnection(store, clock, conn),
    inProcess: true,
  })
}

/** One partner's sandbox: its rows in the store, under the partner's id. */
class SandboxConnection implements PsaOperations {
  private readonly partnerId: string
  private readonly psaSync: SandboxPsaSync
  /** The sandbox cannot push: the poll reads its tickets back. */
  readonly push = null

  constructor(
    private readonly store: SandboxStore,
    private readonly clock: Clock,
    private readonly conn: Conn,
  ) {
    this.partnerId = conn.partnerId
    this.psaSync = new SandboxPsaSync(store, clock, conn.partnerId)
  }

  async readTickets(ids: readonly string[], call: PsaCall): Promise<PsaResult<PsaTicketRead[]>> {
    const failure = await this.injected('lookup', call)
    return failure ? fail(failure) : this.psaSync.readTickets(ids)
  }

  async reopenTicket(ticketId: string, reopen: ReopenRequest, call: NoteCall): Promise<PsaResult<null>> {
    const failure = await this.injected('append', call)
    return failure ? fail(failure) : this.psaSync.reopenTicket(ticketId, reopen, call)
  }

  /** The failure the fault switch makes this call have, or the one of a call already given up. */
  private async injected(op: SandboxOperation, call: PsaCall): Promise<PsaFailure | null> {
    if (call.signal.aborted) return givenUp(call.signal)
    const fault = await this.store.getFault(this.partnerId)
    if (!fault || (fault.operations.length > 0 && !fault.operations.includes(op))) return null
    if (fault.remaining !== null) await this.store.consumeFault(this.partnerId)
    switch (fault.mode) {
      case 'error':
        return {
          kind: 'unavailable',
          status: 500,
          retryable: true,
          message: 'sandbox PSA answered 500 Internal Server Error',
        }
      case 'timeout':
        return { kind: 'timeout', retryable: true, message: 'sandbox PSA did not answer in time' }
      case 'rate-limited':
        return {
          kind: 'rate-limited',
          status: 429,
          retryable: true,
          retryAfterMs: 1000,
          // As a 429 with Retry-After: 1.
          throttled: true,
          message: 'sandbox PSA answered 429 (Retry-After: 1)',
        }
      case 'defect':
        throw new Error('sandbox PSA: simulated defect in the adapter')
    }
  }

  async test(call: PsaCall): Promise<PsaResult<{ detail: string }>> {
    const failure = await this.injected('lookup', call)
    if (failure) return fail(failure)
    return ok({ detail: 'The sandbox PSA is built in: it keeps its tickets in this service.' })
  }

  async createTicket(
    t: NewPsaTicket,
    call: CreateCall,
  ): Promise<PsaResult<{ ticketId: string; adopted: boolean }>> {
    const failure = await this.injected('create', call)
    if (failure) return fail(failure)
    if (call.adopt) {
      const made = await this.store.findByRef(this.partnerId, call.ref)
      if (made) return ok({ ticketId: made.id, adopted: true })
    }
    const now = iso(this.clock)
    const id = await this.store.create(
      this.partnerId,
      {
        companyId: t.companyId,
        board: t.board,
        priority: t.priority,
        type: t.type,
        status: t.status ?? 'New',
        summary: t.summary,
        description: t.description,
        createdAt: now,
        updatedAt: now,
        closedAt: null,
      },
      call.ref,
    )
    return ok({ ticketId: id, adopted: false })
  }

  async appendNote(ticketId: string, note: string, call: TicketCall): Promise<PsaResult<null>> {
    const failure = await this.injected('append', call)
    if (failure) return fail(failure)
    if (!(await this.store.find(this.partnerId, ticketId))) return fail(notFound(ticketId))
    const added = { id: uuidv7(), text: note, at: iso(this.clock) }
    await this.store.addNote(this.partnerId, ticketId, added)
    return ok(null)
  }

  async closeTicket(
    ticketId: string,
    close: CloseRequest,
    call: CloseCall,
  ): Promise<PsaResult<{ alreadyClosed: boolean }>> {
    const failure = await this.injected('close', call)
    if (failure) return fail(failure)
    const ticket = await this.store.find(this.partnerId, ticketId)
    if (!ticket) return fail(notFound(ticketId))
    // Closed already: by someone in the PSA, or (on a retry) by the attempt whose answer was lost.
    if (ticket.closedAt !== null) return ok({ alreadyClosed: !call.adopt })
    const now = iso(this.clock)
    // The resolution note first, then the status, as a technician would.
    await this.store.addNote(this.partnerId, ticketId, { id: uuidv7(), text: close.note, at: now })
    const status = close.closedStatus ?? 'Closed'
    const closedNow = await this.store.close(this.partnerId, ticketId, status, now)
    return ok({ alreadyClosed: !closedNow })
  }

  async moveTicket(
    ticketId: string,
    to: { companyId: string; board: string | null },
    call: TicketCall,
  ): Promise<PsaResult<null>> {
    const failure = await this.injected('append', call)
    if (failure) return fail(failure)
    const moved = await moveSandboxTicket(this.store.db, this.partnerId, ticketId, to, iso(this.clock))
    return moved ? ok(null) : fail(notFound(ticketId))
  }

  /** The sandbox has no web app of its own: its tickets are at GET /api/partner/sandbox/tickets. */
  ticketUrl(_ticketId: string): string | null {
    return null
  }

  /** Every company has one agreement with a line for each product of the sandbox's catalogue. */
  async billingLines(companyId: string, call: PsaCall): Promise<PsaResult<BillingLine[]>> {
    const failure = await this.injected('usage', call)
    if (failure) return fail(failure)
    const lines = products.map((p) => ({
      id: `${companyId}:${p.id}`,
      productId: p.id,
      name: p.name,
      agreementId: `${companyId}-msa`,
      agreementName: 'Managed services agreement',
    }))
    const set = await this.store.quantities(
      this.partnerId,
      lines.map((l) => l.id),
    )
    return ok(lines.map((l) => ({ ...l, quantity: set.get(l.id) ?? 0 })))
  }

  async setQuantity(
    lineId: string,
    quantity: number,
    call: UsageCall,
  ): Promise<PsaResult<{ previous: number | null }>> {
    const failure = await this.injected('usage', call)
    if (failure) return fail(failure)
    const [companyId, productId] = lineId.split(':')
    if (!companyId || !products.some((p) => p.id === productId))
      return fail({
        kind: 'not-found',
        status: 404,
        retryable: false,
        message: `sandbox billing line ${lineId} not found (lines are <companyId>:<product>, products ${products.map((p) => p.id).join(', ')})`,
      })
    const previous = await this.store.setQuantity(this.partnerId, lineId, quantity, iso(this.clock))
    return ok({ previous })
  }

  async lookup(what: LookupKind, _scope: unknown, call: PsaCall): Promise<PsaResult<PsaEntity[]>> {
    const failure = await this.injected('lookup', call)
    if (failure) return fail(failure)
    const extra = given(this.conn, what).filter((e) => !seeded[what].some((s) => s.id === e.id))
    return ok([...seeded[what], ...extra])
  }
}
