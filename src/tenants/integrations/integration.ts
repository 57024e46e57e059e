// An integration (vendor × partner, docs/architecture.md#the-data-model): its lifecycle state, toggles and
// catalogue credentials.
import type {
  CatchAllSettings,
  ClosedTicketSettings,
  DedupSettings,
  IntegrationState,
} from '../../platform/core/types.js'
import type { RotatingDigest } from '../vendor.js'
import type { StormSettings } from './storm-settings.js'

export interface IntegrationSettings {
  state: IntegrationState
  alertsEnabled: boolean
  ticketCreation: boolean
  selfHealing: boolean
  deduplication: DedupSettings
  closedTickets: ClosedTicketSettings
  /** The catch-all account (docs/decision-table.md#catch-all); absent: off. */
  catchAll?: CatchAllSettings
  /** Storm control (docs/decision-table.md#storm); absent: off. */
  storm?: StormSettings
}

export interface Integration {
  id: string
  vendorId: string
  partnerId: string
  settings: IntegrationSettings
  /** The credentials for the vendor's catalogue endpoint, if configured: only the header's name. */
  vendorCredentials: { header: string } | null
  mappingCompletedAt: string | null
  connectedAt: string | null
  createdAt: string
  updatedAt: string
  /** The organization token's rotation: its generation and the token it replaced, until that expires. */
  orgToken: RotatingDigest & { version: number }
  /**
   * Whether the integration has ever had a maintenance window: until then its alerts read no windows
   * and no held alerts (docs/performance.md#what-an-alert-pays-for-2026-12-02).
   */
  maintenanceInUse: boolean
}

/** The credentials the service calls the vendor's catalogue endpoint with (one header). */
export interface VendorCredentials {
  header: string
  value: string
}
