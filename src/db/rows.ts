// Conversions between stored columns and domain values (0/1 booleans, JSON text).

export const toInt = (b: boolean): number => (b ? 1 : 0)
export const toBool = (n: number | boolean): boolean => n === 1 || n === true

export function parseJson<T>(text: string): T {
  return JSON.parse(text) as T
}

/**
 * One page of a list in ascending key order (issue 10 §4): rows after `after` (the last key of the
 * previous page), at most `limit`. Repositories order by the same columns the key names.
 */
export interface KeyPage<K> {
  after?: K
  limit: number
}

/** The key of a list ordered by creation: (created_at, id). */
export type CreatedKey = readonly [createdAt: string, id: string]
