// The maintenance windows' tables (migrations 0020_maintenance_windows, 0026_maintenance_upcoming), as
// Kysely sees them.

export interface MaintenanceWindowsTable {
  id: string
  integration_id: string
  name: string
  mode: string
  /** JSON: MaintenanceSchedule (src/alerts/steps/maintenance/maintenance.ts). */
  schedule: string
  /** JSON: MaintenanceScope. */
  scope: string
  ends_at: string | null
  /** JSON: the occurrences ahead (src/alerts/steps/maintenance/upcoming.ts); null until worked out. */
  upcoming: string | null
  created_at: string
  updated_at: string
}

/** An alert a window in hold mode keeps until its end. */
export interface MaintenanceHeldTable {
  id: string
  integration_id: string
  window_id: string
  window_name: string
  correlation_id: string
  /** The alert's own messageId (its "held" event's). */
  message_id: string
  /** The messageId its release is recorded under (its outcome's event and status_update). */
  release_message_id: string
  vendor_id: string
  partner_id: string
  strategy: string
  /** JSON: { request, facts }: the request as received (credentials removed) and the alert's facts. */
  request: string
  new_correlation_id: string
  release_at: string
  created_at: string
}

declare module '../../../platform/db/schema.js' {
  interface Database {
    maintenance_windows: MaintenanceWindowsTable
    maintenance_held: MaintenanceHeldTable
  }
}
