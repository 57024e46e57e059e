// The storm control tables (migration 0021; docs/decision-table.md#storm).

/** An incident folded into a storm ticket. */
export interface StormAlertsTable {
  id: string
  integration_id: string
  storm_ticket_id: string
  message_id: string
  correlation_id: string | null
  dedup_key: string
  title: string
  /** open | resolved */
  status: string
  received_at: string
  resolved_at: string | null
}

/** A line of a storm ticket's next batched note. */
export interface StormLinesTable {
  id: string
  storm_ticket_id: string
  message_id: string
  line: string
  created_at: string
  noted_at: string | null
}

declare module '../../../platform/db/schema.js' {
  interface Database {
    storm_alerts: StormAlertsTable
    storm_lines: StormLinesTable
  }
}
