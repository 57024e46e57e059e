// A technician working tickets in the simulated SuperOps web app (not through the API token), for
// two-way sync (docs/psa/superops.md, "Two-way sync"): close (Closed, which sets resolutionTime),
// reopen (Open), delete (getTicket answers null from then on), a private note and a worklog entry, each
// by the technician and each moving updatedTime, which the poll lists by. SuperOps' API shows no
// merge: `merge` is what a technician does instead (a note on the duplicate naming the ticket kept,
// and the duplicate closed). SuperOps pushes no ticket changes to an API client: `pushes` is a sender
// with no subscriptions, kept so that every simulator's handle has the same shape.
import { PushSender, type Technician, UnknownTicket } from '../push.js'
import { superOpsTime } from './lists.js'
import { TECHNICIAN } from './seed.js'
import type { SuperOpsState, Ticket } from './types.js'

export function superOpsTechnician(state: SuperOpsState): Technician {
  const find = (id: string): Ticket => {
    const t = state.tickets.find((x) => x.ticketId === id)
    if (!t) throw new UnknownTicket(`SuperOps has no ticket ${id}`)
    return t
  }
  const touch = (t: Ticket) => {
    t.updatedTime = superOpsTime()
  }
  const setStatus = (t: Ticket, status: string) => {
    t.status = status
    if (state.resolvingStatuses.includes(status)) t.resolutionTime ??= superOpsTime()
    else t.resolutionTime = null
    touch(t)
  }
  const note = (t: Ticket, content: string) => {
    state.notes.push({
      noteId: String(state.nextId.note++),
      ticketId: t.ticketId,
      addedBy: TECHNICIAN,
      addedOn: superOpsTime(),
      content,
      privacyType: 'PRIVATE',
    })
    touch(t)
  }
  return {
    async close(id) {
      setStatus(find(id), 'Closed')
    },
    async reopen(id) {
      setStatus(find(id), 'Open')
    },
    async merge(id, into) {
      const duplicate = find(id)
      const kept = find(into)
      note(duplicate, `Duplicate of ticket ${kept.displayId}: continued there.`)
      setStatus(duplicate, 'Closed')
    },
    async delete(id) {
      const t = find(id)
      state.tickets.splice(state.tickets.indexOf(t), 1)
    },
    async note(id, text) {
      note(find(id), text)
    },
    async time(id) {
      const t = find(id)
      state.worklogs.push({
        itemId: String(state.nextId.worklog++),
        ticketId: t.ticketId,
        qty: 0.5,
        billDateTime: superOpsTime(),
        notes: 'Looked into the alert',
        technician: TECHNICIAN,
      })
      touch(t)
    },
  }
}

/** A sender that never has a subscription: SuperOps has no ticket push an API client can register. */
export const superOpsPushes = () =>
  new PushSender({ retryDelaysMs: [], deactivateAfter: null, headers: () => ({}) })
