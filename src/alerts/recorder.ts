// Records an alert's outcome in one transaction: what goes with it (a ticket's change, or settling the
// PSA effect it reports), the audit event, the move of a pending integration to connected, and, in the webhook strategy, the
// status_update in the outbox. The database keeps each messageId to one event and one status_update
// (unique keys), so an attempt that finds its message already recorded by another rolls all of it back
// and says so: the caller then has nothing left to do.
import type { Clock } from '../clock.js'
import type { Store } from '../db/store.js'
import type { WriteBatcher } from '../db/write-batch.js'
import type { Integration } from '../domain/integration.js'
import { transition } from '../domain/integration-state.js'
import type { Outcome } from '../domain/outcome.js'
import type { IntegrationLifecycle } from '../integrations/lifecycle.js'
import type { WebhookOutbox } from '../webhooks/outbox.js'
import type { AlertJob, Execution } from './execution.js'

/** Thrown inside the transaction to roll it back: this messageId's event is there already. */
class AlreadyRecorded extends Error {}

export class OutcomeRecorder {
  constructor(
    private readonly deps: {
      /** The outcome's transaction is a batched write: it shares its commit with others (issue 11). */
      writes: Pick<WriteBatcher, 'run'>
      clock: Clock
      lifecycle: IntegrationLifecycle
      outbox: Pick<WebhookOutbox, 'statusUpdate'>
    },
  ) {}

  async record(
    job: AlertJob,
    integration: Integration | null,
    outcome: Outcome,
    /** What belongs to this outcome (the ticket's change, settling a PSA effect), in the same transaction. */
    change?: (tx: Store) => Promise<void>,
  ): Promise<Extract<Execution, { kind: 'recorded' | 'adopted' }>> {
    return this.deps.writes.run((tx) => this.recordIn(tx, job, integration, outcome, change))
  }

  /**
   * The same inside the caller's transaction, under a savepoint of its own: if it throws, or finds
   * the message recorded already (`adopted`), none of its writes stay, and the caller's do.
   */
  async recordIn(
    tx: Store,
    job: AlertJob,
    integration: Integration | null,
    outcome: Outcome,
    change?: (tx: Store) => Promise<void>,
  ): Promise<Extract<Execution, { kind: 'recorded' | 'adopted' }>> {
    try {
      const notified = await tx.savepoint('outcome', () => this.write(tx, job, integration, outcome, change))
      return { kind: 'recorded', outcome, notified }
    } catch (err) {
      if (err instanceof AlreadyRecorded) return { kind: 'adopted' }
      throw err
    }
  }

  /** The outcome's rows; answers whether a status_update was queued. */
  private async write(
    tx: Store,
    job: AlertJob,
    integration: Integration | null,
    outcome: Outcome,
    change?: (tx: Store) => Promise<void>,
  ): Promise<boolean> {
    const { clock, lifecycle, outbox } = this.deps
    const now = clock().toISOString()
    const correlationId = outcome.correlationId ?? job.facts.correlationId ?? null
    await change?.(tx)
    if (outcome.event && integration) {
      const inserted = await tx.events.insert({
        messageId: job.messageId,
        partnerId: integration.partnerId,
        vendorId: integration.vendorId,
        integrationId: integration.id,
        correlationId,
        event: outcome.event.name,
        status: outcome.event.status,
        httpStatus: outcome.httpStatus,
        incidentStatus: job.facts.incidentStatus,
        strategy: job.strategy,
        request: job.request,
        detail: outcome.detail,
        error: outcome.error,
        createdAt: now,
      })
      if (!inserted) throw new AlreadyRecorded()
      if (outcome.httpStatus < 300) {
        const move = transition(integration.settings.state, { kind: 'request-succeeded' })
        if (move.ok && move.changed)
          await lifecycle.moveState(tx, integration.id, integration.settings.state, move.next, now)
      }
    }
    if (job.strategy !== 'webhook') return false
    const id = await outbox.statusUpdate(tx, {
      vendorId: job.vendorId,
      integration: integration ?? { id: job.integrationId, partnerId: job.partnerId },
      messageId: job.messageId,
      outcome,
      correlationId,
    })
    return id !== null
  }
}
