// The simulator's look-ups and recurring invoices. Clients and recurring invoices page and answer
// {record_count, <key>}; teams, priorities, statuses, ticket types and outcomes answer bare arrays, as
// Halo's configuration lists do (a ticket type by id has its initial_status; /api/Agent/me is the API
// application's agent). Recurring invoice quantities change through POST /api/RecurringInvoice
// (the header with its lines: lines left out are removed, as Halo may do) or POST
// /api/RecurringInvoice/updatelines (the lines given, by id).
import {
  type Answer,
  type ApiRequest,
  answer,
  flag,
  intParam,
  num,
  oneOrMany,
  paged,
  param,
  records,
  refuse,
} from './answers.js'
import type { HaloInvoiceLine, HaloRecurringInvoice, HaloState } from './types.js'

export function listRoutes(req: ApiRequest, state: HaloState): Answer | null {
  const [resource, id, more] = req.segments
  const p = req.params
  if (req.method === 'GET' && more === undefined) {
    switch (resource) {
      case 'client': {
        if (id !== undefined) {
          const c = state.clients.find((x) => String(x.id) === id)
          return c ? answer(c) : refuse(404, `Client ${id} not found`)
        }
        const search = param(p, 'search')?.toLowerCase()
        const clients = state.clients.filter(
          (c) =>
            (flag(p, 'includeinactive') || !c.inactive) && (!search || c.name.toLowerCase().includes(search)),
        )
        return paged(clients, p, 'clients')
      }
      case 'team':
        return answer(state.teams.filter((t) => !t.inactive || flag(p, 'includedisabled')))
      case 'priority':
        return answer(state.priorities)
      case 'status': {
        const closed = flag(p, 'excludeclosed') ? state.closedStatusIds : []
        return answer(state.statuses.filter((s) => !closed.includes(s.id)))
      }
      case 'tickettype': {
        const types = state.ticketTypes.map(({ required: _r, ...t }) => t)
        if (id === undefined) return answer(types.filter((t) => !t.inactive || flag(p, 'showinactive')))
        const t = types.find((x) => String(x.id) === id)
        return t ? answer(t) : refuse(404, `Ticket Type ${id} not found`)
      }
      // The agent the API application acts as.
      case 'agent':
        if (id === 'me') return answer(state.apiAgent)
        break
      case 'outcome':
        return answer(state.outcomes)
      case 'recurringinvoice': {
        if (id !== undefined) {
          const h = state.recurringInvoices.find((x) => String(x.id) === id)
          return h ? answer(h) : refuse(404, `Recurring invoice ${id} not found`)
        }
        const clientId = intParam(p, 'client_id')
        const lines = flag(p, 'includelines')
        const headers = state.recurringInvoices
          .filter((h) => clientId === null || h.client_id === clientId)
          .map(({ lines: l, ...h }) => (lines ? { ...h, lines: l } : h))
        return paged(headers, p, 'invoices')
      }
    }
  }
  if (req.method === 'POST' && resource === 'recurringinvoice') {
    if (id === undefined) return postHeaders(req.body, state)
    if (id === 'updatelines' && more === undefined) return updateLines(req.body, state)
  }
  return null
}

function postHeaders(body: unknown, state: HaloState): Answer {
  const posted = records(body)
  if (!posted || posted.length === 0) return refuse(400, 'The request body must be an array of invoices.')
  const changes: (() => HaloRecurringInvoice)[] = []
  for (const r of posted) {
    const header = state.recurringInvoices.find((h) => h.id === num(r.id))
    if (!header) return refuse(400, `Recurring invoice ${String(r.id)} does not exist.`)
    if (r.lines === undefined) {
      changes.push(() => header)
      continue
    }
    const lines = records(r.lines)
    if (!lines) return refuse(400, 'lines must be an array of invoice lines.')
    const next: HaloInvoiceLine[] = []
    for (const l of lines) {
      const qty = num(l.qty_order)
      if (qty === null || qty < 0) return refuse(400, `qty_order '${String(l.qty_order)}' is not a quantity.`)
      const old = header.lines.find((x) => x.id === num(l.id))
      next.push({ ...(old ?? blankLine(header, state)), ...pickLine(l), qty_order: qty })
    }
    // The posted lines are the invoice's lines now: any left out are gone.
    changes.push(() => Object.assign(header, { lines: next }))
  }
  return oneOrMany(changes.map((c) => c()))
}

function updateLines(body: unknown, state: HaloState): Answer {
  const posted = records(body)
  if (!posted || posted.length === 0)
    return refuse(400, 'The request body must be an array of invoice lines.')
  const changes: (() => HaloInvoiceLine)[] = []
  for (const l of posted) {
    const line = state.recurringInvoices.flatMap((h) => h.lines).find((x) => x.id === num(l.id))
    if (!line) return refuse(400, `Invoice line ${String(l.id)} does not exist.`)
    const qty = l.qty_order === undefined ? line.qty_order : num(l.qty_order)
    if (qty === null || qty < 0) return refuse(400, `qty_order '${String(l.qty_order)}' is not a quantity.`)
    changes.push(() => Object.assign(line, pickLine(l), { qty_order: qty }))
  }
  return oneOrMany(changes.map((c) => c()))
}

/** The line fields a post may set (the simulator keeps its own shape). */
function pickLine(l: Record<string, unknown>): Partial<HaloInvoiceLine> {
  const out: Partial<HaloInvoiceLine> = {}
  for (const key of ['item_code', 'item_shortdescription', 'item_longdescription'] as const)
    if (typeof l[key] === 'string') out[key] = l[key] as string
  const price = num(l.unit_price)
  if (price !== null) out.unit_price = price
  return out
}

function blankLine(header: HaloRecurringInvoice, state: HaloState): HaloInvoiceLine {
  return {
    id: state.nextId.line++,
    ihid: header.id,
    _itemid: 0,
    item_code: '',
    item_shortdescription: '',
    item_longdescription: '',
    qty_order: 0,
    unit_price: 0,
    recurring_invoice_quantity_type: 0,
    sequenceid: header.lines.length + 1,
  }
}
