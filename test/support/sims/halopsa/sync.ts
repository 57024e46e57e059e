// Two-way sync in the simulated HaloPSA: a technician working tickets in Halo's UI (sim.technician, and
// POST /__sim/technician/{close|reopen|merge|delete|note|time}), and the webhooks an administrator sets
// up by hand in Halo (Configuration > Integrations > Webhooks; here POST /__sim/webhooks {url, username,
// password, events?}), which Halo posts to with Basic authentication when one of their events happens:
// one JSON delivery per webhook and change, holding the ticket (and the action, where there is one), as
// Halo's webhook guide describes its payload. Each technician change is an action by the technician,
// as Halo records a change made in its UI: a close or reopen moves the status with new_status, a time
// entry carries timetaken, a merge closes the absorbed ticket and sets its merged_into_id (the survivor
// gets an action naming it in merged_from_ticketid), a delete removes the ticket (GET answers 404).
// Halo has no automatic retry documented (an administrator resends from the webhook's deliveries tab),
// so a failed delivery is not retried unless a test asks; PUT /__sim/pushes {drop} loses pushes.
import { randomUUID } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { PushSender, type Technician } from '../push.js'
import { addAction } from './actions.js'
import type { HaloState, HaloTicket, HaloWebhook } from './types.js'

export interface HaloSync {
  technician: Technician
  pushes: PushSender
}

/** A change's events, in the names of Halo's notification events a webhook subscribes to. */
type Event = 'Ticket Updated' | 'Ticket Status Changed' | 'Ticket Deleted'
const defaultEvents: Event[] = ['Ticket Updated', 'Ticket Status Changed']

export function installSync(
  app: FastifyInstance,
  state: HaloState,
  o: { retryDelaysMs?: number[] } = {},
): HaloSync {
  const pushes = new PushSender({
    retryDelaysMs: o.retryDelaysMs ?? [],
    deactivateAfter: null,
    headers: (_body, sub) => ({
      authorization: `Basic ${Buffer.from(sub.secret ?? '').toString('base64')}`,
    }),
  })

  const find = (id: string): HaloTicket => {
    const t = state.tickets.find((x) => String(x.id) === String(id))
    if (!t) throw Object.assign(new Error(`Ticket ${id} not found`), { statusCode: 404 })
    return t
  }
  const outcome = (name: string) =>
    state.outcomes.find((x) => x.outcome === name) ?? state.outcomes[0] ?? { id: 1, outcome: name }
  const tech = state.technicianAgent
  const act = (t: HaloTicket, note: string, more: { new_status?: number; timetaken?: number } = {}) =>
    addAction(state, t, { outcome: outcome('Note Added'), note, ...more }, state.technicianAgent, null)

  /** Posts the change to every active webhook subscribed to one of its events. */
  const notify = (events: Event[], ticket: HaloTicket, action: unknown) => {
    for (const w of state.webhooks) {
      if (!w.events.some((e) => events.includes(e as Event))) continue
      const event = events.find((e) => w.events.includes(e)) ?? events[0]
      pushes.push([w], {
        id: randomUUID(),
        webhook_id: w.id,
        event,
        timestamp: new Date().toISOString(),
        ticket: { ...ticket },
        ...(action ? { action } : {}),
      })
    }
  }
  const statusChanged = (t: HaloTicket, statusId: number, note: string) =>
    notify(['Ticket Status Changed', 'Ticket Updated'], t, act(t, note, { new_status: statusId }))
  const closedId = () => (state.closedStatusIds.includes(9) ? 9 : (state.closedStatusIds[0] ?? 9))
  const openId = (t: HaloTicket) =>
    state.ticketTypes.find((x) => x.id === t.tickettype_id)?.initial_status ?? 1

  const technician: Technician = {
    async close(id) {
      statusChanged(find(id), closedId(), `Closed by ${tech.name}.`)
    },
    async reopen(id) {
      const t = find(id)
      statusChanged(t, openId(t), `Reopened by ${tech.name}.`)
    },
    async merge(id, into) {
      const t = find(id)
      const survivor = find(into)
      t.merged_into_id = survivor.id
      statusChanged(t, closedId(), `Merged into ticket #${survivor.id}.`)
      const absorbed = addAction(
        state,
        survivor,
        {
          outcome: outcome('Note Added'),
          note: `Ticket #${t.id} merged into this ticket.`,
          merged_from_ticketid: t.id,
        },
        tech,
        null,
      )
      notify(['Ticket Updated'], survivor, absorbed)
    },
    async delete(id) {
      const t = find(id)
      state.tickets = state.tickets.filter((x) => x !== t)
      state.actions = state.actions.filter((a) => a.ticket_id !== t.id)
      notify(['Ticket Deleted', 'Ticket Updated'], t, null)
    },
    async note(id, text) {
      const t = find(id)
      notify(['Ticket Updated'], t, act(t, text))
    },
    async time(id) {
      const t = find(id)
      notify(['Ticket Updated'], t, act(t, 'Investigated the alert.', { timetaken: 0.5 }))
    },
  }

  type Body = { id?: unknown; into?: unknown; text?: unknown }
  app.post('/__sim/technician/:action', async (request, reply) => {
    const { action } = request.params as { action: string }
    const b = (request.body ?? {}) as Body
    const id = String(b.id ?? '')
    const into = String(b.into ?? '')
    const text = typeof b.text === 'string' ? b.text : 'A technician’s note.'
    const run: Record<string, () => Promise<void>> = {
      close: () => technician.close(id),
      reopen: () => technician.reopen(id),
      merge: () => technician.merge(id, into),
      delete: () => technician.delete(id),
      note: () => technician.note(id, text),
      time: () => technician.time(id),
    }
    const step = run[action]
    if (!step) return reply.code(404).type('text/plain').send(`No technician action '${action}'`)
    await step()
    return reply.code(204).send()
  })
  app.put('/__sim/pushes', async (request, reply) => {
    const { drop } = (request.body ?? {}) as { drop?: number | null }
    pushes.drop(drop === undefined ? 0 : drop)
    return reply.code(204).send()
  })
  app.get('/__sim/webhooks', async () => state.webhooks)
  app.post('/__sim/webhooks', async (request, reply) => {
    const b = (request.body ?? {}) as Record<string, unknown>
    if (typeof b.url !== 'string' || !URL.canParse(b.url))
      return reply.code(400).type('text/plain').send('Please enter a Payload URL.')
    const username = typeof b.username === 'string' ? b.username : ''
    const password = typeof b.password === 'string' ? b.password : ''
    const events = Array.isArray(b.events) ? b.events.map(String) : defaultEvents
    const hook: HaloWebhook = {
      id: randomUUID(),
      name: typeof b.name === 'string' ? b.name : 'alertbridge',
      url: b.url,
      username,
      secret: `${username}:${password}`,
      deactivationUrl: null,
      active: true,
      failures: 0,
      events,
    }
    state.webhooks.push(hook)
    return reply.code(201).send(hook)
  })
  app.delete('/__sim/webhooks/:id', async (request, reply) => {
    const { id } = request.params as { id: string }
    state.webhooks = state.webhooks.filter((w) => w.id !== id)
    return reply.code(204).send()
  })
  return { technician, pushes }
}
