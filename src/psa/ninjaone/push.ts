// NinjaOne's push (docs/psa/ninjaone.md#two-way-sync): one webhook per API application, set with
// PUT /v2/webhook (it replaces any earlier one) for the NINJA_TICKETING activities NinjaOne has —
// ticket created, deleted and reinstated; none for a status change, which the poll hears. NinjaOne
// signs nothing, so the webhook carries a custom header holding the connection's push secret, and
// verify compares it (timing-safe). The ticket ids are read from each activity.
import { createHash, timingSafeEqual } from 'node:crypto'
import { ok, type PsaCall, type PsaResult } from '../adapter.js'
import {
  maxPushTicketIds,
  type PsaPush,
  type PushRegistration,
  type PushRequest,
  type PushTarget,
  type PushVerdict,
} from '../psa-sync-port.js'
import { idText, isItem, type NinjaClient } from './client.js'

/** The header NinjaOne sends the secret in. */
export const secretHeader = 'x-alertbridge-secret'
export const ticketActivities = [
  'NINJA_TICKETING_TICKET_CREATED',
  'NINJA_TICKETING_TICKET_DELETED',
  'NINJA_TICKETING_TICKET_REINSTATED',
] as const

export function ninjaPush(client: NinjaClient): PsaPush {
  return {
    async register(target: PushTarget, call: PsaCall): Promise<PsaResult<PushRegistration>> {
      const res = await client.api('PUT', '/webhook', call, {
        body: {
          url: target.url,
          activities: { NINJA_TICKETING: [...ticketActivities] },
          headers: [{ name: secretHeader, value: target.secret }],
        },
      })
      if (!res.ok) return res
      return ok({
        mode: 'registered',
        registrationId: 'webhook',
        detail:
          'NinjaOne pushes deleted and reinstated tickets; status changes are heard by the poll (NinjaOne has no such event)',
      })
    },

    async unregister(_id: string, call: PsaCall): Promise<PsaResult<null>> {
      const res = await client.api('DELETE', '/webhook', call)
      if (!res.ok && res.failure.kind !== 'not-found') return res
      return ok(null)
    },

    async verify(request: PushRequest): Promise<PushVerdict> {
      if (request.secret === '') return { ok: false, reason: 'the connection has no push secret' }
      const header = request.headers[secretHeader]
      const value = Array.isArray(header) ? header[0] : header
      if (typeof value !== 'string')
        return { ok: false, reason: `the push carries no ${secretHeader} header` }
      if (!same(value, request.secret)) return { ok: false, reason: `the push's ${secretHeader} is wrong` }
      let body: unknown
      try {
        body = JSON.parse(request.rawBody.toString('utf8'))
      } catch {
        return { ok: false, reason: 'the push’s body is not JSON' }
      }
      return { ok: true, ticketIds: ticketIds(body) }
    },
  }
}

const same = (a: string, b: string) => {
  const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest()
  return timingSafeEqual(digest(a), digest(b))
}

/** The ticket ids of NINJA_TICKETING activities: `ticketId`, or `data.ticketId` / `data.ticket.id`. */
export function ticketIds(body: unknown): string[] {
  const activities = Array.isArray(body) ? body : [body]
  const ids = new Set<string>()
  for (const a of activities) {
    if (!isItem(a) || a.activityType !== 'NINJA_TICKETING') continue
    const data = isItem(a.data) ? a.data : {}
    const id = idText(a.ticketId ?? data.ticketId ?? (isItem(data.ticket) ? data.ticket.id : undefined))
    if (id !== null && /^\d+$/.test(id)) ids.add(id)
    if (ids.size > maxPushTicketIds) break
  }
  return [...ids]
}
