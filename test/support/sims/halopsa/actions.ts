// The simulator's actions. GET /api/Actions takes ticket_id, startdate/enddate and count, and answers
// every matching action (Halo documents no paging there); other filters (excludesys, agentonly) are
// ignored, as every action here is an agent's. POST /api/Actions takes an array of actions: a note, an
// outcome by name or id, timetaken (hours) and new_status to move the ticket. Each action says who wrote
// it, as Halo's Actions schema does (who, who_agentid, actionby_application_id): an API call is the API
// application's agent (state.apiAgent), a technician's change (sync.ts) the technician's.
import { type Answer, type ApiRequest, answer, intParam, num, oneOrMany, records, refuse } from './answers.js'
import { dateWindow, setStatus, textMax } from './tickets.js'
import type { HaloAction, HaloAgent, HaloState, HaloTicket } from './types.js'

export function actionRoutes(req: ApiRequest, state: HaloState): Answer | null {
  const [resource, id] = req.segments
  if (resource !== 'actions' || id !== undefined) return null
  if (req.method === 'GET') return listActions(req.params, state)
  if (req.method === 'POST') return postActions(req.body, state)
  return null
}

function listActions(params: URLSearchParams, state: HaloState): Answer {
  const ticketId = intParam(params, 'ticket_id')
  const dates = dateWindow(params, 'datetime')
  if (typeof dates === 'string') return refuse(400, dates)
  const found = state.actions.filter(
    (a) =>
      (ticketId === null || a.ticket_id === ticketId) &&
      (dates === null || dates.holds(a as unknown as Record<string, unknown>)),
  )
  const count = intParam(params, 'count')
  return answer({ record_count: found.length, actions: count === null ? found : found.slice(0, count) })
}

/** What an action records beside its ticket and author. */
export interface ActionFields {
  outcome: { id: number; outcome: string }
  note: string
  hiddenfromuser?: boolean
  sendemail?: boolean
  new_status?: number | null
  timetaken?: number
  merged_from_ticketid?: number
}

/** Stores an action by `by` (through the API application `application`, if any) and applies it. */
export function addAction(
  state: HaloState,
  ticket: HaloTicket,
  f: ActionFields,
  by: HaloAgent,
  application: string | null,
): HaloAction {
  const now = new Date().toISOString()
  const action: HaloAction = {
    id: state.nextId.action++,
    ticket_id: ticket.id,
    outcome: f.outcome.outcome,
    outcome_id: f.outcome.id,
    note: f.note,
    hiddenfromuser: f.hiddenfromuser === true,
    sendemail: f.sendemail === true,
    new_status: f.new_status ?? null,
    datetime: now,
    who: by.name,
    who_agentid: by.id,
    actionby_application_id: application,
    timetaken: f.timetaken ?? 0,
    ...(f.merged_from_ticketid ? { merged_from_ticketid: f.merged_from_ticketid } : {}),
  }
  state.actions.push(action)
  if (action.new_status !== null) setStatus(ticket, action.new_status, state)
  if (action.timetaken) ticket.timetaken = (ticket.timetaken ?? 0) + action.timetaken
  ticket.last_update = now
  return action
}

function postActions(body: unknown, state: HaloState): Answer {
  const posted = records(body)
  if (!posted || posted.length === 0) return refuse(400, 'The request body must be an array of actions.')
  const made: (() => HaloAction)[] = []
  for (const r of posted) {
    const ticket = state.tickets.find((t) => t.id === num(r.ticket_id))
    if (!ticket) return refuse(400, `Ticket ${String(r.ticket_id)} does not exist.`)
    const note = typeof r.note === 'string' ? r.note : typeof r.note_html === 'string' ? r.note_html : ''
    const newStatus = r.new_status === undefined || r.new_status === null ? null : num(r.new_status)
    if (note.trim() === '' && newStatus === null) return refuse(400, 'Please enter a note.')
    if (note.length > textMax) return refuse(400, `The note cannot be longer than ${textMax} characters.`)
    if (newStatus !== null && !state.statuses.some((s) => s.id === newStatus))
      return refuse(400, `Status ${String(r.new_status)} does not exist.`)
    const outcome =
      r.outcome_id !== undefined
        ? state.outcomes.find((o) => o.id === num(r.outcome_id))
        : typeof r.outcome === 'string'
          ? state.outcomes.find((o) => o.outcome.toLowerCase() === String(r.outcome).toLowerCase())
          : state.outcomes[0]
    if (!outcome) return refuse(400, `Outcome '${String(r.outcome ?? r.outcome_id)}' does not exist.`)
    const timetaken = num(r.timetaken) ?? 0
    made.push(() =>
      addAction(
        state,
        ticket,
        {
          outcome,
          note,
          hiddenfromuser: r.hiddenfromuser === true,
          sendemail: r.sendemail === true,
          new_status: newStatus,
          timetaken,
        },
        state.apiAgent,
        state.credentials.clientId,
      ),
    )
  }
  return oneOrMany(
    made.map((m) => m()),
    201,
  )
}
