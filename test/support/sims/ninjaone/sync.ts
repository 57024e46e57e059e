// Two-way sync in the simulated NinjaOne: the webhook (PUT /v2/webhook replaces it, DELETE /v2/webhook
// removes it) receives NINJA_TICKETING activities for tickets created, deleted and reinstated — the
// only ticket activities NinjaOne has — with the custom headers the configuration named (NinjaOne
// signs nothing) — a ticket created through the API too; a technician (sim.technician, POST /__sim/technician/{action} {id, into?, text?})
// closes, reopens, notes, tracks time, deletes (pushed), reinstates (pushed) or merges (NinjaOne has
// no merge: the ticket is closed with a note). PUT /__sim/pushes {drop} loses pushes.
import type { FastifyInstance } from 'fastify'
import { PushSender, type Technician, technicianRoutes, UnknownTicket } from '../push.js'
import { type Answer, type ApiRequest, addLog, refuse } from './tickets.js'
import { type NinjaState, type NinjaTicket, technicianId } from './types.js'

export interface NinjaSync {
  technician: Technician & { reinstate(id: string): Promise<void> }
  pushes: PushSender
  /** Pushes the activity of a ticket to the webhook, where it asked for it (server.ts: a create). */
  activity(t: NinjaTicket, statusCode: string): void
}

export function webhookRoutes(r: ApiRequest, state: NinjaState): Answer | null {
  if (r.segments[0] !== 'webhook' || r.segments.length !== 1) return null
  if (r.method === 'DELETE') {
    if (!state.webhook) return refuse(404, 'No webhook is configured', 'NOT_FOUND')
    state.webhook = null
    return { status: 204, body: null }
  }
  if (r.method !== 'PUT') return null
  const b = (r.body ?? {}) as Record<string, unknown>
  if (typeof b.url !== 'string' || !URL.canParse(b.url))
    return refuse(400, 'url is required', 'VALIDATION_ERROR')
  state.webhook = {
    url: b.url,
    activities: (b.activities ?? {}) as Record<string, string[]>,
    headers: Array.isArray(b.headers) ? (b.headers as { name: string; value: string }[]) : [],
  }
  return { status: 204, body: null }
}

export function installSync(app: FastifyInstance, state: NinjaState): NinjaSync {
  const pushes = new PushSender({
    retryDelaysMs: [],
    deactivateAfter: null,
    headers: () => Object.fromEntries((state.webhook?.headers ?? []).map((h) => [h.name, h.value])),
  })
  const find = (id: string): NinjaTicket => {
    const t = state.tickets.find((x) => String(x.id) === String(id))
    if (!t) throw new UnknownTicket(`Ticket ${id} not found`)
    return t
  }
  const activity = (t: NinjaTicket, statusCode: string) => {
    const w = state.webhook
    const wanted = w?.activities.NINJA_TICKETING ?? []
    if (!w || !(wanted.includes('*') || wanted.includes(statusCode))) return
    pushes.push(
      [{ id: 'webhook', url: w.url, secret: null, deactivationUrl: null, active: true, failures: 0 }],
      {
        id: state.nextId.log++,
        activityTime: Date.now() / 1000,
        activityType: 'NINJA_TICKETING',
        statusCode,
        status: statusCode,
        severity: 'NONE',
        priority: 'NONE',
        sourceName: 'Ticketing',
        subject: t.subject,
        message: `Ticket #${t.id} ${statusCode.split('_').at(-1)?.toLowerCase()}`,
        userId: technicianId,
        ticketId: t.id,
        data: { ticketId: t.id },
      },
    )
  }
  const log = (t: NinjaTicket, body: string, timeTracked = 0) =>
    addLog(state, t, {
      type: body === '' ? 'SAVE' : 'COMMENT',
      body,
      publicEntry: false,
      system: false,
      timeTracked,
      appUserContactId: technicianId,
    })
  const technician: NinjaSync['technician'] = {
    async close(id) {
      const t = find(id)
      t.statusId = 6000
      log(t, '')
    },
    async reopen(id) {
      const t = find(id)
      t.statusId = 2000
      log(t, '')
    },
    async merge(id, into) {
      const t = find(id)
      t.statusId = 6000
      log(t, `Merged into ticket #${into} (NinjaOne has no merge: closed with this note)`)
    },
    async delete(id) {
      const t = find(id)
      t.deleted = true
      t.lastUpdated = Date.now() / 1000
      activity(t, 'NINJA_TICKETING_TICKET_DELETED')
    },
    async reinstate(id) {
      const t = find(id)
      t.deleted = false
      t.lastUpdated = Date.now() / 1000
      activity(t, 'NINJA_TICKETING_TICKET_REINSTATED')
    },
    async note(id, text) {
      log(find(id), text)
    },
    async time(id) {
      const t = find(id)
      t.totalTimeTracked += 900
      log(t, 'Worked on it', 900)
    },
  }
  technicianRoutes(app, technician, pushes)
  // NinjaOne's own action beside the shared ones (a static route comes before ':action').
  app.post('/__sim/technician/reinstate', async (request, reply) => {
    const id = String((request.body as { id?: unknown } | null)?.id ?? '')
    try {
      await technician.reinstate(id)
    } catch (e) {
      if (e instanceof UnknownTicket) return reply.code(404).send({ error: e.message })
      throw e
    }
    return reply.code(204).send()
  })
  return { technician, pushes, activity }
}
