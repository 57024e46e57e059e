// Kaseya BMS's own part of two-way sync, its webhooks (docs/psa/kaseya-bms.md, "Two-way sync"; the reads
// and reopen are the engine's, ../kaseya-v2/psa-sync.ts). Registered through the API:
// POST /v2/admin/webhooks with WebhookConfigurationInputDto {Name, PayloadURL, IsEnabled, Secret,
// ContentType, SendAllEvents, Events}, the events' ids read from GET /v2/admin/webhooks/events/lookup
// (the ticket events that update or delete: BMS does not publish their ids); a webhook of the same URL
// found with POST /v2/admin/webhooks/search is updated (PUT …/{id}) instead of doubled; unregister is
// DELETE …/{id}. BMS does not publish how it signs a push or what its body holds, so the assumption is
// that it sends the webhook's Secret as it is, in a header: verify compares it (timing-safe) with the
// connection's secret, and the per-connection token in the URL is checked by the service besides. The
// ticket id is read from the body (Data.Id, else TicketId or EntityId); a push whose own time says it
// is more than five minutes old is refused as stale.
import { createHash, timingSafeEqual } from 'node:crypto'
import { fail, ok, type PsaCall, type PsaResult } from '../adapter.js'
import type { V2Client } from '../kaseya-v2/client.js'
import { field, num, rows, str } from '../kaseya-v2/wire.js'
import {
  maxPushTicketIds,
  type PsaPush,
  type PushRegistration,
  type PushRequest,
  type PushTarget,
  type PushVerdict,
} from '../psa-sync-port.js'

/** The header the secret is taken from, first the one assumed, then names other integrations use. */
export const secretHeaders = ['x-webhook-secret', 'x-bms-webhook-secret', 'x-bms-secret'] as const
/** WebhookConfigurationInputDto.ContentType: an unpublished enum; 1 is taken to be JSON. */
const jsonContentType = 1
const staleMs = 5 * 60 * 1000
const name = 'alertbridge'

const refused = <T>(message: string): PsaResult<T> => fail({ kind: 'rejected', retryable: false, message })

export class KaseyaBmsPush implements PsaPush {
  constructor(private readonly client: V2Client) {}

  async register(target: PushTarget, call: PsaCall): Promise<PsaResult<PushRegistration>> {
    const lookup = await this.client.api('GET', '/admin/webhooks/events/lookup', call)
    if (!lookup.ok) return lookup
    const events = rows(lookup.value.result).filter((e) => {
      const what = `${str(e, 'categoryName') ?? ''} ${str(e, 'name') ?? ''}`
      return /ticket|service ?desk/i.test(what) && /updat|delet/i.test(str(e, 'name') ?? '')
    })
    const ids = events.map((e) => num(e, 'id')).filter((id): id is number => id !== null)
    if (ids.length === 0)
      return refused(
        'Kaseya BMS lists no ticket Updated or Deleted event at /v2/admin/webhooks/events/lookup',
      )
    const existing = await this.sameUrl(target.url, call)
    if (!existing.ok) return existing
    const [keep, ...extra] = existing.value
    const body = {
      Name: name,
      PayloadURL: target.url,
      IsEnabled: true,
      Secret: target.secret,
      ContentType: jsonContentType,
      SendAllEvents: false,
      Events: ids,
    }
    const saved = keep
      ? await this.client.api('PUT', `/admin/webhooks/${keep}`, call, { body })
      : await this.client.api('POST', '/admin/webhooks', call, { body })
    if (!saved.ok) return saved
    // Earlier copies of this URL would push everything twice.
    for (const id of extra) {
      const gone = await this.unregister(id, call)
      if (!gone.ok) return gone
    }
    const id = num(saved.value.result, 'id') ?? (keep ? Number(keep) : null)
    if (id === null) return refused('Kaseya BMS answered the webhook without its id')
    const names = events.map((e) => str(e, 'name')).join(', ')
    return ok({
      mode: 'registered',
      registrationId: String(id),
      detail: `Kaseya BMS webhook ${id} (${names})`,
    })
  }

  async unregister(registrationId: string, call: PsaCall): Promise<PsaResult<null>> {
    if (!/^\d+$/.test(registrationId))
      return refused(`Kaseya BMS webhook ids are numbers, not '${registrationId}'`)
    const res = await this.client.api('DELETE', `/admin/webhooks/${registrationId}`, call)
    if (!res.ok) return res.failure.kind === 'not-found' ? ok(null) : res
    return ok(null)
  }

  async verify(request: PushRequest, _call: PsaCall): Promise<PushVerdict> {
    const given = secretHeaders.map((h) => header(request.headers, h)).find((v) => v !== null)
    if (given === undefined || given === null)
      return { ok: false, reason: `the push carries no ${secretHeaders[0]} header` }
    if (!sameSecret(given, request.secret)) return { ok: false, reason: 'the push’s secret does not match' }
    let body: unknown
    try {
      body = JSON.parse(request.rawBody.toString('utf8'))
    } catch {
      return { ok: false, reason: 'the push’s body is not JSON' }
    }
    const events = Array.isArray(body) ? body : [body]
    const ids = new Set<string>()
    for (const e of events) {
      const at = timeOf(e)
      if (at !== null && request.now.getTime() - at > staleMs)
        return { ok: false, reason: 'the push is more than five minutes old' }
      const id = ticketIdOf(e)
      if (id) ids.add(id)
      // One over the cap is enough for the service to refuse the push.
      if (ids.size > maxPushTicketIds) break
    }
    if (ids.size === 0) return { ok: false, reason: 'the push names no ticket' }
    return { ok: true, ticketIds: [...ids] }
  }

  /** The ids of the webhooks whose PayloadUrl is exactly `url` (the search filter may match parts). */
  private async sameUrl(url: string, call: PsaCall): Promise<PsaResult<string[]>> {
    const res = await this.client.api('POST', '/admin/webhooks/search', call, {
      body: { Filter: { PayloadUrl: url }, PageSize: 100, PageNumber: this.client.pagesStartAt ?? 1 },
    })
    // A search BMS refuses is no webhook found: the POST that follows says what is wrong.
    if (!res.ok) return res.failure.kind === 'rejected' ? ok([]) : res
    return ok(
      rows(res.value.result)
        .filter((w) => str(w, 'payloadUrl') === url)
        .map((w) => str(w, 'id'))
        .filter((id): id is string => id !== null),
    )
  }
}

function header(headers: PushRequest['headers'], name: string): string | null {
  const v = headers[name]
  const first = Array.isArray(v) ? v[0] : v
  return typeof first === 'string' && first !== '' ? first : null
}

/** Timing-safe, whatever the lengths: digests of both are compared. */
function sameSecret(given: string, secret: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest()
  return timingSafeEqual(digest(given), digest(secret)) && given.length === secret.length
}

/** The push's own time, where its body has one. */
function timeOf(event: unknown): number | null {
  for (const f of ['Timestamp', 'EventTime', 'EventDate', 'CreatedOn']) {
    const v = str(event, f)
    const at = v === null ? Number.NaN : Date.parse(/(Z|[+-]\d\d:?\d\d)$/i.test(v) ? v : `${v}Z`)
    if (!Number.isNaN(at)) return at
  }
  return null
}

function ticketIdOf(event: unknown): string | null {
  for (const nested of ['Data', 'Payload', 'Entity', 'Ticket']) {
    const id = str(field(event, nested), 'Id') ?? str(field(event, nested), 'TicketId')
    if (id && /^\d+$/.test(id)) return id
  }
  const id = str(event, 'TicketId') ?? str(event, 'EntityId')
  return id && /^\d+$/.test(id) ? id : null
}
