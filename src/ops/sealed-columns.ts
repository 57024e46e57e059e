// Every column that holds a value sealed with SECRET_KEY, in one list. The key check at start, the
// re-sealing after a rotation and the /metrics gauge of sealed values all read this list, so a sealed
// column added later is one line here. `field` names where the sealed value sits when the column holds
// JSON around it (the header's name in the clear beside a sealed value, for instance).
import type { Database } from '../platform/db/schema.js'

type Columns<T extends keyof Database> = keyof Database[T] & string

export type SealedColumn = {
  [T in keyof Database]: { table: T; id: Columns<T>; column: Columns<T>; field?: string }
}[keyof Database]

export const sealedColumns: readonly SealedColumn[] = [
  { table: 'vendors', id: 'id', column: 'webhook_secret_enc' },
  { table: 'vendors', id: 'id', column: 'webhook_auth_header_enc' },
  { table: 'vendors', id: 'id', column: 'previous_webhook_secret_enc' },
  { table: 'partners', id: 'id', column: 'psa_settings_enc' },
  { table: 'psa_sync', id: 'partner_id', column: 'secret_enc' },
  // A PSA's rotating tokens and the PKCE verifiers of consent flows under way. psa_tokens is keyed by
  // partner and kind; partner_id names its row while NinjaOne is the only kind that keeps one.
  { table: 'psa_tokens', id: 'partner_id', column: 'refresh_token_enc' },
  { table: 'psa_tokens', id: 'partner_id', column: 'access_token_enc' },
  { table: 'psa_oauth_states', id: 'state_digest', column: 'verifier_enc' },
  { table: 'integrations', id: 'id', column: 'vendor_credentials_enc', field: 'sealedValue' },
  // An answer kept for an idempotency key (a rotation's holds the new secret).
  { table: 'idempotency_keys', id: 'id', column: 'response_body_enc' },
]

/** Where to name a sealed column in a log line or a message. */
export const columnName = (c: SealedColumn): string => `${c.table}.${c.column}${c.field ? `.${c.field}` : ''}`

/** The sealed value inside a stored column value; null when the JSON has none. */
export function sealedIn(c: SealedColumn, stored: string): string | null {
  if (!c.field) return stored
  const parsed: unknown = JSON.parse(stored)
  if (parsed === null || typeof parsed !== 'object') return null
  const value = (parsed as Record<string, unknown>)[c.field]
  return typeof value === 'string' ? value : null
}

/** The stored column value with its sealed value replaced. */
export function withSealed(c: SealedColumn, stored: string, sealed: string): string {
  if (!c.field) return sealed
  return JSON.stringify({ ...(JSON.parse(stored) as Record<string, unknown>), [c.field]: sealed })
}

/**
 * A LIKE pattern matching stored values whose sealed value starts with `prefix`. JSON columns are
 * written by JSON.stringify, which puts no space between a key, its colon and its string value.
 */
export function likeSealed(c: SealedColumn, prefix: string): string {
  return c.field ? `%"${c.field}":"${prefix}%` : `${prefix}%`
}
