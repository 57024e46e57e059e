// The simulator's resolvers: what SuperOps does for each query and mutation alertbridge uses, and what
// it refuses, in its own codes (answers.ts) — a missing or empty required field
// (mandatory_validation_failed, also for what the tenant marks mandatory on create), a value over a
// field's limit (value_length_exceeds_limit), a client, status, priority, category or group the tenant
// does not have (referred_value_does_not_exist), an unknown ticket or contract (entity_does_not_exist;
// getTicket answers null), a write by a read-only token (forbidden). Moving a ticket to one of the
// tenant's resolving statuses sets its resolutionTime; moving it out clears it.
import { clientError } from './answers.js'
import { type ListInput, listed, superOpsTime } from './lists.js'
import type { Contract, Person, SuperOpsState, Ticket } from './types.js'

export interface Context {
  user: Person
  readOnly: boolean
}

type Args<T> = { input: T }

const has = (v: unknown) => typeof v === 'string' && v.trim() !== ''

function sized(field: string, value: string | null | undefined, limit: number) {
  if (value && value.length > limit)
    throw clientError('value_length_exceeds_limit', { attributes: [field], limit }, null)
}

function writable(ctx: Context) {
  if (ctx.readOnly) throw clientError('forbidden', {}, 'You do not have permission to perform this action')
}

const ticketOut = (state: SuperOpsState, t: Ticket) => {
  const hours = state.worklogs.filter((w) => w.ticketId === t.ticketId).reduce((s, w) => s + w.qty, 0)
  return { ...t, worklogTimespent: hours > 0 ? hours.toFixed(2) : null }
}

const contractOut = (c: Contract) => ({
  contractId: c.contractId,
  name: c.name,
  client: c.client,
  startDate: c.startDate,
  billableContract: {
    chargeItem: c.chargeItem,
    quantity: c.quantity,
    quantityCalculationType: c.quantityCalculationType,
  },
})

export function resolvers(state: SuperOpsState) {
  const ticket = (id: unknown) => state.tickets.find((t) => t.ticketId === String(id)) ?? null
  const existing = (id: unknown) => {
    const t = ticket(id)
    if (!t) throw clientError('entity_does_not_exist', { attributes: ['ticketId'] }, null)
    return t
  }
  const referred = <T>(list: readonly T[], field: string, found: (x: T) => boolean) => {
    const hit = list.find(found)
    if (!hit) throw clientError('referred_value_does_not_exist', { attributes: [field] }, null)
    return hit
  }
  const setStatus = (t: Ticket, status: string) => {
    referred(state.statuses, 'status', (s) => s.toLowerCase() === status.toLowerCase())
    t.status = state.statuses.find((s) => s.toLowerCase() === status.toLowerCase()) ?? status
    if (state.resolvingStatuses.includes(t.status)) t.resolutionTime ??= superOpsTime()
    else t.resolutionTime = null
  }
  const group = (g: { groupId: string } | null | undefined) =>
    g ? referred(state.groups, 'techGroup', (x) => x.groupId === String(g.groupId)) : null

  return {
    getTicket: ({ input }: Args<{ ticketId: string }>) => {
      const t = ticket(input.ticketId)
      return t ? ticketOut(state, t) : null
    },
    getTicketList: ({ input }: Args<ListInput>) => {
      const page = listed(
        state.tickets.map((t) => ticketOut(state, t)),
        input,
        state.hasMoreFalse,
      )
      return { tickets: page.items, listInfo: page.listInfo }
    },
    getTicketNoteList: ({ input }: Args<{ ticketId: string }>) => {
      existing(input.ticketId)
      return state.notes.filter((n) => n.ticketId === String(input.ticketId))
    },
    getClientList: ({ input }: Args<ListInput>) => {
      const page = listed(state.clients, input, state.hasMoreFalse)
      return { clients: page.items, listInfo: page.listInfo }
    },
    getStatusList: () => state.statuses.map((name, i) => ({ id: String(i + 1), name, description: null })),
    getPriorityList: () =>
      state.priorities.map((name, i) => ({ id: String(i + 1), name, colorCode: '#888' })),
    getCategoryList: () =>
      state.categories.map((name, i) => ({ id: String(i + 1), name, subCategories: [] })),
    getTechnicianGroupList: () => state.groups,
    getClientContractList: ({ input }: Args<ListInput>) => {
      const page = listed(state.contracts.map(contractOut), input, state.hasMoreFalse)
      return { clientContracts: page.items, listInfo: page.listInfo }
    },
    getClientContract: ({ input }: Args<{ contractId: string }>) => {
      const c = state.contracts.find((x) => x.contractId === String(input.contractId))
      return c ? contractOut(c) : null
    },

    createTicket: (
      {
        input,
      }: Args<{
        subject: string
        client: { accountId: string }
        source: string
        description?: string | null
        status?: string | null
        priority?: string | null
        category?: string | null
        techGroup?: { groupId: string } | null
        sourceReferenceId?: string | null
      }>,
      ctx: Context,
    ) => {
      writable(ctx)
      if (!has(input.subject))
        throw clientError('mandatory_validation_failed', { attributes: ['subject'] }, null)
      for (const field of state.mandatoryOnCreate)
        if (!input[field]) throw clientError('mandatory_validation_failed', { attributes: [field] }, null)
      sized('subject', input.subject, state.limits.subject)
      sized('description', input.description, state.limits.description)
      sized('sourceReferenceId', input.sourceReferenceId, 255)
      const client = referred(state.clients, 'client', (c) => c.accountId === String(input.client.accountId))
      if (input.priority)
        referred(state.priorities, 'priority', (p) => p.toLowerCase() === input.priority?.toLowerCase())
      if (input.category) referred(state.categories, 'category', (c) => c === input.category)
      const at = superOpsTime()
      const t: Ticket = {
        ticketId: String(state.nextId.ticket++),
        displayId: `T${state.nextId.display++}`,
        subject: input.subject,
        description: input.description ?? '',
        status: 'Open',
        priority: input.priority ?? null,
        category: input.category ?? null,
        source: input.source,
        sourceReferenceId: input.sourceReferenceId ?? null,
        client: { accountId: client.accountId, name: client.name },
        techGroup: group(input.techGroup),
        technician: null,
        createdTime: at,
        updatedTime: at,
        resolutionTime: null,
      }
      setStatus(t, input.status ?? 'Open')
      state.tickets.push(t)
      return ticketOut(state, t)
    },
    updateTicket: (
      {
        input,
      }: Args<{
        ticketId: string
        subject?: string | null
        status?: string | null
        priority?: string | null
        techGroup?: { groupId: string } | null
      }>,
      ctx: Context,
    ) => {
      writable(ctx)
      const t = existing(input.ticketId)
      if (input.subject !== undefined && input.subject !== null) {
        if (!has(input.subject))
          throw clientError('mandatory_validation_failed', { attributes: ['subject'] }, null)
        sized('subject', input.subject, state.limits.subject)
        t.subject = input.subject
      }
      if (input.priority) referred(state.priorities, 'priority', (p) => p === input.priority)
      if (input.techGroup) t.techGroup = group(input.techGroup)
      if (input.status) setStatus(t, input.status)
      if (input.priority) t.priority = input.priority
      t.updatedTime = superOpsTime()
      return ticketOut(state, t)
    },
    createTicketNote: (
      { input }: Args<{ ticket: { ticketId: string }; content: string; privacyType: 'PRIVATE' | 'PUBLIC' }>,
      ctx: Context,
    ) => {
      writable(ctx)
      const t = existing(input.ticket.ticketId)
      if (!has(input.content))
        throw clientError('mandatory_validation_failed', { attributes: ['content'] }, null)
      sized('content', input.content, state.limits.note)
      const note = {
        noteId: String(state.nextId.note++),
        ticketId: t.ticketId,
        addedBy: ctx.user,
        addedOn: superOpsTime(),
        content: input.content,
        privacyType: input.privacyType,
      }
      state.notes.push(note)
      t.updatedTime = note.addedOn
      return note
    },
    updateClientContract: (
      {
        input,
      }: Args<{
        contract: {
          contractId: string
          billableContract: {
            change: { quantity: number; effectiveDate?: string | null; quantityChangeOperation: string }
          }
        }
      }>,
      ctx: Context,
    ) => {
      writable(ctx)
      const c = state.contracts.find((x) => x.contractId === String(input.contract.contractId))
      if (!c) throw clientError('entity_does_not_exist', { attributes: ['contractId'] }, null)
      const { quantity, quantityChangeOperation: op, effectiveDate } = input.contract.billableContract.change
      if (!Number.isFinite(quantity) || quantity < 0)
        throw clientError('type_validation_failed', { attributes: ['quantity'] }, null)
      c.quantity =
        op === 'BASELINE'
          ? quantity
          : op === 'INCREASE'
            ? c.quantity + quantity
            : Math.max(0, c.quantity - quantity)
      c.changes.push({ quantity, operation: op, effectiveDate: effectiveDate ?? null })
      return contractOut(c)
    },
    createWorklogEntries: (
      {
        input,
      }: Args<
        { workItem: { workId: string }; qty: number; billDateTime?: string | null; notes?: string | null }[]
      >,
      ctx: Context,
    ) => {
      writable(ctx)
      return input.map((entry) => {
        const t = existing(entry.workItem.workId)
        const w = {
          itemId: String(state.nextId.worklog++),
          ticketId: t.ticketId,
          qty: entry.qty,
          billDateTime: entry.billDateTime ?? superOpsTime(),
          notes: entry.notes ?? null,
          technician: ctx.user,
        }
        state.worklogs.push(w)
        t.updatedTime = superOpsTime()
        return w
      })
    },
  }
}
