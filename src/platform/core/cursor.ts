// Opaque keyset cursors of the lists the APIs answer: the key of the last item of a page, encoded
// so that callers hand it back unread. Reading one answers a refusal for a cursor this API did not
// hand out (the HTTP edge, src/platform/http/pagination.ts, turns it into a 400).
import { ok, type Refused, type Result, refuse } from './result.js'

const notOurs = (): Refused =>
  refuse('VALIDATION_FAILED', 'cursor is not a cursor this API returned; start again without it.')

/** Newest-first lists: the id of the last item of a page. */
export function encodeCursor(lastId: string): string {
  return Buffer.from(JSON.stringify({ before: lastId }), 'utf8').toString('base64url')
}

/** The id a cursor names (undefined: the first page). */
export function readCursor(cursor: string | undefined): Result<string | undefined> {
  if (cursor === undefined || cursor === '') return ok(undefined)
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { before?: unknown }
    if (typeof parsed.before === 'string' && parsed.before.length <= 64) return ok(parsed.before)
  } catch {
    // fall through
  }
  return notOurs()
}

/** Fetches limit + 1 to learn whether another page exists. */
export function page<T>(
  rows: T[],
  limit: number,
  idOf: (row: T) => string,
): { data: T[]; nextCursor: string | null } {
  const data = rows.slice(0, limit)
  const last = data.at(-1)
  return { data, nextCursor: rows.length > limit && last ? encodeCursor(idOf(last)) : null }
}

/**
 * Keyset cursors for lists in ascending key order (accounts by id, tenants by creation): the key of the
 * last item of a page, one or more columns. Every list is paged.
 */
export function encodeKeyCursor(key: readonly string[]): string {
  return Buffer.from(JSON.stringify({ after: key }), 'utf8').toString('base64url')
}

/** A key of one or two columns. */
export type Key<N extends 1 | 2> = N extends 1 ? [string] : [string, string]

/** The key a cursor of `parts` columns names (undefined: the first page). */
export function readKeyCursor<N extends 1 | 2>(
  cursor: string | undefined,
  parts: N,
): Result<Key<N> | undefined> {
  if (cursor === undefined || cursor === '') return ok(undefined)
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { after?: unknown }
    const key = parsed.after
    if (
      Array.isArray(key) &&
      key.length === parts &&
      key.every((k) => typeof k === 'string' && k.length <= 512)
    ) {
      return ok(key as Key<N>) // its length and its items' type were just checked
    }
  } catch {
    // fall through
  }
  return notOurs()
}

/** Fetches limit + 1 to learn whether another page exists; the cursor names the last item's key. */
export function pageByKey<T>(
  rows: T[],
  limit: number,
  keyOf: (row: T) => readonly string[],
): { data: T[]; nextCursor: string | null } {
  const data = rows.slice(0, limit)
  const last = data.at(-1)
  return { data, nextCursor: rows.length > limit && last ? encodeKeyCursor(keyOf(last)) : null }
}
