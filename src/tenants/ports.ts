// What a change of tenant configuration tells the modules above tenants/ (docs/architecture.md#the-modules).
// Tenants cannot import them; each port is met by a service of the module that acts on the change, handed in
// by the composition root (src/main/services.ts): the webhooks module's snapshot scheduler and delivery
// jobs, two-way sync's service. Each call runs inside the caller's transaction; `handOver` after it commits.
import type { Store } from '../platform/db/store.js'

/** A state_snapshot is due for these integrations (webhooks/snapshots.ts). */
export interface StateSnapshots {
  changed(tx: Store, integrationIds: readonly string[]): Promise<void>
}

/** A vendor's webhook endpoint is active again: its held deliveries go on (webhooks/delivery-job.ts). */
export interface HeldDeliveries {
  endpointEnabled(tx: Store, vendorId: string): Promise<number>
  handOver(): void
}

/** A partner's PSA connection changed: two-way sync registers and polls again (psa-sync/service.ts). */
export interface PsaConnectionChanges {
  connectionChanged(tx: Store, partnerId: string): Promise<void>
  handOver(): void
}
