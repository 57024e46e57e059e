// The alert pipeline's tables: rules, tickets and PSA effects written before their PSA call.
// Each table joins the Database (src/platform/db/schema.ts) from here.
import type { Generated } from 'kysely'

export interface RulesTable {
  id: string
  integration_id: string
  precedence: number
  enabled: number
  product_group: string
  alert_types: string
  action: string
  suppress_statuses: string
  ticket_board: string | null
  ticket_priority: string | null
  ticket_type: string | null
  ticket_status: string | null
  ticket_closed_status: string | null
  /** JSON: RuleCondition[] (migration 0023_rule_templates). */
  conditions: Generated<string>
  title_template: string | null
  description_template: string | null
  created_at: string
  updated_at: string
}

export interface TicketsTable {
  id: string
  integration_id: string
  partner_id: string
  correlation_id: string
  status: string
  account_id: string
  product_group: string
  alert_type: string
  title: string
  rule_id: string
  psa_kind: string
  psa_ticket_id: string | null
  dedup_key: string
  dedup_open_key: string | null
  occurrence_count: number
  lease_until: string | null
  last_occurrence_at: string
  created_at: string
  updated_at: string
  closed_at: string | null
  /** alertbridge | psa (docs/psa/sync.md); null while open or before migration 0015. */
  closed_by: string | null
  /** The PSA's status name as alertbridge last read it. */
  psa_status: string | null
  psa_deleted_at: string | null
  /** The PSA ticket id this one followed away from when the PSA merged it. */
  merged_from: string | null
  /** When the poll (or a push) last read the ticket back from the PSA. */
  psa_checked_at: string | null
  /** The closed ticket a `new` closed-ticket policy replaced with this one. */
  replaces_ticket_id: string | null
  /** Two-way sync leaves the ticket alone until then: an alert's close or reopen is being retried. */
  sync_hold_until: string | null
  /** Set once a note line waited for a batched note on it (migration 0027_steps_in_use). */
  batched_lines: Generated<number>
  /** A catch-all ticket: the fallback PSA company it went to (migration 0022_catch_all). */
  catch_all_company_id: string | null
  /** 1: a partner's test ticket, of which the vendor hears nothing (migration 0024_partner_test_tickets). */
  partner_test: Generated<number>
}

export interface PsaEffectsTable {
  message_id: string
  integration_id: string
  ticket_id: string
  correlation_id: string
  psa_ticket_id: string
  row: string
  strategy: string
  request_digest: string
  orphaned_at: string | null
  created_at: string
}

declare module '../platform/db/schema.js' {
  interface Database {
    rules: RulesTable
    tickets: TicketsTable
    psa_effects: PsaEffectsTable
  }
}
