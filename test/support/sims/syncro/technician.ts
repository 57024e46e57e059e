// A technician working tickets in the simulated Syncro's web app (not through the API token), for
// two-way sync (docs/psa/syncro.md, "Two-way sync"): close (Resolved, which sets resolved_at), reopen
// (New, the status every new ticket gets), delete (a 404 from then on), a comment and a time entry,
// each authored by the technician (`tech` and `user_id` on a comment, `user_id` on a ticket timer) and
// each moving `updated_at`, which `GET /tickets?since_updated_at=` lists by.
//
// Syncro's API has no merge and no ticket field that names a surviving ticket, so `merge` is what a
// technician does instead: a comment on the duplicate naming the ticket kept, and the duplicate
// resolved. Syncro never pushes ticket changes to an API client: `pushes` is a sender with no
// subscriptions, kept so that every simulator's handle has the same shape (PUT /__sim/pushes works and
// changes nothing that is sent).
import type { FastifyInstance } from 'fastify'
import { PushSender, type Technician } from '../push.js'
import { fail, idOf, now } from './answers.js'
import type { SyncroState, Ticket } from './types.js'

/** The technician's name and user id, as Syncro shows them on what they write. */
export const TECHNICIAN = { name: 'Jamie Rivera', userId: 42 }

const OPEN_STATUS = 'New'
const CLOSED_STATUS = 'Resolved'

export class UnknownTicket extends Error {}

export function syncroTechnician(state: SyncroState): Technician {
  const find = (id: string): Ticket => {
    const t = state.tickets.find((x) => x.id === idOf(id))
    if (!t) throw new UnknownTicket(`Syncro has no ticket ${id}`)
    return t
  }
  const touch = (t: Ticket) => {
    t.updated_at = now()
  }
  const setStatus = (t: Ticket, status: string) => {
    t.status = status
    if (state.closingStatuses.includes(status)) t.resolved_at ??= now()
    else t.resolved_at = null
    touch(t)
  }
  const comment = (t: Ticket, subject: string, body: string) => {
    t.comments.push({
      id: state.nextId.comment++,
      ticket_id: t.id,
      subject,
      body,
      hidden: true,
      do_not_email: true,
      tech: TECHNICIAN.name,
      user_id: TECHNICIAN.userId,
      created_at: now(),
    })
    touch(t)
  }
  return {
    async close(id) {
      setStatus(find(id), CLOSED_STATUS)
    },
    async reopen(id) {
      setStatus(find(id), OPEN_STATUS)
    },
    async merge(id, into) {
      const duplicate = find(id)
      const kept = find(into)
      comment(duplicate, 'Update', `Duplicate of ticket #${kept.number}: continued there.`)
      setStatus(duplicate, CLOSED_STATUS)
    },
    async delete(id) {
      const t = find(id)
      state.tickets.splice(state.tickets.indexOf(t), 1)
    },
    async note(id, text) {
      comment(find(id), 'Update', text)
    },
    async time(id) {
      const t = find(id)
      const end = new Date()
      t.ticket_timers.push({
        id: state.nextId.timer++,
        ticket_id: t.id,
        user_id: TECHNICIAN.userId,
        start_time: new Date(end.getTime() - 30 * 60_000).toISOString(),
        end_time: end.toISOString(),
        recorded: false,
        billable: true,
        notes: 'Looked into the alert',
        created_at: end.toISOString(),
      })
      touch(t)
    },
  }
}

/** A sender that never has a subscription: Syncro has no ticket push an API client can register. */
export const syncroPushes = () =>
  new PushSender({ retryDelaysMs: [], deactivateAfter: null, headers: () => ({}) })

const actions = ['close', 'reopen', 'merge', 'delete', 'note', 'time'] as const
type Action = (typeof actions)[number]

/** `POST /__sim/technician/{action}` `{id, into, text}` (204) and `PUT /__sim/pushes` `{drop}`. */
export function technicianRoutes(app: FastifyInstance, technician: Technician, pushes: PushSender) {
  app.post<{ Params: { action: string } }>('/__sim/technician/:action', async (request, reply) => {
    const action = request.params.action as Action
    if (!actions.includes(action)) return fail(reply, 404, `No technician action ${action}`)
    const b = (request.body ?? {}) as { id?: unknown; into?: unknown; text?: unknown }
    const id = String(b.id ?? '')
    try {
      if (action === 'merge') await technician.merge(id, String(b.into ?? ''))
      else if (action === 'note') await technician.note(id, String(b.text ?? 'Worked on it'))
      else await technician[action](id)
    } catch (e) {
      if (e instanceof UnknownTicket) return fail(reply, 404, e.message)
      throw e
    }
    return reply.code(204).send()
  })
  app.put('/__sim/pushes', async (request, reply) => {
    const drop = (request.body as { drop?: unknown } | null)?.drop
    pushes.drop(typeof drop === 'number' ? drop : null)
    return reply.code(204).send()
  })
}
