// HaloPSA's push (docs/psa/halopsa.md, "Two-way sync"): a webhook an administrator adds in Halo
// (Configuration > Integrations > Webhooks) with the events "Ticket Status Changed" and "Ticket Updated"
// and Basic authentication, user `alertbridge` and the connection's push secret as the password. So
// register answers the steps (it makes nothing through the API), unregister has nothing to remove, and
// verify checks the Basic credentials (timing-safe) and reads the ticket ids from Halo's JSON payload
// (the ticket object a delivery carries, or several where the webhook batches). Halo signs nothing and
// its payload's time is not authenticated, so no age is checked: what changed is always read back.
import { createHash, timingSafeEqual } from 'node:crypto'
import { ok, type PsaResult } from '../adapter.js'
import {
  maxPushTicketIds,
  type PsaPush,
  type PushRegistration,
  type PushRequest,
  type PushTarget,
  type PushVerdict,
} from '../psa-sync-port.js'
import { isItem } from './client.js'
import { idText } from './lists.js'

/** The Basic authentication user name the administrator gives the webhook. */
export const pushUser = 'alertbridge'

/** The steps an administrator follows in Halo. The secret is not written into them: they are stored
 * and shown as they are, and the secret is shown once, beside them, by alertbridge. */
export function webhookSteps(target: PushTarget): string[] {
  return [
    'In HaloPSA, open Configuration > Integrations > Webhooks and add a new webhook named "alertbridge".',
    `Payload URL: ${target.url} (method POST, content type application/json).`,
    `Authentication: Basic Authentication, username "${pushUser}", password: this connection's push secret as alertbridge shows it.`,
    'Events: add "Ticket Status Changed" and "Ticket Updated" (and "Ticket Deleted" where offered), without conditions that leave out the clients, teams or ticket types alertbridge creates tickets with.',
    'Save the webhook and make sure it is active; its Deliveries tab shows each push and alertbridge’s answer (2xx).',
  ]
}

export const haloPush: PsaPush = {
  async register(target: PushTarget): Promise<PsaResult<PushRegistration>> {
    return ok({ mode: 'manual', instructions: webhookSteps(target) })
  },

  // Nothing was made through the API: the administrator removes the webhook in Halo.
  async unregister(): Promise<PsaResult<null>> {
    return ok(null)
  },

  async verify(request: PushRequest): Promise<PushVerdict> {
    if (request.secret === '') return { ok: false, reason: 'the connection has no push secret' }
    const header = request.headers.authorization ?? request.headers.Authorization
    const value = Array.isArray(header) ? header[0] : header
    const basic = typeof value === 'string' ? /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(value) : null
    if (!basic?.[1]) return { ok: false, reason: 'the push carries no Basic authentication' }
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8')
    const colon = decoded.indexOf(':')
    const user = colon < 0 ? decoded : decoded.slice(0, colon)
    const password = colon < 0 ? '' : decoded.slice(colon + 1)
    // Both compared, whatever the first says: the time taken tells nothing about either.
    const userOk = same(user, pushUser)
    const passwordOk = same(password, request.secret)
    if (!(userOk && passwordOk)) return { ok: false, reason: 'the push’s Basic credentials are wrong' }
    let body: unknown
    try {
      body = JSON.parse(request.rawBody.toString('utf8'))
    } catch {
      return { ok: false, reason: 'the push’s body is not JSON' }
    }
    return { ok: true, ticketIds: ticketIds(body) }
  },
}

/** Equal, in a time that does not depend on where they differ (digests are of one length). */
function same(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest()
  return timingSafeEqual(digest(a), digest(b))
}

/**
 * The ticket ids of a delivery: each event's `ticket.id`, else its `ticket_id` or its action's
 * `ticket_id` (a batched delivery is an array of events). Only numbers: Halo's ticket ids. One pass
 * over the events, stopping at one id over maxPushTicketIds (the service refuses such a push).
 */
export function ticketIds(body: unknown): string[] {
  const events = Array.isArray(body) ? body : [body]
  const ids = new Set<string>()
  for (const e of events) {
    if (!isItem(e)) continue
    const ticket = isItem(e.ticket) ? e.ticket : null
    const act = isItem(e.action) ? e.action : null
    const id = idText(ticket?.id ?? e.ticket_id ?? act?.ticket_id)
    if (id !== null && /^\d+$/.test(id) && id !== '0') ids.add(id)
    if (ids.size > maxPushTicketIds) break
  }
  return [...ids]
}
