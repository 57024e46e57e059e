// What two-way sync reads and does in the simulated BMS (docs/psa/kaseya-bms.md, "Two-way sync"):
//   GET  /v2/servicedesk/tickets/{id}/activities      notes and time entries in one feed, newest first
//                                                       (TicketActivityOutputDto: activityType, notes,
//                                                       timeSpent, createdBy, createdByName), paged
//   GET  /v2/servicedesk/tickets/{id}/relatedTickets  RelatedTicketListOutputDto rows
//   POST /v2/servicedesk/tickets/merge                 {DestinationTicketId, SourceTicketIds, IsMerge}
//   DELETE /v2/servicedesk/tickets/{id}
// and a technician working tickets in BMS's app (`technician`, and over HTTP at
// POST /__sim/technician/{close|reopen|merge|delete|note|time} with {id, into, text}). BMS does not
// publish what a merge leaves on the merged ticket; this simulator does what the adapter assumes: the
// merged ticket is completed, related to its absorber, and carries a note "Merged into ticket
// {number}" by whoever merged it.
import type { FastifyInstance } from 'fastify'
import type { Technician } from '../push.js'
import { input, intOf, okBody, page, query, refuse } from './envelope.js'
import type { TicketEvents } from './events.js'
import type { BmsTicket, BmsUser, KaseyaBmsState } from './types.js'

export function syncRoutes(app: FastifyInstance, state: KaseyaBmsState, events: TicketEvents): Technician {
  const find = (id: string | number) => state.tickets.find((t) => String(t.id) === String(id))
  const completes = (statusId: number) =>
    state.completedTypeIds.includes(state.statuses.find((s) => s.id === statusId)?.typeId ?? -1)
  /** The status a new ticket gets: the first active one, by BMS's order, that does not complete. */
  const opening = () =>
    [...state.statuses]
      .filter((s) => s.isActive && !completes(s.id))
      .sort((a, b) => a.statusOrder - b.statusOrder)[0]
  const complete = (t: BmsTicket) => {
    t.statusId = state.defaultCompletedStatusId
    t.completedDate = t.completedDate ?? new Date().toISOString()
  }
  const noteBy = (t: BmsTicket, text: string, by: BmsUser) =>
    t.notes.push({
      id: state.nextId.note++,
      details: text,
      isInternal: true,
      typeId: 1,
      noteDate: new Date().toISOString(),
      createdOn: new Date().toISOString(),
      createdBy: by.id,
      createdByName: by.name,
    })
  const relate = (a: BmsTicket, b: BmsTicket) => {
    a.related = [...new Set([...(a.related ?? []), b.id])]
    b.related = [...new Set([...(b.related ?? []), a.id])]
  }
  const merge = (source: BmsTicket, into: BmsTicket, by: BmsUser) => {
    complete(source)
    relate(source, into)
    noteBy(source, `Merged into ticket ${into.ticketNumber}.`, by)
    events.changed(source, 'Ticket Updated', by)
    events.changed(into, 'Ticket Updated', by)
  }
  const remove = (t: BmsTicket, by: BmsUser) => {
    state.tickets = state.tickets.filter((x) => x !== t)
    events.emit(t, 'Ticket Deleted', by)
  }

  app.get<{ Params: { id: string } }>('/v2/servicedesk/tickets/:id/timelogs', async (request, reply) => {
    const t = find(request.params.id)
    if (!t) return refuse(reply, 404, `Ticket ${request.params.id} was not found.`)
    const p = page(t.timelogs ?? [], query(request, 'PageSize'), query(request, 'PageNumber'), state.paging)
    if (!p.ok) return refuse(reply, 400, p.message)
    return okBody(p.rows)
  })

  if (state.flavour.activities) activityRoute(app, state)

  app.get<{ Params: { id: string } }>(
    '/v2/servicedesk/tickets/:id/relatedTickets',
    async (request, reply) => {
      const t = find(request.params.id)
      if (!t) return refuse(reply, 404, `Ticket ${request.params.id} was not found.`)
      return okBody(
        (t.related ?? []).flatMap((id, i) => {
          const r = find(id)
          const status = r && state.statuses.find((s) => s.id === r.statusId)
          return r
            ? [
                {
                  id: t.id * 1000 + i,
                  ticketId: t.id,
                  relatedTicketId: r.id,
                  ticketNumber: r.ticketNumber,
                  title: r.title,
                  statusName: status?.name ?? null,
                },
              ]
            : []
        }),
      )
    },
  )

  app.post('/v2/servicedesk/tickets/merge', async (request, reply) => {
    const into = find(intOf(input(request.body, 'DestinationTicketId')) ?? '')
    const given = input(request.body, 'SourceTicketIds')
    const sources = (Array.isArray(given) ? given : []).map((id) => find(intOf(id) ?? ''))
    if (!into) return refuse(reply, 404, 'The destination ticket was not found.')
    if (sources.length === 0 || sources.some((s) => !s || s === into))
      return refuse(reply, 400, 'SourceTicketIds must name other existing tickets.')
    if (sources.some((s) => s?.accountId !== into.accountId))
      return refuse(reply, 400, 'Only tickets within the same account can be merged.')
    for (const s of sources) if (s) merge(s, into, state.users.api)
    return okBody({ jobId: `merge-${Date.now()}` })
  })

  app.delete<{ Params: { id: string } }>('/v2/servicedesk/tickets/:id', async (request, reply) => {
    const t = find(request.params.id)
    if (!t) return refuse(reply, 404, `Ticket ${request.params.id} was not found.`)
    remove(t, state.users.api)
    return reply.code(200).send()
  })

  const tech = () => state.users.technician
  const must = (id: string) => {
    const t = find(id)
    if (!t) throw new Error(`the simulated BMS has no ticket ${id}`)
    return t
  }
  const technician: Technician = {
    async close(id) {
      const t = must(id)
      complete(t)
      events.changed(t, 'Ticket Updated', tech())
    },
    async reopen(id) {
      const t = must(id)
      t.statusId = opening()?.id ?? 1
      t.completedDate = null
      events.changed(t, 'Ticket Updated', tech())
    },
    async merge(id, into) {
      merge(must(id), must(into), tech())
    },
    async delete(id) {
      remove(must(id), tech())
    },
    async note(id, text) {
      const t = must(id)
      noteBy(t, text, tech())
      events.changed(t, 'Ticket Updated', tech())
    },
    async time(id) {
      const t = must(id)
      const now = new Date().toISOString()
      t.timelogs = [
        ...(t.timelogs ?? []),
        {
          id: state.nextId.timelog++,
          startDate: now.slice(0, 10),
          timespent: 0.5,
          notes: 'Looked into it',
          userId: tech().id,
          employeeName: tech().name,
          createdOn: now,
        },
      ]
      events.changed(t, 'Ticket Updated', tech())
    },
  }

  app.post<{ Params: { action: string } }>('/__sim/technician/:action', async (request, reply) => {
    const id = String(input(request.body, 'id') ?? '')
    const into = String(input(request.body, 'into') ?? '')
    const text = String(input(request.body, 'text') ?? 'A technician’s note')
    const actions: Record<string, () => Promise<void>> = {
      close: () => technician.close(id),
      reopen: () => technician.reopen(id),
      merge: () => technician.merge(id, into),
      delete: () => technician.delete(id),
      note: () => technician.note(id, text),
      time: () => technician.time(id),
    }
    const act = actions[request.params.action]
    if (!act) return reply.code(404).send({ error: `no technician action ${request.params.action}` })
    if (!find(id)) return reply.code(404).send({ error: `no ticket ${id}` })
    await act()
    return reply.code(204).send()
  })

  app.put('/__sim/pushes', async (request, reply) => {
    const drop = input(request.body, 'drop')
    events.pushes.drop(drop === null ? null : (intOf(drop) ?? 0))
    return reply.code(204).send()
  })

  return technician
}

/** BMS's activities feed (Pulseway publishes none): notes and time entries in one, newest first. */
function activityRoute(app: FastifyInstance, state: KaseyaBmsState): void {
  const find = (id: string | number) => state.tickets.find((t) => String(t.id) === String(id))
  app.get<{ Params: { id: string } }>('/v2/servicedesk/tickets/:id/activities', async (request, reply) => {
    const t = find(request.params.id)
    if (!t) return refuse(reply, 404, `Ticket ${request.params.id} was not found.`)
    const api = state.users.api
    const rows = [
      ...t.notes.map((n) => ({
        id: n.id,
        ticketId: t.id,
        activityType: 'Note',
        logType: 1,
        notes: n.details,
        isInternal: n.isInternal ? 1 : 0,
        timeSpent: 0,
        isMerged: 0,
        createdBy: n.createdBy ?? api.id,
        createdByName: n.createdByName ?? api.name,
        createdOn: n.createdOn,
      })),
      ...(t.timelogs ?? []).map((l) => ({
        id: l.id,
        ticketId: t.id,
        activityType: 'Time Entry',
        logType: 2,
        notes: l.notes,
        isInternal: 0,
        timeSpent: l.timespent,
        isMerged: 0,
        createdBy: l.userId,
        createdByName: l.employeeName,
        createdOn: l.createdOn,
      })),
    ].sort((a, b) => b.createdOn.localeCompare(a.createdOn))
    const p = page(rows, query(request, 'PageSize'), query(request, 'PageNumber'), state.paging)
    if (!p.ok) return refuse(reply, 400, p.message)
    return okBody(p.rows, p.total)
  })
}
