// What the executor writes beside a `maintenance` outcome (docs/decision-table.md#maintenance), in the
// outcome's transaction: the alert held until its window ends (the maintenance job releases it,
// jobs.ts), or what was held for a correlationId dropped because its RESOLVED came first.
import { v7 as uuidv7 } from 'uuid'
import type { Integration } from '../../../tenants/index.js'
import type { AlertJob } from '../../executor/execution.js'
import type { OutcomeChange } from '../../executor/recorder.js'
import type { MaintenanceAction } from './maintenance.js'

export function maintenanceChange(
  job: AlertJob,
  integration: Integration,
  action: MaintenanceAction,
  now: string,
): OutcomeChange {
  return async (tx) => {
    if (action.kind === 'drop') {
      await tx.maintenance.drop(integration.id, action.correlationId)
      return true
    }
    return tx.maintenance.hold({
      id: uuidv7(),
      integrationId: integration.id,
      windowId: action.windowId,
      windowName: action.windowName,
      correlationId: action.correlationId,
      messageId: job.messageId,
      releaseMessageId: uuidv7(),
      vendorId: job.vendorId,
      partnerId: job.partnerId,
      strategy: job.strategy,
      request: job.request,
      facts: job.facts,
      // An OPEN sent without one: its ticket gets the correlationId the vendor was answered with.
      newCorrelationId: action.correlationId,
      releaseAt: action.releaseAt,
      createdAt: now,
    })
  }
}
