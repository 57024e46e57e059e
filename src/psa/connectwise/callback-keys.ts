// ConnectWise's callback signing keys (docs/psa/connectwise.md, "Two-way sync"). A callback names the
// key it is signed with in `Metadata.key_url`; that URL comes from the push, before anything about the
// push is verified, so it is trusted for nothing: it must be the callback-key path of the connection's
// own ConnectWise, `{root}/{codebase}apis/3.0/system/callbackkeys/{id}` on the root's origin (or a cloud
// site's web host), with no user name, query or fragment; anything else is refused without a call. A
// key is kept per connection (one CallbackKeys per connection) and key id for five minutes, and the
// fetches of one connection are limited (a push whose signature does not match fetches the key again,
// at most that often), so no push can make the service call ConnectWise at will.
import { LRUCache } from 'lru-cache'
import { RateLimiterMemory } from 'rate-limiter-flexible'
import type { PsaCall } from '../adapter.js'
import { type ConnectWiseClient, ownOrigins } from './client.js'

/** How long a key is kept, and how many keys one connection keeps. */
export const keyKeptMs = 5 * 60 * 1000
const keysKept = 16
/** Key fetches per connection: at most this many a minute. */
export const keyFetchesPerMinute = 6

export type KeyAnswer = { ok: true; key: string } | { ok: false; reason: string }

/**
 * The key id a key_url names, when it is the documented callback-key path on the connection's own
 * ConnectWise host; else why not. Pure.
 */
export function callbackKeyId(
  keyUrl: unknown,
  root: string,
): { ok: true; id: string } | { ok: false; reason: string } {
  if (typeof keyUrl !== 'string' || keyUrl.length > 2048 || !URL.canParse(keyUrl))
    return { ok: false, reason: 'the callback names no key_url' }
  if (!URL.canParse(root)) return { ok: false, reason: 'the connection has no ConnectWise host' }
  const url = new URL(keyUrl)
  if (!ownOrigins(root).includes(url.origin))
    return { ok: false, reason: `key_url is not on the connection's ConnectWise host (${root})` }
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '')
    return { ok: false, reason: 'key_url carries a user name, a query or a fragment' }
  const base = new URL(root).pathname.replace(/\/+$/, '')
  const path = url.pathname.startsWith(`${base}/`) ? url.pathname.slice(base.length) : null
  const id =
    path === null
      ? null
      : /^\/[A-Za-z0-9_.-]+\/apis\/3\.0\/system\/callbackkeys\/([A-Za-z0-9_-]{1,128})$/.exec(path)?.[1]
  if (!id)
    return { ok: false, reason: 'key_url is not the callback-key path (…/apis/3.0/system/callbackkeys/{id})' }
  return { ok: true, id }
}

/** One connection's signing keys: kept, and fetched from its own ConnectWise at a limited rate. */
export class CallbackKeys {
  private readonly keys = new LRUCache<string, string>({ max: keysKept, ttl: keyKeptMs })
  private readonly fetches = new RateLimiterMemory({ points: keyFetchesPerMinute, duration: 60 })

  constructor(private readonly client: ConnectWiseClient) {}

  /** The key `keyUrl` (already checked by callbackKeyId) serves, kept unless `fresh`. */
  async key(keyUrl: string, id: string, call: PsaCall, fresh: boolean): Promise<KeyAnswer> {
    const kept = fresh ? undefined : this.keys.get(id)
    if (kept !== undefined) return { ok: true, key: kept }
    const allowed = await this.fetches.consume('key').then(
      () => true,
      () => false,
    )
    if (!allowed)
      return { ok: false, reason: `signing keys are fetched at most ${keyFetchesPerMinute} times a minute` }
    const res = this.client.getOwn(keyUrl, call)
    if (res === null) return { ok: false, reason: "key_url is not on the connection's ConnectWise host" }
    const answer = await res
    if (!answer.ok)
      return { ok: false, reason: `the signing key could not be read: ${answer.failure.message}` }
    const key = (answer.value.body as { signing_key?: unknown } | null)?.signing_key
    if (typeof key !== 'string' || key === '') return { ok: false, reason: 'key_url answered no signing_key' }
    this.keys.set(id, key)
    return { ok: true, key }
  }
}
