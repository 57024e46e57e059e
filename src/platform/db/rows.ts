// Conversions between stored columns and domain values (0/1 booleans, JSON text), and the writes
// several repositories share.
import type { Kysely } from 'kysely'
import type { Database } from './schema.js'

export const toInt = (b: boolean): number => (b ? 1 : 0)
export const toBool = (n: number | boolean): boolean => n === 1 || n === true

export function parseJson<T>(text: string): T {
  return JSON.parse(text) as T
}

/**
 * One page of a list in ascending key order (docs/decisions/bounded-growth/every-list-paged.md): rows after
 * `after` (the last key of the previous page), at most `limit`. Repositories order by the same columns the
 * key names.
 */
export interface KeyPage<K> {
  after?: K
  limit: number
}

/** The key of a list ordered by creation: (created_at, id). */
export type CreatedKey = readonly [createdAt: string, id: string]

/** When and why a tenant (vendor or partner) was disabled. */
export interface Disabled {
  at: string
  reason: string | null
}

/** Disables a vendor or partner (keeping the first time and reason if it already is) or enables it (null). */
export async function setTenantDisabled(
  db: Kysely<Database>,
  table: 'vendors' | 'partners',
  id: string,
  disabled: Disabled | null,
  now: string,
): Promise<void> {
  const q = db.updateTable(table).where('id', '=', id)
  await (disabled
    ? q
        .set({ disabled_at: disabled.at, disabled_reason: disabled.reason, updated_at: now })
        .where('disabled_at', 'is', null)
    : q
        .set({ disabled_at: null, disabled_reason: null, updated_at: now })
        .where('disabled_at', 'is not', null)
  ).execute()
}
