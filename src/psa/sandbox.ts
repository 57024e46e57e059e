// The built-in PSA: keeps its tickets in our database so the service works with no PSA at all, and
// has a fault switch (PUT /api/partner/sandbox/fault) that makes it fail the way real PSAs fail.
import { v7 as uuidv7 } from 'uuid'
import { type Clock, iso } from '../clock.js'
import type { SandboxOperation } from '../db/repositories/sandbox.js'
import type { Store } from '../db/store.js'
import {
  fail,
  type LookupKind,
  ok,
  type PsaAdapter,
  type PsaConnection,
  type PsaEntity,
  type PsaFailure,
  type PsaResult,
} from './adapter.js'

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
    { id: 'new', name: 'New' },
    { id: 'in-progress', name: 'In Progress' },
    { id: 'closed', name: 'Closed' },
  ],
}

function given(conn: PsaConnection, what: LookupKind): PsaEntity[] {
  const list = conn.settings[what]
  if (!Array.isArray(list)) return []
  return list.flatMap((e): PsaEntity[] => {
    if (typeof e === 'string') return [{ id: e, name: e }]
    if (e && typeof e === 'object' && typeof e.id === 'string') {
      return [{ id: e.id, name: typeof e.name === 'string' ? e.name : e.id }]
    }
    return []
  })
}

const notFound = (ticketId: string): PsaFailure => ({
  kind: 'not-found',
  status: 404,
  retryable: false,
  message: `sandbox ticket ${ticketId} not found`,
})

export class SandboxPsa implements PsaAdapter {
  readonly kind = 'sandbox' as const

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  private async injected(conn: PsaConnection, op: SandboxOperation): Promise<PsaFailure | null> {
    const fault = await this.store.sandbox.getFault(conn.partnerId)
    if (!fault || (fault.operations.length > 0 && !fault.operations.includes(op))) return null
    if (fault.remaining !== null) await this.store.sandbox.consumeFault(conn.partnerId)
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
          message: 'sandbox PSA answered 429',
        }
      case 'defect':
        throw new Error('sandbox PSA: simulated defect in the adapter')
    }
  }

  async createTicket(
    conn: PsaConnection,
    t: Parameters<PsaAdapter['createTicket']>[1],
  ): Promise<PsaResult<{ ticketId: string }>> {
    const failure = await this.injected(conn, 'create')
    if (failure) return fail(failure)
    const now = iso(this.clock)
    const id = `SBX-${await this.store.sandbox.nextTicketNumber()}`
    await this.store.sandbox.insert(conn.partnerId, {
      id,
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
    })
    return ok({ ticketId: id })
  }

  async appendNote(conn: PsaConnection, ticketId: string, note: string): Promise<PsaResult<null>> {
    const failure = await this.injected(conn, 'append')
    if (failure) return fail(failure)
    if (!(await this.store.sandbox.find(conn.partnerId, ticketId))) return fail(notFound(ticketId))
    await this.store.sandbox.addNote(conn.partnerId, ticketId, {
      id: uuidv7(),
      text: note,
      at: iso(this.clock),
    })
    return ok(null)
  }

  async closeTicket(
    conn: PsaConnection,
    ticketId: string,
    note: string,
  ): Promise<PsaResult<{ alreadyClosed: boolean }>> {
    const failure = await this.injected(conn, 'close')
    if (failure) return fail(failure)
    if (!(await this.store.sandbox.find(conn.partnerId, ticketId))) return fail(notFound(ticketId))
    const now = iso(this.clock)
    const closedNow = await this.store.sandbox.setStatus(conn.partnerId, ticketId, 'Closed', now)
    if (closedNow)
      await this.store.sandbox.addNote(conn.partnerId, ticketId, { id: uuidv7(), text: note, at: now })
    return ok({ alreadyClosed: !closedNow })
  }

  async lookup(conn: PsaConnection, what: LookupKind): Promise<PsaResult<PsaEntity[]>> {
    const failure = await this.injected(conn, 'lookup')
    if (failure) return fail(failure)
    const extra = given(conn, what).filter((e) => !seeded[what].some((s) => s.id === e.id))
    return ok([...seeded[what], ...extra])
  }
}
