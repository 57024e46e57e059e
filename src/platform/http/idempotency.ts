// Idempotency keys (docs/vendor-api.md#idempotency-keys; why so: docs/decisions/vendor-api/idempotency-keys.md).
// A request carrying `Idempotency-Key` claims its key in the database before its handler runs (a
// preHandler), and leaves its answer there as the answer is sent (an onSend). A retry with the same key
// and the same request gets that answer again, marked `Idempotent-Replayed: true`, and the handler does
// not run; with another request it gets 422 IDEMPOTENCY_KEY_REUSED; while the first still runs, 409
// IDEMPOTENCY_KEY_IN_USE with Retry-After: 1. An answer that says the call did not run or should be
// sent again (400, 401, 403, 408, 413, 415, 429, 5xx, any Retry-After) is not kept: the key is freed.
// The app says which routes take keys and who their caller is (`ownerFor`); a request without the
// header costs one header read and no database work.
import { createHash } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify'
import Type from 'typebox'
import { v7 as uuidv7 } from 'uuid'
import type { Clock } from '../clock.js'
import { ApiError } from './errors.js'
import type { IdempotencyRepository, StoredAnswer, StoredKey } from './idempotency-keys.js'
import { FailureBody } from './schemas.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false: the route takes no Idempotency-Key even where its method and path would. */
    idempotency?: boolean
  }
}

/** How long a key answers the same way. */
export const keyLifetimeMs = 24 * 60 * 60 * 1000
export const idempotencyKeyHeader = 'idempotency-key'
export const replayedHeader = 'idempotent-replayed'
/** 1 to 255 visible ASCII characters (no space). */
const validKey = /^[\x21-\x7e]{1,255}$/
/** The headers of an answer that a replay repeats. */
const keptHeaders = ['content-type', 'location'] as const
/** Statuses of answers that are not kept (with every 5xx): the call did not run, or is to be sent again. */
const notKept = new Set([400, 401, 403, 408, 413, 415, 429])

/** Whether an answer is kept for its key. */
export const kept = (status: number, retryAfter: boolean): boolean =>
  status < 500 && !notKept.has(status) && !retryAfter

/** The vendor a keyed request is from, and what a retry must repeat beside the path and query. */
export interface KeyOwner {
  vendorId: string
  /** The body, less what may change between two sends of the same request (an alert's secrets). */
  repeated: unknown
}

/** Who sent a request, or null when it is not authenticated (the handler refuses it; nothing is kept). */
export type OwnerOf = (request: FastifyRequest) => Promise<KeyOwner | null> | KeyOwner | null

export interface IdempotencyOptions {
  keys: Pick<IdempotencyRepository, 'claim' | 'find' | 'complete' | 'release' | 'removeStale'>
  clock: Clock
  /** How long a running request's claim holds: past it the key is taken over (its process died). */
  leaseMs: number
  /** How to find the caller of a route that takes keys; undefined: the route takes none. */
  ownerFor(method: string, url: string): OwnerOf | undefined
}

/** JSON with every object's keys sorted: the same request, however its fields were ordered. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const fields = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${fields.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

/** What a retry must repeat, as a digest: the path's parameters, the query and the owner's part. */
export function fingerprintOf(request: FastifyRequest, repeated: unknown): string {
  const what = canonical({ params: request.params, query: request.query, repeated })
  return createHash('sha256').update(what).digest('hex')
}

const invalidKey = () =>
  new ApiError(
    'VALIDATION_FAILED',
    'The Idempotency-Key header must be 1 to 255 visible ASCII characters without spaces (a UUID, say), sent once; nothing was done.',
  )
const reused = () =>
  new ApiError(
    'IDEMPOTENCY_KEY_REUSED',
    'This Idempotency-Key was used in the last 24 hours with another request (body, path or query); send a new key for a new request. Nothing was done.',
  )
const inUse = () =>
  new ApiError(
    'IDEMPOTENCY_KEY_IN_USE',
    'The first request with this Idempotency-Key is still running; send it again in a second to get its answer.',
    { headers: { 'retry-after': '1' } },
  )

const keyDescription =
  'A key of your choosing (1 to 255 visible ASCII characters, a UUID say) that makes retries of this call safe: for 24 hours the same key with the same request is answered with the first answer again (`Idempotent-Replayed: true`) without doing anything twice; with another request 422 IDEMPOTENCY_KEY_REUSED; while the first still runs 409 IDEMPOTENCY_KEY_IN_USE with Retry-After. docs/vendor-api.md#idempotency-keys'

/** The header and the two refusals in the route's OpenAPI description, in the route's failure shape. */
function document(route: RouteOptions): void {
  const schema = route.schema
  if (!schema) return
  if (!schema.headers) {
    schema.headers = Type.Object({
      [idempotencyKeyHeader]: Type.Optional(Type.String({ description: keyDescription })),
    })
  }
  if (schema.response && typeof schema.response === 'object') {
    const responses = schema.response as Record<string, unknown>
    const failure = responses['400'] ?? FailureBody
    schema.response = { 409: failure, 422: failure, ...responses }
  }
}

export function installIdempotency(app: FastifyInstance, o: IdempotencyOptions): void {
  /** The claim each keyed request holds until its answer is kept or its key freed. */
  const claims = new WeakMap<FastifyRequest, string>()

  const replay = (reply: FastifyReply, answer: StoredAnswer): FastifyReply => {
    reply.code(answer.status).headers(answer.headers).header(replayedHeader, 'true')
    return reply.send(answer.body === '' ? undefined : answer.body)
  }

  /** Claims the key, or answers from it: the kept answer, 409 or 422. */
  const begin = async (
    request: FastifyRequest,
    reply: FastifyReply,
    header: string,
    owner: OwnerOf,
    scope: string,
  ): Promise<FastifyReply | undefined> => {
    if (!validKey.test(header)) throw invalidKey()
    const who = await owner(request)
    if (!who) return undefined
    const at = { vendorId: who.vendorId, scope, key: header }
    const fingerprint = fingerprintOf(request, who.repeated)
    // A row found stale is removed and the claim tried again; another request doing the same at once
    // makes a third try find its claim.
    for (let attempt = 0; attempt < 3; attempt++) {
      const now = o.clock()
      const id = uuidv7()
      const claimed = await o.keys.claim({
        ...at,
        id,
        fingerprint,
        lockedUntil: new Date(now.getTime() + o.leaseMs).toISOString(),
        createdAt: now.toISOString(),
        expiresAt: new Date(now.getTime() + keyLifetimeMs).toISOString(),
      })
      if (claimed) {
        claims.set(request, id)
        return undefined
      }
      const seen: StoredKey | null = await o.keys.find(at)
      if (!seen) continue // freed meanwhile
      const nowIso = now.toISOString()
      if (seen.expiresAt <= nowIso) {
        await o.keys.removeStale(seen, nowIso)
        continue
      }
      if (seen.fingerprint !== fingerprint) throw reused()
      if (seen.answer) {
        request.log.debug({ idempotencyKey: header }, 'idempotency: answered again from the key')
        return replay(reply, seen.answer)
      }
      if (seen.lockedUntil === null || seen.lockedUntil > nowIso) throw inUse()
      // Its process died mid-request: the key is free again.
      request.log.warn({ idempotencyKey: header, scope }, 'idempotency: taking over a lapsed claim')
      await o.keys.removeStale(seen, nowIso)
    }
    throw inUse()
  }

  /** Keeps the answer for the key, or frees the key. An error here leaves the answer as it is. */
  const settle = async (request: FastifyRequest, reply: FastifyReply, id: string, payload: unknown) => {
    const body =
      typeof payload === 'string'
        ? payload
        : Buffer.isBuffer(payload)
          ? payload.toString('utf8')
          : payload === null || payload === undefined
            ? ''
            : null // a stream: not kept
    try {
      if (body !== null && kept(reply.statusCode, reply.hasHeader('retry-after'))) {
        const headers: Record<string, string> = {}
        for (const name of keptHeaders) {
          const value = reply.getHeader(name)
          if (value !== undefined) headers[name] = String(value)
        }
        await o.keys.complete(id, { status: reply.statusCode, headers, body })
      } else {
        await o.keys.release(id)
      }
    } catch (err) {
      request.log.error(
        { err },
        'idempotency: could not keep the answer; the key stays claimed until its lease ends',
      )
    }
  }

  const onSend = (
    request: FastifyRequest,
    reply: FastifyReply,
    payload: unknown,
    done: (err: Error | null, payload?: unknown) => void,
  ) => {
    const id = claims.get(request)
    if (id === undefined) {
      done(null, payload)
      return
    }
    claims.delete(request)
    return settle(request, reply, id, payload).then(() => payload)
  }

  // An answer that never reached onSend (an earlier onSend hook failed) frees its key.
  const onResponse = (request: FastifyRequest, _reply: FastifyReply, done: () => void) => {
    const id = claims.get(request)
    if (id !== undefined) {
      claims.delete(request)
      o.keys.release(id).catch((err) => request.log.error({ err }, 'idempotency: could not free a key'))
    }
    done()
  }

  app.addHook('onRoute', (route) => {
    if (route.config?.idempotency === false) return
    const owners = new Map<string, OwnerOf>()
    for (const method of [route.method].flat()) {
      const owner = o.ownerFor(method, route.url)
      if (owner) owners.set(method, owner)
    }
    if (owners.size === 0) return
    const preHandler = (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
      const header = request.headers[idempotencyKeyHeader]
      const owner = header === undefined ? undefined : owners.get(request.method)
      if (header === undefined || owner === undefined) {
        done()
        return
      }
      // A promise instead of done(): Fastify goes on when it settles (not at all once the reply is sent).
      return begin(request, reply, String(header), owner, `${request.method} ${route.url}`)
    }
    route.preHandler = [...[route.preHandler ?? []].flat(), preHandler]
    route.onSend = [...[route.onSend ?? []].flat(), onSend]
    route.onResponse = [...[route.onResponse ?? []].flat(), onResponse]
    document(route)
  })
}
