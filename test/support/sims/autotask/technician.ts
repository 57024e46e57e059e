// A technician working tickets in the simulated Autotask (docs/psa/autotask.md#two-way-sync), recorded
// as the technician's resource (TECH_RESOURCE_ID), never the API user's: close (Complete, 5, with
// completedDate and completedByResourceID), reopen (the status picklist's default, as a new ticket
// gets), merge (the absorbed ticket is completed with a note naming the surviving ticket's number, the
// survivor gets a note naming the absorbed one), delete, a note, and a time entry. Each change goes to
// the ticket webhooks as Autotask would send it. Served over HTTP too:
// `POST /__sim/technician/{close|reopen|merge|delete|note|time}` with `{"id","into","text"}` (204), and
// `PUT /__sim/pushes {"drop": n|null}`.
import type { FastifyInstance } from 'fastify'
import type { Technician } from '../push.js'
import { COMPLETE } from './seed.js'
import { TECH_RESOURCE_ID } from './sync-seed.js'
import { createNote } from './tickets.js'
import type { AutotaskState, Ticket } from './types.js'
import type { Webhooks } from './webhooks.js'

export function autotaskTechnician(state: AutotaskState, hooks: Webhooks): Technician {
  const find = (id: string): Ticket => {
    const t = state.tickets.find((x) => String(x.id) === id)
    if (!t) throw new Error(`Autotask has no ticket ${id}`)
    return t
  }
  /** Changes the ticket as the technician and tells the webhooks. */
  const change = (id: string, edit: (t: Ticket, at: string) => void) => {
    const t = find(id)
    const before = { ...t }
    const at = new Date().toISOString()
    edit(t, at)
    Object.assign(t, {
      lastActivityDate: at,
      lastActivityResourceID: TECH_RESOURCE_ID,
      lastActivityPersonType: 1,
    })
    hooks.changed('Update', t.id, before, TECH_RESOURCE_ID)
  }
  const complete = (t: Ticket, at: string) =>
    Object.assign(t, { status: COMPLETE, completedDate: at, completedByResourceID: TECH_RESOURCE_ID })
  const note = (id: string, text: string) => {
    const t = find(id)
    const before = { ...t }
    const made = createNote(
      state,
      t.id,
      { ticketID: t.id, title: text.split('\n')[0] ?? 'Note', description: text, noteType: 3, publish: 1 },
      TECH_RESOURCE_ID,
    )
    if (!made.ok) throw new Error(made.errors.join('; '))
    hooks.changed('Update', t.id, before, TECH_RESOURCE_ID)
  }
  const openStatus = () =>
    Number(state.picklists.Tickets?.status?.find((v) => v.isDefaultValue && v.isActive)?.value ?? 1)

  return {
    async close(id) {
      change(id, complete)
    },
    async reopen(id) {
      change(id, (t) =>
        Object.assign(t, { status: openStatus(), completedDate: null, completedByResourceID: null }),
      )
    },
    async merge(id, into) {
      const absorbed = find(id)
      const survivor = find(into)
      note(into, `Ticket ${absorbed.ticketNumber} was merged into this ticket.`)
      note(id, `This ticket was merged into ticket ${survivor.ticketNumber}.`)
      change(id, complete)
    },
    async delete(id) {
      const t = find(id)
      state.tickets = state.tickets.filter((x) => x !== t)
      delete state.notes[id]
      state.timeEntries = state.timeEntries.filter((e) => e.ticketID !== t.id)
      hooks.changed('Delete', t.id, t, TECH_RESOURCE_ID)
    },
    async note(id, text) {
      note(id, text)
    },
    async time(id) {
      change(id, (t, at) => {
        state.timeEntries.push({
          id: state.nextId.time++,
          ticketID: t.id,
          resourceID: TECH_RESOURCE_ID,
          dateWorked: at,
          hoursWorked: 0.5,
          summaryNotes: 'Looked into the alert',
          createDateTime: at,
        })
      })
    },
  }
}

/** The technician's and the pushes' HTTP switches on the simulator. */
export function technicianRoutes(app: FastifyInstance, technician: Technician, hooks: Webhooks): void {
  app.post<{
    Params: { action: string }
    Body: { id?: unknown; into?: unknown; text?: unknown } | undefined
  }>('/__sim/technician/:action', async (request, reply) => {
    const { id, into, text } = request.body ?? {}
    const action = request.params.action
    if (typeof id !== 'string' && typeof id !== 'number')
      return reply.code(400).send({ errors: ['id is required'] })
    const ticket = String(id)
    try {
      if (action === 'merge') await technician.merge(ticket, String(into ?? ''))
      else if (action === 'note') await technician.note(ticket, String(text ?? 'A technician’s note'))
      else if (action === 'close' || action === 'reopen' || action === 'delete' || action === 'time')
        await technician[action](ticket)
      else return reply.code(404).send({ errors: [`No technician action '${action}'`] })
    } catch (e) {
      return reply.code(404).send({ errors: [(e as Error).message] })
    }
    return reply.code(204).send()
  })
  app.post<{ Params: { id: string } }>('/__sim/webhooks/:id/deactivate', async (request, reply) => {
    const status = await hooks.deactivate(Number(request.params.id))
    if (status === undefined) return reply.code(404).send({ errors: [`No webhook ${request.params.id}`] })
    return reply.send({ deactivationAnswered: status })
  })
  app.put<{ Body: { drop?: number | null } | undefined }>('/__sim/pushes', async (request, reply) => {
    const drop = request.body?.drop
    hooks.pushes.drop(drop === undefined ? 0 : drop)
    return reply.code(204).send()
  })
}
