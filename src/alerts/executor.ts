// Carries out the decision of domain/decide.ts: reserves tickets, calls the PSA, records the event,
// and moves a pending integration to connected. Used by the synchronous route and the queue worker
// alike, so the business rules exist once.
import type { FastifyBaseLogger } from 'fastify'
import { v7 as uuidv7 } from 'uuid'
import type { Clock } from '../clock.js'
import type { Strategy } from '../db/repositories/events.js'
import type { Integration } from '../db/repositories/integrations.js'
import type { Store } from '../db/store.js'
import type { Decision } from '../domain/decide.js'
import { transition } from '../domain/integration-state.js'
import {
  alreadyClosed,
  closed,
  created,
  internalError,
  type Outcome,
  type PsaOperation,
  psaFailed,
  rejected,
  updated,
} from '../domain/outcome.js'
import type { AlertFacts, Ticket } from '../domain/types.js'
import type { PsaAdapter, PsaConnection, PsaFailure, PsaResult } from '../psa/adapter.js'
import type { PsaRegistry } from '../psa/registry.js'
import type { SnapshotScheduler } from '../webhooks/snapshots.js'
import { type CatalogueLookup, decideAlert } from './context.js'
import type { Settlement } from './settlement.js'
import { noteText, ticketDescription } from './ticket-text.js'

export interface AlertJob {
  messageId: string
  strategy: Strategy
  vendorId: string
  integrationId: string
  facts: AlertFacts
  /** The request as received, credentials removed, for the audit log. */
  request: unknown
  /** The correlationId a new ticket gets if the vendor sent none; the webhook strategy fixes it when it
   * answers, so the ticket gets the id the vendor was told. A fresh one otherwise. */
  newCorrelationId?: string
  hooks?: ExecutionHooks
}

/** How a queued job takes part in execution (the synchronous route passes none). */
export interface ExecutionHooks {
  /** Runs inside the transaction that records the outcome, also where no event is stored. */
  recorded(tx: Store, outcome: Outcome, integration: Integration | null): Promise<void>
  /** True: give this attempt up instead of recording the PSA failure; the queue tries again later. */
  deferPsaFailure?(failure: PsaFailure): boolean
}

/**
 * Thrown by a hook to give this attempt up without recording anything: `process` passes it on
 * instead of recording an internal error (which would fail the same way).
 */
export class AttemptAbandoned extends Error {}

/** Thrown out of `process` when a hook deferred a PSA failure; nothing was recorded. */
export class PsaDeferred extends AttemptAbandoned {
  constructor(readonly failure: PsaFailure) {
    super(`PSA failure deferred: ${failure.message}`)
  }
}

export interface ExecutorDeps {
  store: Store
  psa: PsaRegistry
  clock: Clock
  log: FastifyBaseLogger
  settlement: Settlement
  psaTimeoutMs: number
  snapshots: SnapshotScheduler
  /** The catalogue each partner may use (row 6). */
  catalogues: CatalogueLookup
}

type Step = Outcome | 'again'

/** How many times a request re-decides after losing a race to a concurrent one. */
const maxRounds = 8

export class AlertExecutor {
  constructor(private readonly deps: ExecutorDeps) {}

  async process(job: AlertJob): Promise<Outcome> {
    try {
      for (let round = 0; round < maxRounds; round++) {
        const step = await this.round(job)
        if (step !== 'again') return step
      }
      throw new Error(`alert ${job.messageId} did not settle after ${maxRounds} rounds`)
    } catch (err) {
      if (err instanceof AttemptAbandoned) throw err
      // Row 20.
      this.deps.log.error({ err, messageId: job.messageId }, 'alert processing failed unexpectedly')
      const outcome = internalError(job.facts.correlationId ?? null)
      try {
        await this.record(job, await this.deps.store.integrations.findById(job.integrationId), outcome)
      } catch (e) {
        this.deps.log.error({ err: e, messageId: job.messageId }, 'could not record the failure')
      }
      return outcome
    }
  }

  private async round(job: AlertJob): Promise<Step> {
    const { store, clock } = this.deps
    const [integration, vendor] = await Promise.all([
      store.integrations.findById(job.integrationId),
      store.vendors.findById(job.vendorId),
    ])
    if (!integration || !vendor) {
      // The partner or operator removed it after the alert was accepted: nothing to record against.
      const outcome = rejected(
        '4',
        'INTEGRATION_NOT_FOUND',
        'The integration no longer exists.',
        null,
        job.facts.correlationId ?? null,
      )
      await this.record(job, null, outcome)
      return outcome
    }
    const decision = await decideAlert(
      store,
      this.deps.catalogues,
      vendor,
      integration,
      job.facts,
      clock(),
      job.newCorrelationId ?? uuidv7(),
    )
    switch (decision.kind) {
      case 'done':
        await this.record(job, integration, decision.outcome)
        return decision.outcome
      case 'create':
        return this.create(job, integration, decision)
      case 'append':
      case 'close': {
        const psaTicketId = await this.createdTicketId(integration.id, decision.ticket)
        if (psaTicketId === null) return 'again'
        return decision.kind === 'append'
          ? this.append(job, integration, decision, psaTicketId)
          : this.close(job, integration, decision, psaTicketId)
      }
    }
  }

  private async create(
    job: AlertJob,
    integration: Integration,
    d: Extract<Decision, { kind: 'create' }>,
  ): Promise<Step> {
    const { store, clock } = this.deps
    const now = clock()
    const ticketId = uuidv7()
    const correlationId = d.correlationId
    const conn = await this.connection(integration.partnerId)
    const reserved = await store.transaction((tx) =>
      tx.tickets.reserve(
        {
          id: ticketId,
          integrationId: integration.id,
          partnerId: integration.partnerId,
          correlationId,
          accountId: job.facts.accountId,
          productGroup: job.facts.productGroup,
          alertType: job.facts.alertType,
          title: job.facts.title,
          ruleId: d.rule.id,
          psaKind: conn.kind,
          dedupKey: d.dedupKey,
          dedupOpenKey: d.dedupOpenKey,
          leaseUntil: this.leaseUntil(now),
          now: now.toISOString(),
        },
        d.retireTicketId,
      ),
    )
    if (!reserved) {
      // Another request holds the correlationId or the dedup key: wait for it, then decide again.
      const openKey = d.dedupOpenKey
      await this.waitWhileCreating(integration.id, async () => {
        const holders = await Promise.all([
          store.tickets.findByCorrelation(integration.id, correlationId),
          openKey ? store.tickets.findByOpenDedupKey(integration.id, openKey) : null,
        ])
        return holders.find((t) => t?.status === 'creating') ?? null
      })
      return 'again'
    }

    let settled = false
    try {
      const defaults = (conn.settings.defaults ?? {}) as Record<string, string | undefined>
      const result = await this.call(conn, (psa) =>
        psa.createTicket(conn, {
          companyId: d.mapping.psaCompanyId,
          board: d.mapping.board ?? d.rule.ticket.board ?? defaults.board ?? null,
          priority: d.rule.ticket.priority ?? defaults.priority ?? null,
          type: d.rule.ticket.type ?? defaults.type ?? null,
          status: d.rule.ticket.status ?? defaults.status ?? null,
          summary: job.facts.title,
          description: ticketDescription(job.facts, correlationId, job.messageId),
        }),
      )
      this.deferIfAsked(job, result)
      if (!result.ok) {
        // No ticket exists, so only a correlationId the vendor chose is worth returning.
        const outcome = psaFailed(
          'create',
          describe('create', result.failure),
          job.facts.correlationId ?? null,
        )
        await store.transaction(async (tx) => {
          await tx.tickets.releaseReservation(ticketId)
          await this.record(job, integration, outcome, tx)
        })
        settled = true
        return outcome
      }
      const outcome = created(correlationId)
      await store.transaction(async (tx) => {
        await tx.tickets.completeCreation(ticketId, result.value.ticketId, clock().toISOString())
        await this.record(job, integration, outcome, tx)
      })
      settled = true
      return outcome
    } finally {
      if (!settled) await store.tickets.releaseReservation(ticketId).catch(() => {})
      this.deps.settlement.settled(integration.id)
    }
  }

  private async append(
    job: AlertJob,
    integration: Integration,
    d: Extract<Decision, { kind: 'append' }>,
    psaTicketId: string,
  ): Promise<Step> {
    const { store, clock } = this.deps
    const ticket = d.ticket
    const conn = await this.connection(integration.partnerId)
    const occurrence = job.facts.incidentStatus === 'OPEN' ? ticket.occurrenceCount + 1 : null
    const result = await this.call(conn, (psa) =>
      psa.appendNote(conn, psaTicketId, noteText(job.facts, job.messageId, occurrence)),
    )
    this.deferIfAsked(job, result)
    const outcome = result.ok
      ? updated(d.row, ticket.correlationId)
      : psaFailed('update', describe('update', result.failure), ticket.correlationId)
    await store.transaction(async (tx) => {
      if (result.ok) await tx.tickets.recordOccurrence(ticket.id, clock().toISOString())
      await this.record(job, integration, outcome, tx)
    })
    return outcome
  }

  private async close(
    job: AlertJob,
    integration: Integration,
    d: Extract<Decision, { kind: 'close' }>,
    psaTicketId: string,
  ): Promise<Step> {
    const { store, clock } = this.deps
    const ticket = d.ticket
    const now = clock()
    if (!(await store.tickets.claimClose(ticket.id, this.leaseUntil(now), now.toISOString()))) {
      // A concurrent RESOLVED is closing it: wait, then decide again (it will be closed, or open again).
      await this.deps.settlement.waitFor(
        integration.id,
        async () => (await store.tickets.get(ticket.id))?.status !== 'closing',
        Date.now() + this.deps.psaTimeoutMs + 5000,
      )
      return 'again'
    }
    let settled = false
    try {
      const conn = await this.connection(integration.partnerId)
      const result = await this.call(conn, (psa) =>
        psa.closeTicket(conn, psaTicketId, noteText(job.facts, job.messageId, null)),
      )
      this.deferIfAsked(job, result)
      const outcome = !result.ok
        ? psaFailed('close', describe('close', result.failure), ticket.correlationId)
        : result.value.alreadyClosed
          ? alreadyClosed(ticket.correlationId, 'psa')
          : closed(ticket.correlationId)
      await store.transaction(async (tx) => {
        if (result.ok) await tx.tickets.completeClose(ticket.id, clock().toISOString())
        else await tx.tickets.releaseClose(ticket.id)
        await this.record(job, integration, outcome, tx)
      })
      settled = true
      return outcome
    } finally {
      if (!settled) await store.tickets.releaseClose(ticket.id).catch(() => {})
      this.deps.settlement.settled(integration.id)
    }
  }

  /** The PSA id of the ticket, or null after waiting for a concurrent creation of it to settle. */
  private async createdTicketId(integrationId: string, ticket: Ticket): Promise<string | null> {
    if (ticket.status !== 'creating' && ticket.psaTicketId !== null) return ticket.psaTicketId
    await this.waitWhileCreating(integrationId, () => this.deps.store.tickets.get(ticket.id))
    return null
  }

  /** Stores the outcome's event and, on success, moves a pending integration to connected. */
  private async record(
    job: AlertJob,
    integration: Integration | null,
    outcome: Outcome,
    tx: Store = this.deps.store,
  ): Promise<void> {
    const hooks = job.hooks
    if (!outcome.event || !integration) {
      if (hooks) await tx.transaction((t) => hooks.recorded(t, outcome, integration))
      return
    }
    const event = outcome.event
    const now = this.deps.clock().toISOString()
    await tx.transaction(async (t) => {
      await t.events.insert({
        messageId: job.messageId,
        partnerId: integration.partnerId,
        vendorId: integration.vendorId,
        integrationId: integration.id,
        correlationId: outcome.correlationId ?? job.facts.correlationId ?? null,
        event: event.name,
        status: event.status,
        httpStatus: outcome.httpStatus,
        incidentStatus: job.facts.incidentStatus,
        strategy: job.strategy,
        request: job.request,
        detail: outcome.detail,
        createdAt: now,
      })
      if (outcome.httpStatus < 300) {
        const move = transition(integration.settings.state, { kind: 'request-succeeded' })
        if (move.ok && move.changed)
          await this.deps.snapshots.moveState(t, integration.id, integration.settings.state, move.next, now)
      }
      await hooks?.recorded(t, outcome, integration)
    })
  }

  private deferIfAsked(job: AlertJob, result: PsaResult<unknown>): void {
    if (!result.ok && job.hooks?.deferPsaFailure?.(result.failure)) throw new PsaDeferred(result.failure)
  }

  private async connection(partnerId: string): Promise<PsaConnection> {
    const conn = await this.deps.store.partners.connection(partnerId)
    if (!conn) throw new Error(`partner ${partnerId} has no PSA connection`)
    return conn
  }

  /** Calls the partner's PSA adapter within the PSA time budget. */
  private async call<T>(
    conn: PsaConnection,
    op: (psa: PsaAdapter) => Promise<PsaResult<T>>,
  ): Promise<PsaResult<T>> {
    const adapter = this.deps.psa.get(conn.kind)
    if (!adapter) {
      return {
        ok: false,
        failure: {
          kind: 'unavailable',
          retryable: false,
          message: `PSA kind '${conn.kind}' is not available`,
        },
      }
    }
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<PsaResult<T>>((resolve) => {
      timer = setTimeout(
        () =>
          resolve({
            ok: false,
            failure: {
              kind: 'timeout',
              retryable: true,
              message: `no answer within ${this.deps.psaTimeoutMs} ms`,
            },
          }),
        this.deps.psaTimeoutMs,
      )
    })
    try {
      return await Promise.race([op(adapter), timeout])
    } finally {
      clearTimeout(timer)
    }
  }

  private leaseUntil(now: Date): string {
    return new Date(now.getTime() + this.deps.psaTimeoutMs + 5000).toISOString()
  }

  /** Waits until the ticket `load` finds is no longer being created (or its creator's lease ran out). */
  private async waitWhileCreating(
    integrationId: string,
    load: () => Promise<{ status: string; leaseUntil: string | null } | null>,
  ): Promise<void> {
    await this.deps.settlement.waitFor(
      integrationId,
      async () => {
        const t = await load()
        return (
          t?.status !== 'creating' ||
          (t.leaseUntil !== null && t.leaseUntil < this.deps.clock().toISOString())
        )
      },
      Date.now() + this.deps.psaTimeoutMs + 5000,
    )
  }
}

function describe(op: PsaOperation, f: PsaFailure): string {
  const verb = { create: 'create the ticket', update: 'update the ticket', close: 'close the ticket' }[op]
  return `The PSA failed to ${verb}: ${f.message}${f.status ? ` (HTTP ${f.status})` : ''}.`
}
