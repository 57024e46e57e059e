// The vendors' idempotency keys (docs/vendor-api.md#idempotency-keys).
// Each table joins the Database (src/platform/db/schema.ts) from here.

/** An idempotency key a vendor sent (migration 0017_idempotency_keys; docs/vendor-api.md#idempotency-keys). */
export interface IdempotencyKeysTable {
  id: string
  vendor_id: string
  /** The method and the route's path pattern. */
  scope: string
  idempotency_key: string
  fingerprint: string
  /** running | done */
  status: string
  locked_until: string | null
  response_status: number | null
  response_headers: string | null
  response_body_enc: string | null
  created_at: string
  expires_at: string
}

declare module '../db/schema.js' {
  interface Database {
    idempotency_keys: IdempotencyKeysTable
  }
}
