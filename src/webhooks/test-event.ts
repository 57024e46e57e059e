// Test events (docs/vendor-api.md#self-service): a sample of any webhook event of the catalogue
// (webhooks/event-types.ts), marked `test: true`, put through the outbox like a real one so that it is
// signed, delivered, retried and listed the same.
// The sample names the integration the caller picked (a bound token's, `integrationId`, or the vendor's
// first), and placeholder ids when the vendor has none yet.
import { v7 as uuidv7 } from 'uuid'
import type { Store } from '../platform/db/store.js'
import type { Integration, Vendor } from '../tenants/index.js'
import { isActive } from '../tenants/index.js'
import type { WebhookEventType } from './delivery.js'
import { eventTypeList } from './event-types.js'
import { type EventMeta, stateSnapshot, statusEvent } from './events.js'

/** Every event a test may send: each status_update name of the catalogue, and state_snapshot. */
export const testEventNames: readonly string[] = eventTypeList.map((e) => e.event)

export const defaultTestEvent = 'Ticket Created'

/** A status_update's sample: the first status the catalogue gives it, its first error code if failed. */
function sampleOf(event: string): { status: string; error: string | null; message: string } {
  const entry = eventTypeList.find((e) => e.event === event)
  const status = entry?.statuses[0] ?? 'success'
  return {
    status,
    error: status === 'failed' ? (entry?.errors[0] ?? 'INTERNAL') : null,
    message: `Test event: sent when ${entry?.when ?? 'this happens'}.`,
  }
}

/** Ids of the sample when the vendor has no integration yet. */
const placeholderId = '00000000-0000-0000-0000-000000000000'

export interface TestEvent {
  eventType: WebhookEventType
  integrationId: string | null
  body: (meta: EventMeta) => unknown
}

/** The sample of `event` for `integration` (null: the vendor has none yet). */
export async function testEvent(
  store: Store,
  vendor: Vendor,
  integration: Integration | null,
  event: string,
): Promise<TestEvent> {
  const ids = {
    vendorId: vendor.id,
    partnerId: integration?.partnerId ?? placeholderId,
    integrationId: integration?.id ?? placeholderId,
  }
  if (event === 'state_snapshot') {
    const accounts = integration ? (await store.mappings.list(integration.id)).map((m) => m.accountId) : []
    return {
      eventType: 'state_snapshot',
      integrationId: integration?.id ?? null,
      body: (meta) =>
        stateSnapshot({
          ...ids,
          isIntegrationActive: integration ? isActive(integration.settings.state) : false,
          isAlertsEnabled: integration?.settings.alertsEnabled ?? false,
          productGroups: vendor.productGroups ?? {},
          accounts,
          meta,
        }),
    }
  }
  const sample = sampleOf(event)
  const messageId = uuidv7()
  return {
    eventType: 'status_update',
    integrationId: integration?.id ?? null,
    body: (meta) =>
      statusEvent({
        ...ids,
        event,
        ...sample,
        messageId,
        correlationId: `test-${messageId}`,
        meta,
      }),
  }
}
