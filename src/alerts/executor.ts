// One alert, carried through the decision table and the PSA (docs/decision-table.md). The walk:
//
//   earlier attempts → decide → reserve → call the PSA → record (→ outbox)
//
// - earlier attempts: a queued job run again finds its outcome recorded or its PSA effect written
//   down (psa-effects.ts); a synchronous call sent again adopts what its lost answer did;
// - decide: the pure decision table on what is stored (context.ts, domain/decide.ts);
// - reserve: one ticket per correlationId and per open dedup key (reservations.ts), committed
//   before the PSA is called; a request that finds another holding it waits for it, then decides again;
// - call the PSA: one operation within its budget (psa-calls.ts), tried again inside this execution
//   where the policy says so (the synchronous strategy's budget);
// - record: what the PSA did and the outcome, one write (psa-effects.ts, recorder.ts), which also puts
//   the webhook strategy's status_update in the outbox.
//
// The synchronous route (synchronous.ts) and the queued alert's job (queued.ts) run the same
// executor; what each strategy does with the answer is theirs. Every step answers a value.
import type { FastifyBaseLogger } from 'fastify'
import { v7 as uuidv7 } from 'uuid'
import type { Clock } from '../clock.js'
import type { Store } from '../db/store.js'
import type { WriteBatcher } from '../db/write-batch.js'
import type { Decision } from '../domain/decide.js'
import type { Integration } from '../domain/integration.js'
import { created, internalError, rejected, updated } from '../domain/outcome.js'
import { outcomeOfEffect } from '../domain/psa-effect.js'
import { type CatalogueLookup, decideAlert } from './context.js'
import { type AlertJob, deferral, type Execution, type ExecutionPolicy } from './execution.js'
import { callPsa, failedCall, type PsaCalls } from './psa-calls.js'
import { PsaEffects, requestDigest } from './psa-effects.js'
import type { OutcomeRecorder } from './recorder.js'
import type { Busy, TicketReservations } from './reservations.js'
import { newTicket, noteText } from './ticket-text.js'

export interface ExecutorDeps {
  store: Store
  /** Batched writes (db/write-batch.ts): each of an operation's writes goes in the next batch. */
  writes: Pick<WriteBatcher, 'run'>
  clock: Clock
  log: FastifyBaseLogger
  psa: PsaCalls
  reservations: TicketReservations
  recorder: OutcomeRecorder
  /** The catalogue each partner may use (the not-in-catalogue case). */
  catalogues: CatalogueLookup
}

/** What one attempt knows about its request beyond the job. */
interface Attempt {
  job: AlertJob
  policy: ExecutionPolicy
  /** SHA-256 of the request as received (credentials removed). */
  digest: string
}

/** A step ends the execution, or asks to decide again (after waiting for whoever held the ticket). */
type Step = Execution | { kind: 'again'; wait?: () => Promise<void> }

type Of<K extends Decision['kind']> = Extract<Decision, { kind: K }>

/** How many times a request decides again after losing a race to a concurrent one. */
const maxRounds = 8

const busy = (b: Busy): Step => ({ kind: 'again', wait: b.wait })

export class AlertExecutor {
  private readonly effects: PsaEffects

  constructor(private readonly d: ExecutorDeps) {
    this.effects = new PsaEffects({ ...d, holdMs: () => d.reservations.holdMs })
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
      this.d.catalogues,
      vendor,
      integration,
      job.facts,
      clock(),
      job.newCorrelationId ?? uuidv7(),
    )
    switch (decision.kind) {
      case 'done':
        return recorder.record(job, integration, decision.outcome)
      case 'create':
        return this.reserved(integration.id, () => this.create(attempt, integration, decision))
      case 'append':
      case 'close': {
        const psaTicketId = await reservations.createdTicketId(integration.id, decision.ticket)
        if (psaTicketId === null) return { kind: 'again' }
        return decision.kind === 'append'
          ? this.append(attempt, integration, decision, psaTicketId)
          : this.reserved(integration.id, () => this.close(attempt, integration, decision, psaTicketId))
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
      const ticket = newTicket(job.facts, d, psa.defaults, job.messageId)
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
        (tx) => tx.tickets.completeCreation(ticketId, psaTicketId, clock().toISOString()),
        created(correlationId),
      )
    } finally {
      if (!keep) await writes.run((tx) => tx.tickets.releaseReservation(ticketId)).catch(() => {})
    }
  }

  /** A note on the ticket (an UPDATE, or an OPEN repeating an open incident), then record. */
  private async append(
    attempt: Attempt,
    integration: Integration,
    d: Of<'append'>,
    psaTicketId: string,
  ): Promise<Step> {
    const { job, policy } = attempt
    const { clock, recorder } = this.d
    const ticket = d.ticket
    const psa = await this.d.psa.open(integration.partnerId)
    const occurrence = job.facts.incidentStatus === 'OPEN' ? ticket.occurrenceCount + 1 : null
    const note = noteText(job.facts, job.messageId, occurrence)
    const result = await callPsa(psa, ticket.correlationId, policy, (client, call, again) =>
      client.appendNote(psaTicketId, note, {
        ...call,
        marker: job.messageId,
        adopt: job.attempt > 1 || again,
      }),
    )
    if (!result.ok) {
      const failed = failedCall('update', result.failure, ticket.correlationId)
      return deferral(result, policy) ?? recorder.record(job, integration, failed)
    }
    const done = { ticketId: ticket.id, correlationId: ticket.correlationId, psaTicketId, row: d.row }
    return this.effects.remember(
      job,
      attempt.digest,
      integration,
      done,
      (tx) => tx.tickets.recordOccurrence(ticket.id, clock().toISOString()),
      updated(d.row, ticket.correlationId),
    )
  }

  /** Claim the close, close in the PSA (the resolution note first), record. */
  private async close(
    attempt: Attempt,
    integration: Integration,
    d: Of<'close'>,
    psaTicketId: string,
  ): Promise<Step> {
    const { job, policy } = attempt
    const { clock, recorder, reservations, writes } = this.d
    const ticket = d.ticket
    const psa = await this.d.psa.open(integration.partnerId)
    const claimed = await reservations.claimClose(integration.id, ticket, (w) => writes.run(w))
    if (claimed !== 'claimed') return busy(claimed)
    let claimEnded = false
    try {
      const close = {
        note: noteText(job.facts, job.messageId, null),
        closedStatus: d.rule.ticket.closedStatus ?? psa.defaults.closedStatus ?? null,
      }
      const result = await callPsa(psa, ticket.correlationId, policy, (client, call, again) =>
        client.closeTicket(psaTicketId, close, {
          ...call,
          marker: job.messageId,
          adopt: job.attempt > 1 || again,
        }),
      )
      const later = deferral(result, policy)
      if (later) return later
      if (!result.ok) {
        const failed = failedCall('close', result.failure, ticket.correlationId)
        const execution = await recorder.record(job, integration, failed, async (tx) => {
          await tx.tickets.releaseClose(ticket.id)
          return true
        })
        claimEnded = execution.kind === 'recorded'
        return execution
      }
      claimEnded = true
      const row = result.value.alreadyClosed ? 'already-closed' : 'close'
      const done = { ticketId: ticket.id, correlationId: ticket.correlationId, psaTicketId, row } as const
      return await this.effects.remember(
        job,
        attempt.digest,
        integration,
        done,
        (tx) => tx.tickets.completeClose(ticket.id, clock().toISOString()),
        outcomeOfEffect(done),
      )
    } finally {
      if (!claimEnded) await writes.run((tx) => tx.tickets.releaseClose(ticket.id)).catch(() => {})
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
