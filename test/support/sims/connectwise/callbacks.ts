// ConnectWise callbacks (docs/psa/connectwise.md, "Two-way sync"): /system/callbacks stores what is
// pushed where (type, level, objectId, url), and every change to a ticket — by a technician or through
// the API, as ConnectWise does — is POSTed to each active callback of type ticket whose level covers it
// (owner: every ticket; board: the ticket's board). The body is ConnectWise's: MessageId, FromUrl,
// CompanyId, MemberId, Action, Type, ID, Entity (the ticket as a JSON string), Metadata.key_url and
// CallbackObjectRecId; `x-content-signature` is the base64 HMAC-SHA256 of the body keyed with the
// SHA-256 of the signing key that key_url serves (`{ "signing_key": "…" }`, no auth needed). Also the
// merge ConnectWise's API has: POST /service/tickets/{id}/merge {mergeTicketIds, status}.
import { createHash, createHmac, randomUUID } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import type { PushSender, PushSubscription } from '../push.js'
import { contextOf, idParam, invalidObject, type RouteDeps } from './deps.js'
import { cwError, sendList } from './paging.js'
import { cwNow, renderTicket } from './render.js'
import type { ConnectWiseState, CwCallback, CwTicket } from './types.js'

/** Where the simulator is reached (known once it listens), for FromUrl and key_url. */
export interface SimBase {
  url: string
}

/** `x-content-signature` as ConnectWise computes it. */
export function signCallback(body: string, signingKey: string): string {
  const key = createHash('sha256').update(signingKey, 'utf8').digest()
  return createHmac('sha256', key).update(body, 'utf8').digest('base64')
}

export const keyPath = (state: ConnectWiseState, id: string) =>
  `/${state.codebase}apis/3.0/system/callbackkeys/${encodeURIComponent(id)}`

/** The push side: each callback's delivery record, and the push of one ticket's change. */
export class CallbackPusher {
  private readonly subs = new Map<number, PushSubscription>()

  constructor(
    private readonly state: ConnectWiseState,
    private readonly base: SimBase,
    readonly sender: PushSender,
  ) {}

  subscription(cb: CwCallback): PushSubscription {
    let sub = this.subs.get(cb.id)
    if (!sub) {
      sub = { id: String(cb.id), url: cb.url, secret: null, deactivationUrl: null, active: true, failures: 0 }
      this.subs.set(cb.id, sub)
    }
    sub.active = !cb.inactiveFlag
    return sub
  }

  forget(id: number): void {
    const sub = this.subs.get(id)
    if (sub) sub.active = false
    this.subs.delete(id)
  }

  /** Pushes a change of `ticket` (its last state, for a deleted one) made by `actor`. */
  ticketChanged(ticket: CwTicket, action: 'added' | 'updated' | 'deleted', actor: string): void {
    const ctx = { base: `${this.base.url}/${this.state.codebase}apis/3.0`, state: this.state }
    const entity = JSON.stringify(renderTicket(ctx, ticket))
    for (const cb of this.state.callbacks) {
      if (cb.inactiveFlag || cb.type.toLowerCase() !== 'ticket') continue
      const level = cb.level.toLowerCase()
      if (level === 'board' && cb.objectId !== ticket.boardId) continue
      if (level !== 'owner' && level !== 'board') continue
      this.sender.push([this.subscription(cb)], {
        MessageId: randomUUID(),
        FromUrl: this.base.url,
        CompanyId: this.state.companyId,
        MemberId: actor,
        Action: action,
        Type: 'ticket',
        ID: ticket.id,
        ProductInstanceId: null,
        PartnerId: null,
        Entity: entity,
        Metadata: { key_url: `${this.base.url}${keyPath(this.state, this.state.signingKey.id)}` },
        CallbackObjectRecId: cb.id,
      })
    }
  }
}

/** Merges `childIds` into `parent`: each child closed with `statusId` and naming its parent. */
export function mergeTickets(parent: CwTicket, children: CwTicket[], statusId: number, actor: string): void {
  const now = cwNow()
  for (const child of children) {
    Object.assign(child, {
      statusId,
      closedFlag: true,
      closedDate: now,
      closedBy: actor,
      lastUpdated: now,
      updatedBy: actor,
      mergedParentTicketId: parent.id,
    })
  }
  Object.assign(parent, { lastUpdated: now, updatedBy: actor })
}

/** The /system/callbacks routes and the merge, inside the authenticated API. */
export function callbackRoutes(app: FastifyInstance, deps: RouteDeps, pusher: CallbackPusher): void {
  const { state } = deps
  const listOptions = {
    knownFields: ['id', 'url', 'objectId', 'type', 'level', 'description', 'inactiveFlag'] as const,
    pageSizeMax: deps.pageSizeMax,
  }
  const render = (c: CwCallback) => ({
    ...c,
    _info: { lastUpdated: cwNow(), updatedBy: state.memberIdentifier },
  })

  app.get('/system/callbacks', async (request, reply) =>
    sendList(
      request,
      reply,
      state.callbacks.map((c) => ({ id: c.id, out: render(c), view: render(c) })),
      listOptions,
    ),
  )

  app.post('/system/callbacks', async (request, reply) => {
    const b = (request.body ?? {}) as Record<string, unknown>
    const missing = ['url', 'objectId', 'type', 'level'].filter((f) => b[f] === undefined || b[f] === null)
    if (missing.length > 0 || typeof b.url !== 'string' || !URL.canParse(b.url))
      return reply.code(400).send(
        invalidObject(
          'callbackEntry',
          (missing.length ? missing : ['url']).map((field) => ({
            code: 'MissingRequiredField',
            message: `The field ${field} is required${field === 'url' ? ' (an absolute URL)' : ''}.`,
            resource: 'callbackEntry',
            field,
          })),
        ),
      )
    const cb: CwCallback = {
      id: state.nextCallbackId++,
      url: b.url,
      objectId: Number(b.objectId),
      type: String(b.type),
      level: String(b.level),
      description: typeof b.description === 'string' ? b.description.slice(0, 100) : '',
      inactiveFlag: b.inactiveFlag === true,
      isSelfSuppressedFlag: b.isSelfSuppressedFlag === true,
      memberId: typeof b.memberId === 'number' ? b.memberId : null,
      payloadVersion: typeof b.payloadVersion === 'string' ? b.payloadVersion : null,
    }
    state.callbacks.push(cb)
    pusher.subscription(cb)
    return reply.code(201).send(render(cb))
  })

  app.delete<{ Params: { id: string } }>('/system/callbacks/:id', async (request, reply) => {
    const id = idParam(request.params.id)
    const at = state.callbacks.findIndex((c) => c.id === id)
    if (id === null || at < 0)
      return cwError(reply, 404, 'NotFound', `Callback ${request.params.id} not found`)
    state.callbacks.splice(at, 1)
    pusher.forget(id)
    return reply.code(204).send()
  })

  app.post<{ Params: { id: string } }>('/service/tickets/:id/merge', async (request, reply) => {
    const parent = state.tickets.find((t) => t.id === idParam(request.params.id))
    if (!parent) return cwError(reply, 404, 'NotFound', `Ticket ${request.params.id} not found`)
    const b = (request.body ?? {}) as { mergeTicketIds?: unknown; status?: { id?: unknown } }
    const ids = Array.isArray(b.mergeTicketIds) ? b.mergeTicketIds.map(Number) : []
    const children = ids.map((id) => state.tickets.find((t) => t.id === id && t.id !== parent.id))
    const board = state.boards.find((x) => x.id === parent.boardId)
    const status = board?.statuses.find((s) => s.id === Number(b.status?.id))
    if (ids.length === 0 || children.some((c) => !c) || !status)
      return reply.code(400).send(
        invalidObject('ticketMerge', [
          {
            code: 'InvalidField',
            message: 'mergeTicketIds must name other tickets, and status a status of the board.',
            resource: 'ticketMerge',
            field: ids.length === 0 ? 'mergeTicketIds' : 'status',
          },
        ]),
      )
    mergeTickets(parent, children as CwTicket[], status.id, state.memberIdentifier)
    return reply.send(renderTicket(contextOf(request, state), parent))
  })
}
