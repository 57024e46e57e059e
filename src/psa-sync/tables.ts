// Two-way sync's tables (docs/psa/sync.md).
// Each table joins the Database (src/platform/db/schema.ts) from here.
import type { Generated } from 'kysely'

/** One partner's PSA connection as two-way sync hears it (docs/psa/sync.md). */
export interface PsaSyncTable {
  partner_id: string
  token_digest: string
  secret_enc: string
  psa_kind: string
  mechanism: string
  registration_id: string | null
  detail: string | null
  registered_at: string | null
  last_push_at: string | null
  last_poll_at: string | null
  last_heard_at: string | null
  /** A poll round the budget held back: until when the poll waits, and the limiter's reason. */
  held_until: string | null
  held_reason: string | null
  pushes_refused: Generated<number>
  created_at: string
  updated_at: string
}

export interface PsaSyncPendingTable {
  partner_id: string
  psa_ticket_id: string
  created_at: string
}

declare module '../platform/db/schema.js' {
  interface Database {
    psa_sync: PsaSyncTable
    psa_sync_pending: PsaSyncPendingTable
  }
}
