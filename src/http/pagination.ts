// Opaque keyset cursors: the id of the last item of a page, newest first.
import { ApiError } from './errors.js'

export function encodeCursor(lastId: string): string {
  return Buffer.from(JSON.stringify({ before: lastId }), 'utf8').toString('base64url')
}

export function decodeCursor(cursor: string | undefined): string | undefined {
  if (cursor === undefined || cursor === '') return undefined
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { before?: unknown }
    if (typeof parsed.before === 'string' && parsed.before.length <= 64) return parsed.before
  } catch {
    // fall through
  }
  throw new ApiError('VALIDATION_FAILED', 'cursor is not a cursor this API returned; start again without it.')
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
