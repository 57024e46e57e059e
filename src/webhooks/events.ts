// The bodies of the webhook events (docs/webhooks.md#event-types), as vendors code against them:
// `module`, `eventType` and a `payload`. status_update carries `messageId` and its recorded spelling
// `messageID` (docs/contract.md#webhook-events). Beside the contract's fields every event carries
// `sequence` (to put events back in order), `occurredAt` (the time it describes) and `test`; a
// status_update also carries `error`, the stable code of a failure. Pure: callers pass every value.
import type { Outcome } from '../platform/core/outcome.js'

/** What every event adds to the contract's fields. */
export interface EventMeta {
  /** Grows with every event (within an integration, as everywhere); numbers may be skipped. */
  sequence: number
  /** The time the event describes: the alert's outcome, the PSA's change, the state read. */
  occurredAt: string
  /** A test event or the outcome of a test alert (docs/vendor-api.md). */
  test: boolean
}

export interface StatusUpdate {
  module: 'alerts'
  eventType: 'status_update'
  payload: {
    event: string
    messageId: string
    messageID: string
    correlationId: string | null
    vendorOrganizationId: string
    vendorUserOrganizationId: string
    integrationId: string
    payload: { status: string; message: string }
    /** The failure's stable code (e.g. TICKET_NOT_FOUND); null unless the status is failed. */
    error: string | null
  } & EventMeta
}

export interface StateSnapshot {
  module: 'integrations'
  eventType: 'state_snapshot'
  payload: {
    isIntegrationActive: boolean
    isAlertsEnabled: boolean
    productGroups: Record<string, string[]>
    accounts: string[]
    vendorOrganizationId: string
    vendorUserId: string
    integrationId: string
  } & EventMeta
}

const successText: Partial<Record<Outcome['message'], string>> = {
  created: 'The ticket was created.',
  updated: 'The alert was added to the ticket.',
  closed: 'The ticket was closed.',
}

interface StatusUpdateTarget {
  messageId: string
  correlationId: string | null
  vendorId: string
  partnerId: string
  integrationId: string
  meta: EventMeta
}

export function statusUpdate(input: StatusUpdateTarget & { outcome: Outcome }): StatusUpdate {
  const { outcome } = input
  const status = outcome.event?.status ?? 'failed'
  return statusEvent({
    ...input,
    event: outcome.event?.name ?? 'Failed To Create Ticket',
    status,
    message: outcome.detail ?? successText[outcome.message] ?? outcome.message,
    error: status === 'failed' ? (outcome.error ?? 'INTERNAL') : null,
  })
}

/**
 * A status_update of any event: an alert's outcome, or a change made in the PSA (docs/psa/sync.md),
 * whose messageId is the event's own (no vendor message caused it).
 */
export function statusEvent(
  input: StatusUpdateTarget & { event: string; status: string; message: string; error: string | null },
): StatusUpdate {
  return {
    module: 'alerts',
    eventType: 'status_update',
    payload: {
      event: input.event,
      messageId: input.messageId,
      messageID: input.messageId,
      correlationId: input.correlationId,
      vendorOrganizationId: input.vendorId,
      vendorUserOrganizationId: input.partnerId,
      integrationId: input.integrationId,
      payload: { status: input.status, message: input.message },
      error: input.error,
      ...input.meta,
    },
  }
}

export function stateSnapshot(input: {
  isIntegrationActive: boolean
  isAlertsEnabled: boolean
  productGroups: Record<string, string[]>
  accounts: string[]
  vendorId: string
  partnerId: string
  integrationId: string
  meta: EventMeta
}): StateSnapshot {
  return {
    module: 'integrations',
    eventType: 'state_snapshot',
    payload: {
      isIntegrationActive: input.isIntegrationActive,
      isAlertsEnabled: input.isAlertsEnabled,
      productGroups: input.productGroups,
      accounts: [...input.accounts].sort(),
      vendorOrganizationId: input.vendorId,
      vendorUserId: input.partnerId,
      integrationId: input.integrationId,
      ...input.meta,
    },
  }
}
