// Autotask's ticket webhooks (docs/psa/autotask.md#two-way-sync). Registering creates a TicketWebhook
// (update and delete events, alertbridge's URL, its deactivation URL and secret), subscribes it to the
// ticket's Status (and Last Activity Date where the tenant offers it: a note or a time entry moves it),
// and excludes the API user's own resource, so alertbridge's own writes are not sent back to it. An
// earlier webhook of the same URL is removed first. A callout is signed
// `x-hook-signature: sha1=<base64 HMAC-SHA1 of the raw body keyed with the SecretKey>`, and carries its
// EventTime: one older than five minutes is refused. A call of the DeactivationUrl is believed only
// once GET TicketWebhooks/{id} reads the webhook back inactive (readRegistration).
import { createHmac, timingSafeEqual } from 'node:crypto'
import { fail, ok, type PsaCall, type PsaResult } from '../adapter.js'
import type { PsaPush, PushRegistration, PushRequest, PushTarget, PushVerdict } from '../psa-sync-port.js'
import type { AutotaskClient } from './client.js'
import { entries } from './plan.js'

/** Autotask's TicketWebhooks.SecretKey holds 64 characters. */
const secretLength = 64
const staleMs = 5 * 60 * 1000

/** A key of a JSON object, whatever its case (Autotask's payload is PascalCase; be lenient). */
function key(body: Record<string, unknown>, name: string): unknown {
  const k = Object.keys(body).find((k) => k.toLowerCase() === name.toLowerCase())
  return k === undefined ? undefined : body[k]
}

function header(headers: PushRequest['headers'], name: string): string | undefined {
  const v = headers[name] ?? headers[name.toLowerCase()]
  return Array.isArray(v) ? v[0] : v
}

export class AutotaskPush implements PsaPush {
  constructor(
    private readonly client: AutotaskClient,
    /** The API user's resource id (whose changes the webhook excludes). */
    private readonly ownResource: (call: PsaCall) => Promise<PsaResult<number>>,
    /** Each operation first passes the tenant's hourly threshold guard. */
    private readonly guard: (call: PsaCall) => Promise<void>,
  ) {}

  async register(target: PushTarget, call: PsaCall): Promise<PsaResult<PushRegistration>> {
    const { client } = this
    await this.guard(call)
    if (target.secret.length > secretLength) {
      return fail({
        kind: 'rejected',
        retryable: false,
        message: `Autotask's webhook secret holds ${secretLength} characters at most`,
      })
    }
    const self = await this.ownResource(call)
    if (!self.ok) return self
    const picks = await client.picklists('TicketWebhookFields', call)
    if (!picks.ok) return picks
    const ticketFields = entries(picks.value, 'fieldID')
    const field = (label: string) => ticketFields.find((e) => e.name.toLowerCase() === label.toLowerCase())
    const status = field('Status')
    if (!status) {
      return fail({
        kind: 'rejected',
        retryable: false,
        message: 'Autotask offers no Status field for ticket webhooks',
      })
    }
    const activity = field('Last Activity Date')
    // Registering again replaces an earlier webhook of this URL (its secret may have changed).
    const earlier = await client.query<{ id: number }>(
      'TicketWebhooks',
      [{ op: 'eq', field: 'webhookUrl', value: target.url }],
      ['id'],
      call,
    )
    if (!earlier.ok) return earlier
    for (const w of earlier.value) {
      const gone = await this.unregister(String(w.id), call)
      if (!gone.ok) return gone
    }
    const made = await client.api('POST', 'TicketWebhooks', call, {
      name: 'alertbridge',
      webhookUrl: target.url,
      deactivationUrl: target.deactivationUrl,
      secretKey: target.secret,
      isActive: true,
      isSubscribedToCreateEvents: false,
      isSubscribedToUpdateEvents: true,
      isSubscribedToDeleteEvents: true,
      sendThresholdExceededNotification: false,
    })
    if (!made.ok) return made
    const id = (made.value.body as { itemId?: unknown } | null)?.itemId
    if (typeof id !== 'number')
      return fail({ kind: 'rejected', retryable: false, message: 'Autotask answered no itemId' })
    const children: [string, Record<string, unknown>][] = [
      ...[status, activity]
        .filter((f) => f !== undefined)
        .map((f): [string, Record<string, unknown>] => [
          'Fields',
          { webhookID: id, fieldID: Number(f.id), isSubscribedField: true, isDisplayAlwaysField: false },
        ]),
      ['ExcludedResources', { webhookID: id, resourceID: self.value }],
    ]
    for (const [child, body] of children) {
      const added = await client.api('POST', `TicketWebhooks/${id}/${child}`, call, body)
      if (!added.ok) {
        // Half a webhook would push alertbridge's own writes back, or nothing: take it away again.
        await client.api('DELETE', `TicketWebhooks/${id}`, call)
        return added
      }
    }
    const watched = [status, activity].filter((f) => f !== undefined).map((f) => f.name)
    return ok({
      mode: 'registered',
      registrationId: String(id),
      detail: `Autotask ticket webhook ${id}: updates of ${watched.join(' and ')} and deletes, not changes by resource ${self.value} (alertbridge's API user)`,
    })
  }

  async unregister(registrationId: string, call: PsaCall): Promise<PsaResult<null>> {
    await this.guard(call)
    if (!/^\d+$/.test(registrationId)) return ok(null)
    const res = await this.client.api('DELETE', `TicketWebhooks/${registrationId}`, call)
    return res.ok || res.failure.kind === 'not-found' ? ok(null) : res
  }

  /** The webhook as Autotask holds it (GET TicketWebhooks/{id}: `item` null when it does not exist). */
  async readRegistration(
    registrationId: string,
    call: PsaCall,
  ): Promise<PsaResult<'active' | 'inactive' | 'gone'>> {
    await this.guard(call)
    if (!/^\d+$/.test(registrationId)) return ok('gone')
    const res = await this.client.api('GET', `TicketWebhooks/${registrationId}`, call)
    if (!res.ok) return res.failure.kind === 'not-found' ? ok('gone') : res
    const item = (res.value.body as { item?: unknown } | null)?.item
    if (!item || typeof item !== 'object' || Array.isArray(item)) return ok('gone')
    return ok(key(item as Record<string, unknown>, 'isActive') === false ? 'inactive' : 'active')
  }

  async verify(request: PushRequest, _call: PsaCall): Promise<PushVerdict> {
    const refuse = (reason: string): PushVerdict => ({ ok: false, reason })
    const given = /^sha1=(.+)$/i.exec(header(request.headers, 'x-hook-signature')?.trim() ?? '')?.[1]
    if (!given) return refuse('no x-hook-signature')
    const expected = createHmac('sha1', request.secret).update(request.rawBody).digest()
    const sent = Buffer.from(given, 'base64')
    if (sent.length !== expected.length || !timingSafeEqual(sent, expected))
      return refuse('the x-hook-signature does not match')
    let body: unknown
    try {
      body = JSON.parse(request.rawBody.toString('utf8'))
    } catch {
      return refuse('the body is not JSON')
    }
    if (!body || typeof body !== 'object' || Array.isArray(body)) return refuse('the body is not an object')
    const payload = body as Record<string, unknown>
    const type = key(payload, 'EntityType')
    if (typeof type !== 'string' || type.toLowerCase() !== 'ticket') return refuse('not a ticket callout')
    const id = key(payload, 'Id')
    if ((typeof id !== 'number' && typeof id !== 'string') || !/^\d+$/.test(String(id)))
      return refuse('no ticket id')
    const at = Date.parse(String(key(payload, 'EventTime') ?? ''))
    if (Number.isNaN(at)) return refuse('no EventTime')
    // A replayed callout is old; one from the future is a clock far off, or forged.
    if (Math.abs(request.now.getTime() - at) > staleMs)
      return refuse('the EventTime is over five minutes off')
    return { ok: true, ticketIds: [String(id)] }
  }
}
