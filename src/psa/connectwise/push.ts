// ConnectWise callbacks as alertbridge's push (docs/psa/connectwise.md, "Two-way sync"): one callback of
// type ticket at owner level (every ticket of the site: alertbridge's tickets may be on any board) made
// with POST /system/callbacks, removed with DELETE /system/callbacks/{id}. ConnectWise signs each
// callback itself: `x-content-signature` is the base64 HMAC-SHA256 of the raw body, keyed with the
// SHA-256 of the signing key that the body's Metadata.key_url serves. What needs no call is checked
// first (the body's CompanyId, and that key_url is the callback-key path of the connection's own
// ConnectWise: callback-keys.ts); a key is kept per key id, fetched at a limited rate, and fetched
// again once when a signature does not match (ConnectWise may have rotated it). The callback carries
// no time of its own, so nothing is refused as stale: a replay only makes the service read the ticket
// back. The connection's secret plays no part (ConnectWise cannot carry one); the per-connection token
// in the URL and CompanyId (signed with the rest) tie a push to a connection.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import type { Static } from 'typebox'
import { fail, ok, type PsaCall, type PsaResult } from '../adapter.js'
import type { PsaPush, PushRegistration, PushRequest, PushTarget, PushVerdict } from '../psa-sync-port.js'
import { CallbackKeys, callbackKeyId } from './callback-keys.js'
import type { ConnectWiseClient } from './client.js'
import type { ConnectWiseSettings } from './settings.js'

type Settings = Static<typeof ConnectWiseSettings>

interface CwCallbackBody {
  CompanyId?: unknown
  Type?: unknown
  ID?: unknown
  Metadata?: { key_url?: unknown } | null
}

const description = 'alertbridge two-way sync'

export class ConnectWisePush implements PsaPush {
  private readonly keys: CallbackKeys

  constructor(
    private readonly client: ConnectWiseClient,
    private readonly s: Settings,
  ) {
    this.keys = new CallbackKeys(client)
  }

  async register(target: PushTarget, call: PsaCall): Promise<PsaResult<PushRegistration>> {
    // Registering again replaces the callbacks an earlier registration of this URL left.
    const existing = await this.client.all<{ id?: unknown; url?: unknown }>('/system/callbacks', call, {
      fields: 'id,url',
    })
    if (!existing.ok) return existing
    for (const cb of existing.value) {
      if (cb.url !== target.url || typeof cb.id !== 'number') continue
      const gone = await this.unregister(String(cb.id), call)
      if (!gone.ok) return gone
    }
    const made = await this.client.api('POST', '/system/callbacks', call, {
      body: {
        url: target.url,
        objectId: 1,
        type: 'ticket',
        level: 'owner',
        description,
        inactiveFlag: false,
        isSelfSuppressedFlag: false,
      },
    })
    if (!made.ok) return made
    const id = (made.value.body as { id?: unknown } | null)?.id
    if (typeof id !== 'number')
      return fail({
        kind: 'rejected',
        retryable: false,
        message: 'ConnectWise answered a callback without an id',
      })
    return ok({
      mode: 'registered',
      registrationId: String(id),
      detail: `ConnectWise callback ${id}: every ticket of the site (type ticket, owner level)`,
    })
  }

  async unregister(registrationId: string, call: PsaCall): Promise<PsaResult<null>> {
    if (!/^\d+$/.test(registrationId)) return ok(null)
    const res = await this.client.api('DELETE', `/system/callbacks/${registrationId}`, call)
    return res.ok || res.failure.kind === 'not-found' ? ok(null) : res
  }

  async verify(request: PushRequest, call: PsaCall): Promise<PushVerdict> {
    const header = request.headers['x-content-signature']
    const signature = Array.isArray(header) ? header[0] : header
    if (!signature) return refuse('no x-content-signature header')
    let body: CwCallbackBody
    try {
      body = JSON.parse(request.rawBody.toString('utf8')) as CwCallbackBody
    } catch {
      return refuse('the body is not JSON')
    }
    if (!body || typeof body !== 'object' || Array.isArray(body)) return refuse('the body is not a callback')
    // Everything that needs no call first: a callback for another company, or whose key_url is not
    // the callback-key path of our own host, is refused before ConnectWise is asked for anything.
    if (typeof body.CompanyId !== 'string' || body.CompanyId.toLowerCase() !== this.s.companyId.toLowerCase())
      return refuse(`the callback is for company '${String(body.CompanyId)}', not this connection's`)
    const keyUrl = body.Metadata?.key_url
    const keyId = callbackKeyId(keyUrl, this.client.root)
    if (!keyId.ok) return refuse(keyId.reason)
    const url = keyUrl as string
    let key = await this.keys.key(url, keyId.id, call, false)
    if (!key.ok) return refuse(key.reason)
    if (!signed(request.rawBody, signature, key.key)) {
      // ConnectWise may have changed the key behind the same id: fetched once more (at a limited rate).
      key = await this.keys.key(url, keyId.id, call, true)
      if (!key.ok) return refuse(key.reason)
      if (!signed(request.rawBody, signature, key.key)) return refuse('the signature does not match')
    }
    if (typeof body.Type !== 'string' || body.Type.toLowerCase() !== 'ticket')
      return { ok: true, ticketIds: [] }
    const id = body.ID
    if (typeof id !== 'number' && !(typeof id === 'string' && /^\d+$/.test(id)))
      return refuse('the callback names no ticket')
    return { ok: true, ticketIds: [String(id)] }
  }
}

function signed(rawBody: Buffer, signature: string, signingKey: string): boolean {
  const key = createHash('sha256').update(signingKey, 'utf8').digest()
  const expected = Buffer.from(createHmac('sha256', key).update(rawBody).digest('base64'))
  const given = Buffer.from(signature.trim())
  return expected.length === given.length && timingSafeEqual(expected, given)
}

const refuse = (reason: string): PushVerdict => ({ ok: false, reason })
