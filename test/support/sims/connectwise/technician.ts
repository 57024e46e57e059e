// A technician working tickets in the ConnectWise simulator (not through the API member), and what goes
// with two-way sync at the simulator's root: the signing key at its key_url (ConnectWise serves it to
// whoever verifies a callback), the technician over HTTP (POST /__sim/technician/{action} with
// {id, into, text}), the push switch (PUT /__sim/pushes {drop}), and a push for every ticket change made
// through the API (ConnectWise's callbacks fire for those too). A technician's close takes the board's
// first closed status; reopen the board's default status (the one a new ticket gets); merge closes the
// absorbed ticket with the board's "Closed (merged)" status (else its first closed one) and names the
// survivor in mergedParentTicket; a time entry adds to actualHours without touching the ticket's
// updatedBy (ConnectWise keeps time entries apart from the ticket record).
import type { FastifyInstance } from 'fastify'
import type { Technician } from '../push.js'
import { type CallbackPusher, keyPath, mergeTickets } from './callbacks.js'
import { cwNow } from './render.js'
import type { ConnectWiseState, CwTicket } from './types.js'

export const technicianName = 'tech1'

export function connectWiseTechnician(state: ConnectWiseState, pusher: CallbackPusher): Technician {
  const find = (id: string): CwTicket => {
    const t = state.tickets.find((x) => String(x.id) === id)
    if (!t) throw new Error(`no ConnectWise ticket ${id}`)
    return t
  }
  const statusesOf = (t: CwTicket) => state.boards.find((b) => b.id === t.boardId)?.statuses ?? []
  const closedOf = (t: CwTicket) =>
    statusesOf(t)
      .filter((s) => s.closedStatus && !s.inactive)
      .sort((a, b) => a.sortOrder - b.sortOrder)
  const touch = (t: CwTicket) => Object.assign(t, { lastUpdated: cwNow(), updatedBy: technicianName })
  const changed = (t: CwTicket, action: 'updated' | 'deleted' = 'updated') =>
    pusher.ticketChanged(t, action, technicianName)

  return {
    async close(id) {
      const t = find(id)
      const closed = closedOf(t)[0]
      if (!closed) throw new Error(`board ${t.boardId} has no closed status`)
      touch(t)
      Object.assign(t, {
        statusId: closed.id,
        closedFlag: true,
        closedDate: cwNow(),
        closedBy: technicianName,
      })
      changed(t)
    },
    async reopen(id) {
      const t = find(id)
      const open = statusesOf(t).find((s) => s.defaultFlag && !s.closedStatus)
      if (!open) throw new Error(`board ${t.boardId} has no default status`)
      touch(t)
      Object.assign(t, { statusId: open.id, closedFlag: false, closedDate: null, closedBy: null })
      changed(t)
    },
    async merge(id, into) {
      const child = find(id)
      const parent = find(into)
      const closed = closedOf(child)
      const status = closed.find((s) => /merged/i.test(s.name)) ?? closed[0]
      if (!status) throw new Error(`board ${child.boardId} has no closed status`)
      mergeTickets(parent, [child], status.id, technicianName)
      changed(child)
      changed(parent)
    },
    async delete(id) {
      const t = find(id)
      state.tickets.splice(state.tickets.indexOf(t), 1)
      changed(t, 'deleted')
    },
    async note(id, text) {
      const t = find(id)
      const now = cwNow()
      t.notes.push({
        id: state.nextNoteId++,
        ticketId: t.id,
        text,
        detailDescriptionFlag: true,
        internalAnalysisFlag: false,
        resolutionFlag: false,
        customerUpdatedFlag: false,
        dateCreated: now,
        createdBy: technicianName,
        lastUpdated: now,
      })
      touch(t)
      changed(t)
    },
    async time(id) {
      const t = find(id)
      t.actualHours = (t.actualHours ?? 0) + 0.25
      changed(t)
    },
  }
}

/** The routes at the simulator's root, and the hook that pushes the API's ticket changes. */
export function syncSimRoutes(
  app: FastifyInstance,
  state: ConnectWiseState,
  pusher: CallbackPusher,
  technician: Technician,
): void {
  app.get<{ Params: { codebase: string; id: string } }>(
    '/:codebase/apis/3.0/system/callbackkeys/:id',
    async (request, reply) => {
      if (request.url.split('?')[0] !== keyPath(state, state.signingKey.id))
        return reply.code(404).send({ code: 'NotFound', message: 'No such callback key.' })
      return { signing_key: state.signingKey.key }
    },
  )

  app.post<{ Params: { action: string } }>('/__sim/technician/:action', async (request, reply) => {
    const b = (request.body ?? {}) as { id?: unknown; into?: unknown; text?: unknown }
    const id = String(b.id ?? '')
    const act = request.params.action as keyof Technician
    if (!['close', 'reopen', 'merge', 'delete', 'note', 'time'].includes(act))
      return reply.code(404).send({ code: 'NotFound', message: `No technician action ${act}.` })
    try {
      if (act === 'merge') await technician.merge(id, String(b.into ?? ''))
      else if (act === 'note') await technician.note(id, String(b.text ?? 'Worked on it'))
      else await technician[act](id)
    } catch (e) {
      return reply.code(400).send({ code: 'InvalidObject', message: (e as Error).message })
    }
    return reply.code(204).send()
  })

  app.put('/__sim/pushes', async (request, reply) => {
    const b = (request.body ?? {}) as { drop?: unknown }
    pusher.sender.drop(typeof b.drop === 'number' ? b.drop : null)
    return reply.code(204).send()
  })

  // After the API's own handler changed a ticket, before the answer goes out (so a test that waits for
  // pushes in flight after the answer sees this one).
  const changes = /\/apis\/3\.0\/service\/tickets(?:\/(\d+)(?:\/(?:notes|merge))?)?$/i
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.method === 'GET' || reply.statusCode >= 300 || request.url.startsWith('/__sim/'))
      return payload
    const m = changes.exec(request.url.split('?')[0] ?? '')
    if (!m) return payload
    const ticket = m[1] ? state.tickets.find((t) => t.id === Number(m[1])) : state.tickets.at(-1)
    if (ticket) pusher.ticketChanged(ticket, m[1] ? 'updated' : 'added', state.memberIdentifier)
    if (ticket && /\/merge$/i.test(request.url.split('?')[0] ?? ''))
      for (const child of state.tickets.filter((t) => t.mergedParentTicketId === ticket.id))
        pusher.ticketChanged(child, 'updated', state.memberIdentifier)
    return payload
  })
}
