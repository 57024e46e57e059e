// Opaque keyset cursors at the HTTP edge: the codec is src/platform/core/cursor.ts; a route reading a cursor
// this API did not hand out answers 400 VALIDATION_FAILED.
import { type Key, readCursor, readKeyCursor } from '../core/cursor.js'
import { orRefuse } from './errors.js'

export { encodeCursor, encodeKeyCursor, type Key, page, pageByKey } from '../core/cursor.js'

export const decodeCursor = (cursor: string | undefined): string | undefined => orRefuse(readCursor(cursor))

/** The key a cursor of `parts` columns names; a cursor this API did not hand out is a 400. */
export const decodeKeyCursor = <N extends 1 | 2>(cursor: string | undefined, parts: N): Key<N> | undefined =>
  orRefuse(readKeyCursor(cursor, parts))
