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

export function statusUpdate(input: {
  outcome: Outcome
  messageId: string
  correlationId: string | null
  vendorId: string
  partnerId: string
  integrationId: string
}): StatusUpdate {
  const { outcome } = input
  return {
    module: 'alerts',
    eventType: 'status_update',
    payload: {
      event: outcome.event?.name ?? 'Failed To Create Ticket',
      messageId: input.messageId,
      messageID: input.messageId,
      correlationId: input.correlationId,
      vendorOrganizationId: input.vendorId,
      vendorUserOrganizationId: input.partnerId,
      integrationId: input.integrationId,
      payload: {
        status: outcome.event?.status ?? 'failed',
        message: outcome.detail ?? successText[outcome.message] ?? outcome.message,
      },
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
