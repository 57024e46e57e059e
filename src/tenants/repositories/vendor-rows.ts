// The vendors table's rows as the domain sees them, and the reads every alert and every webhook
// attempt make, prepared (docs/decisions/speed/hot-reads-prepared.md). vendors.ts is the repository
// that uses them.
import type { Kysely, Selectable } from 'kysely'
import { prepared } from '../../platform/db/prepared.js'
import { parseJson } from '../../platform/db/rows.js'
import type { Database } from '../../platform/db/schema.js'
import type { VendorsTable } from '../tables.js'
import type { Vendor, WebhookEndpointState } from '../vendor.js'

export function toVendor(r: Selectable<VendorsTable>): Vendor {
  return {
    id: r.id,
    name: r.name,
    clientId: r.client_id,
    clientSecretDigest: r.client_secret_digest,
    webhookUrl: r.webhook_url,
    hasWebhookSecret: r.webhook_secret_enc !== null,
    hasWebhookAuthHeader: r.webhook_auth_header_enc !== null,
    productGroups: r.product_groups === null ? null : parseJson(r.product_groups),
    productGroupsUrl: r.product_groups_url,
    productGroupsMapping: r.product_groups_mapping === null ? null : parseJson(r.product_groups_mapping),
    rateLimitPerMinute: r.rate_limit_per_minute,
    webhookState: r.webhook_state as WebhookEndpointState,
    webhookStateReason: r.webhook_state_reason,
    webhookFailingSince: r.webhook_failing_since,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    clientSecret: {
      version: r.client_secret_version,
      previousDigest: r.previous_client_secret_digest,
      previousExpiresAt: r.previous_client_secret_expires_at,
      rotatedAt: r.client_secret_rotated_at,
    },
    webhookSecretRotation: {
      rotatedAt: r.webhook_secret_rotated_at,
      previousExpiresAt: r.previous_webhook_secret_expires_at,
    },
    disabled: r.disabled_at === null ? null : { at: r.disabled_at, reason: r.disabled_reason },
    listeningUntil: r.listening_until,
  }
}

/** Read for every alert (the worker's decision, the status_update): prepared (platform/db/prepared.ts). */
export const vendorById = prepared(1, (db: Kysely<Database>, id: string) =>
  db.selectFrom('vendors').selectAll().where('id', '=', id),
)
/**
 * The vendor's columns a webhook is sent with: its URL and its sealed secrets. The delivery job reads
 * them with the delivery (webhooks/delivery-statements.ts), and opens them with
 * VendorRepository.openEndpoint, so an attempt reads the vendor's row once.
 */
export const sealedEndpointColumns = [
  'webhook_url',
  'webhook_secret_enc',
  'webhook_auth_header_enc',
  'previous_webhook_secret_enc',
  'previous_webhook_secret_expires_at',
] as const

export type SealedEndpoint = Pick<Selectable<VendorsTable>, (typeof sealedEndpointColumns)[number]>

/** Read for every signed event the vendor long-polls: prepared too. */
export const endpointOf = prepared(1, (db: Kysely<Database>, id: string) =>
  db.selectFrom('vendors').select(sealedEndpointColumns).where('id', '=', id),
)
