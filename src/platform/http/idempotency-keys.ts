// Idempotency keys (docs/vendor-api.md#idempotency-keys): the claim a request makes on its key, the
// answer it leaves there, and what a retry finds. Every change is one statement conditioned on what
// the caller saw, so processes sharing the database never both hold one key: the unique constraint
// decides a claim, and a claim is only taken over (expired, or its process gone) by the one statement
// that still finds it as it was read.
import type { Kysely, Selectable } from 'kysely'
import type { Database } from '../db/schema.js'
import { defineRepository } from '../db/store.js'
import type { CryptoBox } from '../security/crypto-box.js'
import type { IdempotencyKeysTable } from './tables.js'

/** What a request with a key answered, as a retry gets it again. */
export interface StoredAnswer {
  status: number
  /** The headers a replay repeats (content-type, location). */
  headers: Record<string, string>
  body: string
}

/** Where a key is looked up: its vendor, method and route, and the key itself. */
export interface KeyScope {
  vendorId: string
  /** The method and the route's path pattern, e.g. `POST /api/oem-alerts-api/alert/sync`. */
  scope: string
  key: string
}

export interface StoredKey {
  id: string
  fingerprint: string
  /** null while the first request still runs. */
  answer: StoredAnswer | null
  /** While running: until when its claim holds. */
  lockedUntil: string | null
  expiresAt: string
}

export interface NewClaim extends KeyScope {
  id: string
  fingerprint: string
  lockedUntil: string
  createdAt: string
  expiresAt: string
}

export class IdempotencyRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly box: CryptoBox,
  ) {}

  /** True when this request now holds the key; false when a row for it exists already. */
  async claim(c: NewClaim): Promise<boolean> {
    const r = await this.db
      .insertInto('idempotency_keys')
      .values({
        id: c.id,
        vendor_id: c.vendorId,
        scope: c.scope,
        idempotency_key: c.key,
        fingerprint: c.fingerprint,
        status: 'running',
        locked_until: c.lockedUntil,
        response_status: null,
        response_headers: null,
        response_body_enc: null,
        created_at: c.createdAt,
        expires_at: c.expiresAt,
      })
      .onConflict((oc) => oc.columns(['vendor_id', 'scope', 'idempotency_key']).doNothing())
      .executeTakeFirst()
    return Number(r.numInsertedOrUpdatedRows ?? 0) === 1
  }

  async find(k: KeyScope): Promise<StoredKey | null> {
    const row = await this.db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('vendor_id', '=', k.vendorId)
      .where('scope', '=', k.scope)
      .where('idempotency_key', '=', k.key)
      .executeTakeFirst()
    return row ? this.toKey(row) : null
  }

  /** Stores the answer of the request holding the claim `id`; false when it no longer holds it. */
  async complete(id: string, answer: StoredAnswer): Promise<boolean> {
    const r = await this.db
      .updateTable('idempotency_keys')
      .set({
        status: 'done',
        locked_until: null,
        response_status: answer.status,
        response_headers: JSON.stringify(answer.headers),
        response_body_enc: this.box.seal(answer.body),
      })
      .where('id', '=', id)
      .where('status', '=', 'running')
      .executeTakeFirst()
    return Number(r.numUpdatedRows) === 1
  }

  /** Frees the key of a request that stores no answer, so that the client may send it again. */
  async release(id: string): Promise<void> {
    await this.db
      .deleteFrom('idempotency_keys')
      .where('id', '=', id)
      .where('status', '=', 'running')
      .execute()
  }

  /**
   * Removes a row a new claim may replace: expired at `now`, or still running with its claim lapsed
   * (its process died mid-request). False when it changed since it was read (someone else took it).
   */
  async removeStale(seen: StoredKey, now: string): Promise<boolean> {
    const expired = seen.expiresAt <= now
    let q = this.db.deleteFrom('idempotency_keys').where('id', '=', seen.id)
    q = expired
      ? q.where('expires_at', '<=', now)
      : q.where('status', '=', 'running').where('locked_until', '<=', now)
    const r = await q.executeTakeFirst()
    return Number(r.numDeletedRows) === 1
  }

  /** Deletes up to `limit` keys created before `before` (retention; a key lives 24 h). */
  async prune(before: string, limit: number): Promise<number> {
    const old = this.db
      .selectFrom('idempotency_keys')
      .select('id')
      .where('created_at', '<', before)
      .orderBy('created_at')
      .limit(limit)
    const r = await this.db.deleteFrom('idempotency_keys').where('id', 'in', old).executeTakeFirst()
    return Number(r.numDeletedRows)
  }

  private toKey(r: Selectable<IdempotencyKeysTable>): StoredKey {
    const done = r.status === 'done' && r.response_status !== null && r.response_body_enc !== null
    return {
      id: r.id,
      fingerprint: r.fingerprint,
      answer: done
        ? {
            status: r.response_status!,
            headers: JSON.parse(r.response_headers ?? '{}') as Record<string, string>,
            body: this.box.open(r.response_body_enc!),
          }
        : null,
      lockedUntil: r.locked_until,
      expiresAt: r.expires_at,
    }
  }
}

declare module '../db/store.js' {
  interface Repositories {
    /** The vendors' idempotency keys and the answers kept for them (docs/vendor-api.md#idempotency-keys). */
    idempotency: IdempotencyRepository
  }
}
defineRepository('idempotency', (kysely, box) => new IdempotencyRepository(kysely, box))
