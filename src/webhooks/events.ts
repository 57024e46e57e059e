// The bodies of the two webhook events (docs/contract.md#webhook-events), exactly as vendors code against
// them: `module`, `eventType` and a `payload`. status_update carries `messageId` and its recorded spelling
// `messageID`. Pure: callers pass every value.
import type { Outcome } from '../domain/outcome.js'

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
  }
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
  }
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
}

export function statusUpdate(input: StatusUpdateTarget & { outcome: Outcome }): StatusUpdate {
  const { outcome } = input
  return statusEvent({
    ...input,
    event: outcome.event?.name ?? 'Failed To Create Ticket',
    status: outcome.event?.status ?? 'failed',
    message: outcome.detail ?? successText[outcome.message] ?? outcome.message,
  })
}

/**
 * A status_update of any event: an alert's outcome, or a change made in the PSA (docs/psa/sync.md),
 * whose messageId is the event's own (no vendor message caused it).
 */
export function statusEvent(
  input: StatusUpdateTarget & { event: string; status: string; message: string },
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
    },
  }
}
