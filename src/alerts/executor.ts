// Carries out the decision of domain/decide.ts: reserves the ticket, calls the PSA, records the outcome.
// The synchronous route and the queued alert's job run the same executor, so the business rules exist
// once; what each strategy does with the answer is the caller's (execution.ts). Data flows one way:
// nothing here calls back into a caller.
//
// What the PSA did is written down the moment it did it (the ticket's change and a psa_effects row, one
// transaction), before the outcome is recorded; recording then settles the effect. If recording fails,
// the effect stays: the job's next attempt, or the vendor sending the same call again, records it
// instead of asking the PSA a second time (domain/psa-effect.ts).
//
// A PSA in this process (the sandbox) needs none of the steps apart: its whole operation is one write
// (OpWrites), its rows committed with the outcome or not at all.
import { hash } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import { v7 as uuidv7 } from 'uuid'
import type { Clock } from '../clock.js'
import type { Store } from '../db/store.js'
import type { WriteBatcher } from '../db/write-batch.js'
import type { Decision } from '../domain/decide.js'
import type { Integration } from '../domain/integration.js'
import {
  created,
  internalError,
  type Outcome,
  type PsaOperation,
  psaFailed,
  rejected,
  updated,
} from '../domain/outcome.js'
import { type EffectRow, outcomeOfEffect, type PsaEffect, retryOf } from '../domain/psa-effect.js'
import type { PsaClient, PsaFailure, PsaResult, TicketCall } from '../psa/adapter.js'
import { type CatalogueLookup, decideAlert } from './context.js'
import { type AlertJob, deferral, type Execution, type ExecutionPolicy } from './execution.js'
import { describe, type OpenPsa, type PsaCalls } from './psa-calls.js'
import type { OutcomeRecorder } from './recorder.js'
import type { Busy, RunWrite, TicketReservations } from './reservations.js'
import { newTicket, noteText } from './ticket-text.js'

export interface ExecutorDeps {
  store: Store
  /** Batched writes (db/write-batch.ts): what the PSA did is written down in the next batch. */
  writes: Pick<WriteBatcher, 'run'>
  clock: Clock
  log: FastifyBaseLogger
  psa: PsaCalls
  reservations: TicketReservations
  recorder: OutcomeRecorder
  /** The catalogue each partner may use (row 6). */
  catalogues: CatalogueLookup
}

type Step = Execution | 'again'

/**
 * Where one ticket operation's writes go. A PSA elsewhere: each is a batched write committed on its
 * own, the reservation before the call that may make the ticket (DESIGN §3: no untracked PSA work). A
 * PSA in this process (the sandbox): the whole operation is one write, the reservation, the PSA's own
 * rows and the outcome committed together or not at all, one commit instead of three (issue 11).
 */
interface OpWrites {
  run: RunWrite
  /** The operation's transaction, for an in-process PSA's rows. */
  within?: TicketCall['within']
}

/** How an operation ends: a step, or what must wait until its writes have committed. */
type OpEnd = Step | Busy | { kind: 'record-after-failure'; effect: PsaEffect }

/** Thrown inside a transaction: another attempt took this effect, or this message, first. */
class EffectTaken extends Error {}

/** What one attempt knows about its request beyond the job. */
interface Attempt {
  job: AlertJob
  policy: ExecutionPolicy
  /** SHA-256 of the request as received (credentials removed). */
  requestDigest: string
}

/** Stored in place of a request that could not be stored with its outcome. */
const unstorableRequest = {
  unstored: 'alertbridge could not store this request with its outcome; the outcome is recorded without it',
}

type Of<K extends Decision['kind']> = Extract<Decision, { kind: K }>

/** How many times a request decides again after losing a race to a concurrent one. */
const maxRounds = 8

export class AlertExecutor {
  constructor(private readonly d: ExecutorDeps) {}

  async run(job: AlertJob, policy: ExecutionPolicy): Promise<Execution> {
    const { store, log, recorder } = this.d
    if (policy.adoptRecorded) {
      if (await store.events.exists(job.messageId)) return { kind: 'adopted' }
      // An earlier attempt of this message got the PSA's answer and could not record it.
      const own = await store.psaEffects.find(job.messageId)
      if (own) return this.recordEffect(job, own)
    }
    try {
      const attempt: Attempt = { job, policy, requestDigest: requestDigest(job.request) }
      for (let round = 0; round < maxRounds; round++) {
        const step = await this.round(attempt)
        if (step !== 'again') return step
      }
      throw new Error(`alert ${job.messageId} did not settle after ${maxRounds} rounds`)
    } catch (err) {
      log.error({ err, messageId: job.messageId }, 'alert processing failed unexpectedly')
      const effect = await store.psaEffects.find(job.messageId).catch(() => null)
      if (effect) return this.recordAfterFailure(job, effect)
      // Row 20.
      const outcome = internalError(job.facts.correlationId ?? null)
      try {
        return await recorder.record(job, await store.integrations.findById(job.integrationId), outcome)
      } catch (e) {
        log.error({ err: e, messageId: job.messageId }, 'could not record the failure')
        return { kind: 'unrecorded', outcome }
      }
    }
  }

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
      return recorder.record(
        job,
        null,
        rejected('4', 'INTEGRATION_NOT_FOUND', gone, null, job.facts.correlationId ?? null),
      )
    }
    // A synchronous call answered 500 after the PSA acted may come again: it adopts what was done.
    if (job.strategy === 'sync') {
      const orphan = await this.orphanFor(attempt, integration.id)
      if (orphan) return this.adopt(job, integration, orphan)
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
    if (decision.kind === 'done') return recorder.record(job, integration, decision.outcome)
    if (decision.kind === 'create') return this.create(attempt, integration, decision)
    const psaTicketId = await reservations.createdTicketId(integration.id, decision.ticket)
    if (psaTicketId === null) return 'again'
    return decision.kind === 'append'
      ? this.append(attempt, integration, decision, psaTicketId)
      : this.close(attempt, integration, decision, psaTicketId)
  }

  /**
   * Runs one ticket operation with its writes (OpWrites), then what had to wait for their commit: the
   * requests of this process waiting on the integration's reservations woken (`settles`: for creates
   * and closes, which hold one), a busy reservation waited for, an outcome that could not be recorded
   * recorded again. Another attempt of the message that got there first (EffectTaken) makes it
   * `adopted`.
   */
  private async operate(
    job: AlertJob,
    psa: OpenPsa,
    settles: boolean,
    op: (w: OpWrites) => Promise<OpEnd>,
  ): Promise<Step> {
    let end: OpEnd
    try {
      end = psa.inProcess
        ? await this.d.writes.run((tx) => op({ run: (work) => work(tx), within: tx.kysely }))
        : await op({ run: (work) => this.d.writes.run(work) })
    } catch (err) {
      if (err instanceof EffectTaken) return { kind: 'adopted' }
      throw err
    } finally {
      if (settles) this.d.reservations.settled(job.integrationId)
    }
    if (end === 'again') return end
    if (end.kind === 'busy') {
      await end.wait()
      return 'again'
    }
    if (end.kind === 'record-after-failure') return this.recordAfterFailure(job, end.effect)
    return end
  }

  private async create(attempt: Attempt, integration: Integration, d: Of<'create'>): Promise<Step> {
    const psa = await this.d.psa.open(integration.partnerId)
    return this.operate(attempt.job, psa, true, (w) => this.createWith(w, attempt, integration, d, psa))
  }

  private async createWith(
    w: OpWrites,
    attempt: Attempt,
    integration: Integration,
    d: Of<'create'>,
    psa: OpenPsa,
  ): Promise<OpEnd> {
    const { job, policy } = attempt
    const { clock, recorder, reservations } = this.d
    const ticketId = uuidv7()
    const { correlationId } = d
    const reserved = await reservations.reserve(ticketId, integration, job.facts, d, psa.kind, w.run)
    if (typeof reserved === 'object') return reserved
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
      const result = await this.callPsa(psa, correlationId, policy, (client, call, again) =>
        client.createTicket(ticket, { ...call, ref, adopt: adopt || again, within: w.within }),
      )
      const later = deferral(result, policy)
      if (later) return later
      if (!result.ok) {
        // No ticket exists, so only a correlationId the vendor chose is worth returning.
        const failed = failedCall('create', result.failure, job.facts.correlationId ?? null)
        const execution = await w.run((tx) =>
          recorder.recordIn(tx, job, integration, failed, (t) => t.tickets.releaseReservation(ticketId)),
        )
        keep = execution.kind === 'recorded'
        return execution
      }
      keep = true
      const psaTicketId = result.value.ticketId
      return await this.remember(
        w,
        attempt,
        integration,
        { ticketId, correlationId, psaTicketId, row: '11' },
        (tx) => tx.tickets.completeCreation(ticketId, psaTicketId, clock().toISOString()),
        created(correlationId),
      )
    } finally {
      if (!keep) await w.run((tx) => tx.tickets.releaseReservation(ticketId)).catch(() => {})
    }
  }

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
    return this.operate(job, psa, false, async (w) => {
      const result = await this.callPsa(psa, ticket.correlationId, policy, (client, call, again) =>
        client.appendNote(psaTicketId, noteText(job.facts, job.messageId, occurrence), {
          ...call,
          marker: job.messageId,
          adopt: job.attempt > 1 || again,
          within: w.within,
        }),
      )
      if (!result.ok) {
        const failed = failedCall('update', result.failure, ticket.correlationId)
        return deferral(result, policy) ?? w.run((tx) => recorder.recordIn(tx, job, integration, failed))
      }
      const done = { ticketId: ticket.id, correlationId: ticket.correlationId, psaTicketId, row: d.row }
      return this.remember(
        w,
        attempt,
        integration,
        done,
        (tx) => tx.tickets.recordOccurrence(ticket.id, clock().toISOString()),
        updated(d.row, ticket.correlationId),
      )
    })
  }

  private async close(
    attempt: Attempt,
    integration: Integration,
    d: Of<'close'>,
    psaTicketId: string,
  ): Promise<Step> {
    const psa = await this.d.psa.open(integration.partnerId)
    return this.operate(attempt.job, psa, true, (w) =>
      this.closeWith(w, attempt, integration, d, psaTicketId, psa),
    )
  }

  private async closeWith(
    w: OpWrites,
    attempt: Attempt,
    integration: Integration,
    d: Of<'close'>,
    psaTicketId: string,
    psa: OpenPsa,
  ): Promise<OpEnd> {
    const { job, policy } = attempt
    const { clock, recorder, reservations } = this.d
    const ticket = d.ticket
    const claimed = await reservations.claimClose(integration.id, ticket, w.run)
    if (claimed !== 'claimed') return claimed
    let settled = false
    try {
      const result = await this.callPsa(psa, ticket.correlationId, policy, (client, call, again) =>
        client.closeTicket(
          psaTicketId,
          {
            note: noteText(job.facts, job.messageId, null),
            closedStatus: d.rule.ticket.closedStatus ?? psa.defaults.closedStatus ?? null,
          },
          { ...call, marker: job.messageId, adopt: job.attempt > 1 || again, within: w.within },
        ),
      )
      const later = deferral(result, policy)
      if (later) return later
      if (!result.ok) {
        const failed = failedCall('close', result.failure, ticket.correlationId)
        const execution = await w.run((tx) =>
          recorder.recordIn(tx, job, integration, failed, (t) => t.tickets.releaseClose(ticket.id)),
        )
        settled = execution.kind === 'recorded'
        return execution
      }
      settled = true
      const row = result.value.alreadyClosed ? '17' : '18'
      const done = { ticketId: ticket.id, correlationId: ticket.correlationId, psaTicketId, row } as const
      return await this.remember(
        w,
        attempt,
        integration,
        done,
        (tx) => tx.tickets.completeClose(ticket.id, clock().toISOString()),
        outcomeOfEffect(done),
      )
    } finally {
      if (!settled) await w.run((tx) => tx.tickets.releaseClose(ticket.id)).catch(() => {})
    }
  }

  /**
   * One PSA operation, tried again inside this execution while the policy says so (the synchronous
   * strategy, when a wait or a lost answer fits its budget). `again` is set on those later tries: the
   * operation then looks for what an earlier try may have done before doing it.
   */
  private async callPsa<T>(
    psa: OpenPsa,
    correlationId: string,
    policy: ExecutionPolicy,
    op: (client: PsaClient, call: TicketCall, again: boolean) => Promise<PsaResult<T>>,
  ): Promise<PsaResult<T>> {
    let result = await psa.call(correlationId, (client, call) => op(client, call, false), policy.deadline)
    while (!result.ok && result.failure.retryable && policy.again && (await policy.again(result.failure)))
      result = await psa.call(correlationId, (client, call) => op(client, call, true), policy.deadline)
    return result
  }

  /**
   * Writes down what the PSA did, with the ticket's change that goes with it, and records the
   * outcome, in one write: the outcome under a savepoint of its own, so that if it cannot be written
   * the effect and the change still commit and recordAfterFailure takes over once they have. Throws
   * EffectTaken, with nothing of its own written, when another attempt of the same message got there
   * first (its effect is written down or its outcome recorded): that attempt's change is the one that
   * counts. The effect is inserted before the event is looked for, so on PostgreSQL an insert racing
   * the other attempt's settling waits for it and then sees its event.
   */
  private async remember(
    w: OpWrites,
    attempt: Attempt,
    integration: Integration,
    done: { ticketId: string; correlationId: string; psaTicketId: string; row: EffectRow },
    change: (tx: Store) => Promise<void>,
    outcome: Outcome,
  ): Promise<OpEnd> {
    const { job, requestDigest } = attempt
    const effect: PsaEffect = {
      ...done,
      messageId: job.messageId,
      integrationId: integration.id,
      strategy: job.strategy,
      requestDigest,
      orphanedAt: null,
      createdAt: this.d.clock().toISOString(),
    }
    let unrecorded: unknown = null
    const execution = await w.run((tx) =>
      tx.savepoint('effect', async (): Promise<Execution> => {
        if (!(await tx.psaEffects.insert(effect))) throw new EffectTaken()
        if (await tx.events.exists(job.messageId)) throw new EffectTaken()
        await change(tx)
        try {
          const recorded = await this.d.recorder.recordIn(tx, job, integration, outcome, async (t) => {
            await t.psaEffects.remove(job.messageId)
          })
          // Recorded by another attempt after all (a race the checks above narrow): that one counts.
          if (recorded.kind === 'adopted') throw new EffectTaken()
          return recorded
        } catch (err) {
          if (err instanceof EffectTaken) throw err
          unrecorded = err
          return { kind: 'unrecorded', outcome }
        }
      }),
    )
    if (unrecorded === null) return execution
    this.d.log.error(
      { err: unrecorded, messageId: job.messageId },
      'could not record the outcome of a PSA effect',
    )
    return { kind: 'record-after-failure', effect }
  }

  /** Records the outcome of this message's own effect, which it settles. */
  private settle(job: AlertJob, integration: Integration | null, outcome: Outcome) {
    return this.d.recorder.record(job, integration, outcome, async (tx) => {
      await tx.psaEffects.remove(job.messageId)
    })
  }

  /** A later attempt of a message whose effect is written down: its outcome, without the PSA. */
  private async recordEffect(job: AlertJob, effect: PsaEffect): Promise<Execution> {
    const integration = await this.d.store.integrations.findById(job.integrationId)
    try {
      return await this.settle(job, integration, outcomeOfEffect(effect))
    } catch (err) {
      this.d.log.error({ err, messageId: job.messageId }, 'could not record a PSA effect again')
      return this.recordAfterFailure(job, effect)
    }
  }

  /**
   * Recording failed after the PSA acted. Tried once more as is, then without the request (it may
   * be what could not be stored); if that fails too the effect stays for the next attempt of the same
   * call, and the answer names the ticket's correlationId so the vendor can send it again.
   */
  private async recordAfterFailure(job: AlertJob, effect: PsaEffect): Promise<Execution> {
    const { store, log, clock } = this.d
    const outcome = outcomeOfEffect(effect)
    const integration = await store.integrations.findById(job.integrationId).catch(() => null)
    for (const request of [job.request, unstorableRequest]) {
      try {
        return await this.settle({ ...job, request }, integration, outcome)
      } catch (err) {
        log.error({ err, messageId: job.messageId }, 'could not record the outcome of a PSA effect')
      }
    }
    await store.psaEffects.markOrphaned(job.messageId, clock().toISOString()).catch(() => {})
    return { kind: 'unrecorded', outcome: internalError(effect.correlationId) }
  }

  /** The effect of an earlier synchronous call this alert is another attempt of, if it was never recorded. */
  private orphanFor(attempt: Attempt, integrationId: string): Promise<PsaEffect | null> {
    const { job, requestDigest } = attempt
    const retry = retryOf(job.facts.incidentStatus)
    const cid = job.facts.correlationId
    return this.d.store.psaEffects.findOrphan({
      integrationId,
      requestDigest,
      bySameRequest: retry.bySameRequest,
      byCorrelationId: cid === undefined ? null : { correlationId: cid, rows: retry.byCorrelationId },
      abandonedBefore: new Date(this.d.clock().getTime() - 2 * this.d.reservations.holdMs).toISOString(),
    })
  }

  /** Records an orphaned effect's outcome as this alert's own, taking the effect so nobody else does. */
  private async adopt(job: AlertJob, integration: Integration, orphan: PsaEffect): Promise<Step> {
    try {
      return await this.d.recorder.record(job, integration, outcomeOfEffect(orphan), async (tx) => {
        if (!(await tx.psaEffects.remove(orphan.messageId))) throw new EffectTaken()
      })
    } catch (err) {
      if (err instanceof EffectTaken) return 'again'
      throw err
    }
  }
}

/** Row 19 for a PSA failure; a wait the PSA asked for is passed on as the answer's Retry-After. */
function failedCall(op: PsaOperation, failure: PsaFailure, correlationId: string | null): Outcome {
  const wait = failure.throttled ? failure.retryAfterMs : undefined
  return psaFailed(op, describe(op, failure), correlationId, wait)
}

/** SHA-256 of the request as received: the same call sent again has the same digest. */
function requestDigest(request: unknown): string {
  return hash('sha256', JSON.stringify(request) ?? '', 'hex')
}
