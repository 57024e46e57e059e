// One alert, carried through the decision table and the PSA (docs/decision-table.md). The walk:
//
//   earlier attempts → decide → reserve → call the PSA → record (→ outbox)
//
// - earlier attempts: a queued job run again finds its outcome recorded or its PSA effect written
//   down (psa-effects.ts); a synchronous call sent again adopts what its lost answer did;
// - decide: the pure decision table on what is stored (context.ts, alerts/domain/decide.ts);
// - reserve: one ticket per correlationId and per open dedup key (reservations.ts), committed
//   before the PSA is called; a request that finds another holding it waits for it, then decides again;
// - call the PSA: one operation within its budget (psa-calls.ts), tried again inside this execution
//   where the policy says so (the synchronous strategy's budget);
// - record: what the PSA did and the outcome, one write (psa-effects.ts, recorder.ts), which also puts
//   the webhook strategy's status_update in the outbox.
//
// The synchronous route (synchronous.ts) and the queued alert's job (queued.ts) run the same
// executor; what each strategy does with the answer is theirs. Every step answers a value.
import { v7 as uuidv7 } from 'uuid'
import type { JobKindEntry, JobProducer } from '../../platform/queue/port.js'
import type { PsaRegistry } from '../../psa/index.js'
import type { Integration, IntegrationLifecycle } from '../../tenants/index.js'
import type { WebhookOutbox } from '../../webhooks/index.js'
import { created, internalError, rejected, replaced } from '../domain/outcome.js'
import { catchAllDetail, caughtAll } from '../steps/catch-all/catch-all.js'
import { maintenanceChange } from '../steps/maintenance/hold.js'
import { stormControl } from '../steps/storm/wiring.js'
import { renderedForTicket } from '../tickets/ticket-template.js'
import { newTicket } from '../tickets/ticket-text.js'
import { decideAlert } from './context.js'
import { type AlertJob, deferral, type Execution, type ExecutionPolicy } from './execution.js'
import { type Attempt, busy, type ExecutorDeps, FollowUps, type Of, type Step } from './follow-ups.js'
import { callPsa, failedCall, PsaCalls } from './psa-calls.js'
import { PsaEffects, requestDigest } from './psa-effects.js'
import { OutcomeRecorder } from './recorder.js'
import { ReservationWaits } from './reservation-waits.js'
import { TicketReservations } from './reservations.js'

export type { ExecutorDeps } from './follow-ups.js'

/** How many times a request decides again after losing a race to a concurrent one. */
const maxRounds = 8

/** What the executor is built from (services.ts): its parts are made here. */
export interface ExecutorParts
  extends Pick<ExecutorDeps, 'store' | 'writes' | 'clock' | 'log' | 'productGroups' | 'config'> {
  psa: PsaRegistry
  psaTimeoutMs: number
  lifecycle: IntegrationLifecycle
  outbox: WebhookOutbox
  /** Where storm control queues its batched notes (docs/decision-table.md#storm); without it, none. */
  queue?: Pick<JobProducer, 'enqueue' | 'handOver'>
}

/** The executor with its PSA calls, ticket reservations and outcome recorder. */
export function alertExecutor(p: ExecutorParts): AlertExecutor {
  const { store, clock, psaTimeoutMs } = p
  const deps: ExecutorDeps = {
    ...p,
    psa: new PsaCalls({ store, psa: p.psa, timeoutMs: psaTimeoutMs }),
    reservations: new TicketReservations({ store, clock, waits: new ReservationWaits(), psaTimeoutMs }),
    recorder: new OutcomeRecorder({ writes: p.writes, clock, lifecycle: p.lifecycle, outbox: p.outbox }),
  }
  const storm = p.queue ? stormControl({ ...deps, queue: p.queue }) : null
  return new AlertExecutor({ ...deps, storms: storm?.folds, batchedNotes: storm?.batched }, storm?.kinds)
}

export class AlertExecutor {
  private readonly effects: PsaEffects
  private readonly followUps: FollowUps

  constructor(
    private readonly d: ExecutorDeps,
    /** The job kinds of the executor's parts (storm control's batched notes). */
    readonly kinds: JobKindEntry[] = [],
  ) {
    this.effects = new PsaEffects({ ...d, holdMs: () => d.reservations.holdMs })
    this.followUps = new FollowUps(d, this.effects)
  }

  async run(job: AlertJob, policy: ExecutionPolicy): Promise<Execution> {
    try {
      const earlier = policy.adoptRecorded ? await this.effects.earlier(job) : null
      if (earlier) return earlier
      const attempt: Attempt = { job, policy, digest: requestDigest(job.request) }
      for (let round = 0; round < maxRounds; round++) {
        const step = await this.round(attempt)
        if (step.kind !== 'again') return step
        await step.wait?.()
      }
      throw new Error(`alert ${job.messageId} did not finish after ${maxRounds} rounds`)
    } catch (err) {
      return this.failedUnexpectedly(job, err)
    }
  }

  /** One decision and what it asks for. */
  private async round(attempt: Attempt): Promise<Step> {
    const { job } = attempt
    const { store, clock, recorder, reservations } = this.d
    const [integration, vendor] = await Promise.all([
      store.integrations.findById(job.integrationId),
      store.vendors.findById(job.vendorId),
    ])
    if (!integration || !vendor) {
      // The partner or operator removed it after the alert was accepted: nothing to record against.
      const gone = 'The integration no longer exists.'
      const cid = job.facts.correlationId ?? null
      return recorder.record(
        job,
        null,
        rejected('unknown-integration', 'INTEGRATION_NOT_FOUND', gone, null, cid),
      )
    }
    // A synchronous call answered 500 after the PSA acted may come again: it adopts what was done.
    if (job.strategy === 'sync') {
      const orphan = await this.effects.orphanFor(job, attempt.digest, integration.id)
      if (orphan) return (await this.effects.adopt(job, integration, orphan)) ?? { kind: 'again' }
    }
    const decision = await decideAlert(
      store,
      this.d.productGroups,
      vendor,
      integration,
      job.facts,
      clock(),
      job.newCorrelationId ?? uuidv7(),
    )
    switch (decision.kind) {
      case 'done': {
        const { maintenance } = decision
        const now = clock().toISOString()
        const change = maintenance && maintenanceChange(job, integration, maintenance, now)
        return recorder.record(job, integration, decision.outcome, change)
      }
      case 'create':
        return this.reserved(integration.id, () => this.create(attempt, integration, decision))
      case 'reopen':
        return this.followUps.reopen(attempt, integration, decision)
      case 'storm':
        if (!this.d.storms) throw new Error('storm control is not wired')
        return this.d.storms.run(attempt, integration, vendor, decision)
      case 'append':
      case 'close': {
        const psaTicketId = await reservations.createdTicketId(integration.id, decision.ticket)
        if (psaTicketId === null) return { kind: 'again' }
        return decision.kind === 'append'
          ? this.followUps.append(attempt, integration, decision, psaTicketId)
          : this.reserved(integration.id, () =>
              this.followUps.close(attempt, integration, decision, psaTicketId),
            )
      }
    }
  }

  /** Runs an operation that holds a reservation; the requests waiting on it are woken when it ends. */
  private async reserved(integrationId: string, op: () => Promise<Step>): Promise<Step> {
    try {
      return await op()
    } finally {
      this.d.reservations.released(integrationId)
    }
  }

  /** Reserve, create in the PSA (adopting what an earlier attempt made), record. */
  private async create(attempt: Attempt, integration: Integration, d: Of<'create'>): Promise<Step> {
    const { job, policy } = attempt
    const { clock, recorder, reservations, writes } = this.d
    const psa = await this.d.psa.open(integration.partnerId)
    const ticketId = uuidv7()
    const { correlationId } = d
    const reserved = await reservations.reserve(ticketId, integration, job.facts, d, psa.kind, (w) =>
      writes.run(w),
    )
    if (typeof reserved === 'object') return busy(reserved)
    // Storm control's cap, counted again under the lock, was reached meanwhile: decide again (it folds).
    if (reserved === 'past-cap') return { kind: 'again' }
    // A catch-all ticket remembers its company before the PSA is called: its follow-ups find it by that.
    if (d.catchAll) await writes.run((tx) => tx.catchAll.markTicket(ticketId, d.mapping.psaCompanyId))
    // An earlier attempt may have made the ticket (a retry of the job, a creator that died, a vendor
    // retrying with its own correlationId after a lost answer): the PSA is asked for it first.
    const adopt = job.attempt > 1 || reserved === 'after-dead' || job.facts.correlationId !== undefined
    // The PSA-side tag: our own correlationIds are unique everywhere; a vendor's only per integration.
    const ref =
      job.facts.correlationId === undefined ? correlationId : `${integration.id.slice(-8)}:${correlationId}`
    // Once the PSA made the ticket, the reservation is never given back: if writing that down fails,
    // it runs out and whoever takes its place asks the PSA for the ticket first.
    let keep = false
    try {
      const accountName = d.catchAll
        ? ((await this.d.store.vendorData.findAccount(integration.id, job.facts.accountId))?.name ?? null)
        : null
      const rendered = await renderedForTicket(
        this.d.store,
        this.d.config?.psaSync.publicUrl ?? null,
        integration,
        job.facts,
        {
          templates: d.rule.templates,
          correlationId,
          psaKind: psa.kind,
        },
      )
      const ticket = newTicket(job.facts, d, psa.defaults, job.messageId, accountName, rendered)
      const result = await callPsa(psa, correlationId, policy, (client, call, again) =>
        client.createTicket(ticket, { ...call, ref, adopt: adopt || again }),
      )
      const later = deferral(result, policy)
      if (later) return later
      if (!result.ok) {
        // No ticket exists, so only a correlationId the vendor chose is worth returning.
        const failed = failedCall('create', result.failure, job.facts.correlationId ?? null)
        const execution = await recorder.record(job, integration, failed, async (tx) => {
          await tx.tickets.releaseReservation(ticketId)
          return true
        })
        keep = execution.kind === 'recorded'
        return execution
      }
      keep = true
      const psaTicketId = result.value.ticketId
      return await this.effects.remember(
        job,
        attempt.digest,
        integration,
        { ticketId, correlationId, psaTicketId, row: 'create' },
        async (tx) => {
          await tx.tickets.completeCreation(ticketId, psaTicketId, clock().toISOString())
          if (d.replaces) await tx.tickets.linkReplaced(ticketId, d.replaces.id)
        },
        d.catchAll
          ? caughtAll(correlationId, catchAllDetail(job.facts.accountId, d.catchAll, d.mapping.psaCompanyId))
          : d.replaces
            ? replaced(correlationId, d.replaces.correlationId)
            : created(correlationId),
      )
    } finally {
      if (!keep) await writes.run((tx) => tx.tickets.releaseReservation(ticketId)).catch(() => {})
    }
  }

  /** Something failed that no row of the table foresees: what the PSA did is recorded, else internal-error. */
  private async failedUnexpectedly(job: AlertJob, err: unknown): Promise<Execution> {
    const { store, log, recorder } = this.d
    log.error({ err, messageId: job.messageId }, 'alert processing failed unexpectedly')
    const effect = await store.psaEffects.find(job.messageId).catch(() => null)
    if (effect) return this.effects.recordAfterFailure(job, effect)
    const outcome = internalError(job.facts.correlationId ?? null)
    try {
      return await recorder.record(job, await store.integrations.findById(job.integrationId), outcome)
    } catch (e) {
      log.error({ err: e, messageId: job.messageId }, 'could not record the failure')
      return { kind: 'unrecorded', outcome }
    }
  }
}
