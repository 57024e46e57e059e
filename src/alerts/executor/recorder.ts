// Records an alert's outcome in one transaction: what goes with it (a ticket's change, or settling the
// PSA effect it reports), the audit event, the move of a pending integration to connected, and, in the
// webhook strategy or for a vendor's test alert, the status_update in the outbox. The database keeps each
// messageId to one event and one status_update (unique keys), so an attempt that finds its message
// already recorded by another rolls all of it back and says so (`adopted`): the caller then has nothing
// left to do. The ticket a partner's test alert creates is marked as one here, with its outcome.
import type { Clock } from '../../platform/clock.js'
import type { Outcome } from '../../platform/core/outcome.js'
import type { Store } from '../../platform/db/store.js'
import type { WriteBatcher } from '../../platform/db/write-batch.js'
import type { Integration, IntegrationLifecycle } from '../../tenants/index.js'
import { transition } from '../../tenants/index.js'
import type { WebhookOutbox } from '../../webhooks/index.js'
import type { AlertJob, Execution } from './execution.js'

/** Recorded, or found recorded by another attempt of the message (nothing of this one's stays). */
export type Recorded = Extract<Execution, { kind: 'recorded' | 'adopted' }>

/**
 * What belongs to an outcome (the ticket's change, settling a PSA effect), written in its
 * transaction; false when another attempt took it first (an effect already settled): then nothing of
 * this outcome is kept and it counts as adopted.
 */
export type OutcomeChange = (tx: Store) => Promise<boolean>

export class OutcomeRecorder {
  constructor(
    private readonly deps: {
      /** The outcome's transaction is a batched write: it shares its commit with others. */
      writes: Pick<WriteBatcher, 'run'>
      clock: Clock
      lifecycle: IntegrationLifecycle
      outbox: Pick<WebhookOutbox, 'statusUpdate'>
    },
  ) {}

  record(
    job: AlertJob,
    integration: Integration | null,
    outcome: Outcome,
    change?: OutcomeChange,
  ): Promise<Recorded> {
    return this.deps.writes.run((tx) => this.recordIn(tx, job, integration, outcome, change))
  }

  /**
   * The same inside the caller's transaction, under a savepoint of its own: if it throws, or finds
   * the message recorded already (`adopted`), none of its writes stay, and the caller's do.
   */
  recordIn(
    tx: Store,
    job: AlertJob,
    integration: Integration | null,
    outcome: Outcome,
    change?: OutcomeChange,
  ): Promise<Recorded> {
    return tx.savepointUnless<Recorded>('outcome', async () => {
      const adopted = { keep: false, value: { kind: 'adopted' } as const }
      if (change && !(await change(tx))) return adopted
      const written = await this.write(tx, job, integration, outcome)
      if (written === 'taken') return adopted
      // Inside the savepoint: rolled back with the outcome, kept only with it.
      if (job.finishIn) await job.finishIn(tx)
      const finished = job.finishIn !== undefined
      return {
        keep: true,
        value: { kind: 'recorded', outcome, notified: written.notified, finished } as const,
      }
    })
  }

  /** The outcome's rows; `taken` when this messageId's event is there already. */
  private async write(
    tx: Store,
    job: AlertJob,
    integration: Integration | null,
    outcome: Outcome,
  ): Promise<{ notified: boolean } | 'taken'> {
    const { clock, lifecycle, outbox } = this.deps
    const now = clock().toISOString()
    const correlationId = outcome.correlationId ?? job.facts.correlationId ?? null
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
        test: job.facts.test === true,
        accountId: job.facts.accountId,
        createdAt: now,
      })
      if (!inserted) return 'taken'
      // The ticket a partner's test alert made remembers it, in the same write: two-way sync and the
      // vendor's ticket reads leave the vendor out of it (docs/psa/sync.md).
      if (job.facts.partnerTest === true && outcome.message === 'created' && correlationId !== null)
        await tx.tickets.markPartnerTest(integration.id, correlationId)
      // A partner's test alert proves nothing of the vendor's side: the state stays (and no snapshot).
      if (outcome.httpStatus < 300 && job.facts.partnerTest !== true) {
        const move = transition(integration.settings.state, { kind: 'request-succeeded' })
        if (move.ok && move.changed)
          await lifecycle.moveState(tx, integration.id, integration.settings.state, move.next, now)
      }
    }
    // A test alert answers like the synchronous strategy and reports like the webhook strategy too.
    // A partner's test alert (docs/partner-api.md#test-alerts) tells the vendor nothing.
    const test = job.facts.test === true
    if (job.facts.partnerTest === true) return { notified: false }
    if (job.strategy !== 'webhook' && !test) return { notified: false }
    const id = await outbox.statusUpdate(tx, {
      vendorId: job.vendorId,
      integration: integration ?? { id: job.integrationId, partnerId: job.partnerId },
      messageId: job.messageId,
      outcome,
      correlationId,
      test,
    })
    return { notified: id !== null }
  }
}
