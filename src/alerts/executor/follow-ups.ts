// The executor's steps on a ticket that exists: a note (an UPDATE, or an OPEN repeating an open
// incident), a close (RESOLVED, the resolution note first), and a reopen (the closed-ticket policy
// `reopen`, docs/decision-table.md#closed-ticket-policy). Each calls the PSA within its budget and
// writes down what the PSA did with its outcome (psa-effects.ts), as the executor's create does.
import type { FastifyBaseLogger } from 'fastify'
import type { Clock } from '../../platform/clock.js'
import type { Store } from '../../platform/db/store.js'
import type { WriteBatcher } from '../../platform/db/write-batch.js'
import type { Integration, Vendor } from '../../tenants/index.js'
import type { Decision } from '../domain/decide.js'
import { batchedNote, batchedUpdate, batchesNote } from '../domain/note-batching.js'
import { leftOpen, reopened, updated } from '../domain/outcome.js'
import { isStormTicket, type StormDecision } from '../steps/storm/facts.js'
import { noteText } from '../tickets/ticket-text.js'
import type { ProductGroupLookup } from './context.js'
import { type AlertJob, deferral, type Execution, type ExecutionPolicy } from './execution.js'
import { callPsa, failedCall, type PsaCalls } from './psa-calls.js'
import { outcomeOfEffect, type PsaEffect } from './psa-effect.js'
import type { PsaEffects } from './psa-effects.js'
import type { OutcomeRecorder } from './recorder.js'
import type { Busy, TicketReservations } from './reservations.js'

/** What the executor (executor.ts) and its steps here are given. */
export interface ExecutorDeps {
  store: Store
  /** Batched writes (platform/db/write-batch.ts): each of an operation's writes goes in the next batch. */
  writes: Pick<WriteBatcher, 'run'>
  clock: Clock
  log: FastifyBaseLogger
  psa: PsaCalls
  reservations: TicketReservations
  recorder: OutcomeRecorder
  /** The catalogue each partner may use (the not-in-catalogue case). */
  productGroups: ProductGroupLookup
  /** PUBLIC_URL (config.psaSync.publicUrl): a ticket template's portalLink (ticket-template.ts). */
  config?: { psaSync: { publicUrl: string | null } }
  /** Storm control's folds (docs/decision-table.md#storm), wired with the queue (executor.ts). */
  storms?: {
    run(attempt: Attempt, integration: Integration, vendor: Vendor, d: StormDecision): Promise<Step>
  }
  /**
   * The ticket's batched notes (docs/psa/README.md, "Near the limit"): `add` keeps a note for the next
   * one, inside the caller's transaction; without it, every note is written at once.
   */
  batchedNotes?: {
    add(tx: Store, integrationId: string, ticketId: string, messageId: string, note: string): Promise<void>
    handOver(): void
  }
}

/** What one attempt knows about its request beyond the job. */
export interface Attempt {
  job: AlertJob
  policy: ExecutionPolicy
  /** SHA-256 of the request as received (credentials removed). */
  digest: string
}

/** A step ends the execution, or asks to decide again (after waiting for whoever held the ticket). */
export type Step = Execution | { kind: 'again'; wait?: () => Promise<void> }

export type Of<K extends Decision['kind']> = Extract<Decision, { kind: K }>

export const busy = (b: Busy): Step => ({ kind: 'again', wait: b.wait })

/**
 * How long two-way sync leaves a ticket alone after an alert's close or reopen failed in a way that
 * may have reached the PSA (a lost answer, a timeout): the alert's retries (PSA_RETRY_SCHEDULE, about
 * 13 minutes) find out what happened, and what the PSA shows meanwhile is the alert's doing, not a
 * technician's (docs/psa/sync.md#what-a-change-does).
 */
export const psaSyncHoldMs = 15 * 60_000

/** The note closeOnlyUntouched leaves on a worked ticket instead of closing it. */
const leftOpenNote = (job: AlertJob) =>
  [
    'The vendor reports this resolved. The ticket was left open because a technician has worked it;',
    'close it when the work is done.',
    '',
    noteText(job.facts, job.messageId, null),
  ].join('\n')

export class FollowUps {
  constructor(
    private readonly d: ExecutorDeps,
    private readonly effects: PsaEffects,
  ) {}

  /** A note on the ticket, then record. */
  async append(
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
    const done = { ticketId: ticket.id, correlationId: ticket.correlationId, psaTicketId, row: d.row }
    const batched = this.d.batchedNotes
    if (batched && batchesNote(await psa.share())) {
      const now = clock().toISOString()
      const execution = await this.effects.remember(
        job,
        attempt.digest,
        integration,
        done,
        async (tx) => {
          await tx.tickets.recordOccurrence(ticket.id, now)
          await batched.add(tx, integration.id, ticket.id, job.messageId, note)
        },
        batchedUpdate(d.row, ticket.correlationId),
      )
      batched.handOver()
      return execution
    }
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
    return this.effects.remember(
      job,
      attempt.digest,
      integration,
      done,
      (tx) => tx.tickets.recordOccurrence(ticket.id, clock().toISOString()),
      updated(d.row, ticket.correlationId),
    )
  }

  /**
   * Claim the close, close in the PSA (the resolution note first), record. With closeOnlyUntouched the
   * ticket is read back first: one a technician has worked gets a note and stays open.
   */
  async close(
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
    // Set when the close call failed in a way that may have closed the ticket in the PSA.
    let holdUntil: string | undefined
    try {
      const mark = (again: boolean) => ({ marker: job.messageId, adopt: job.attempt > 1 || again })
      if (integration.settings.closedTickets.closeOnlyUntouched) {
        const read = await callPsa(psa, ticket.correlationId, policy, (client, call) =>
          client.readTickets([psaTicketId], call),
        )
        if (!read.ok) {
          const failed = failedCall('close', read.failure, ticket.correlationId)
          return deferral(read, policy) ?? (await recorder.record(job, integration, failed))
        }
        const now = read.value[0]
        if (now?.state === 'open' && now.worked) {
          const noted = await callPsa(psa, ticket.correlationId, policy, (client, call, again) =>
            client.appendNote(psaTicketId, leftOpenNote(job), { ...call, ...mark(again) }),
          )
          if (!noted.ok) {
            const failed = failedCall('close', noted.failure, ticket.correlationId)
            return deferral(noted, policy) ?? (await recorder.record(job, integration, failed))
          }
          claimEnded = true
          const done = {
            ticketId: ticket.id,
            correlationId: ticket.correlationId,
            psaTicketId,
            row: 'close-left-open',
          } as const
          return await this.effects.remember(
            job,
            attempt.digest,
            integration,
            done,
            (tx) => tx.tickets.releaseClose(ticket.id),
            leftOpen(ticket.correlationId),
          )
        }
      }
      // Notes still waiting for a batched note (near the PSA's limit) go with the resolution: the
      // closed ticket takes no note after it (docs/psa/README.md, "Near the limit"). Only a ticket that
      // ever had a line waiting is looked at (docs/performance.md#what-an-alert-pays-for-2026-12-02).
      const waiting =
        isStormTicket(ticket) || !ticket.batchedLines
          ? []
          : await this.d.store.storms.pendingLines(ticket.id, 1000)
      const resolution = noteText(job.facts, job.messageId, null)
      const close = {
        note: waiting.length > 0 ? `${resolution}\n\n${batchedNote(waiting.map((l) => l.line))}` : resolution,
        closedStatus: d.rule.ticket.closedStatus ?? psa.defaults.closedStatus ?? null,
      }
      const result = await callPsa(psa, ticket.correlationId, policy, (client, call, again) =>
        client.closeTicket(psaTicketId, close, { ...call, ...mark(again) }),
      )
      if (!result.ok && result.failure.retryable)
        holdUntil = new Date(clock().getTime() + psaSyncHoldMs).toISOString()
      const later = deferral(result, policy)
      if (later) return later
      if (!result.ok) {
        const failed = failedCall('close', result.failure, ticket.correlationId)
        const execution = await recorder.record(job, integration, failed, async (tx) => {
          await tx.tickets.releaseClose(ticket.id, holdUntil)
          return true
        })
        claimEnded = execution.kind === 'recorded'
        return execution
      }
      claimEnded = true
      const row = result.value.alreadyClosed ? 'already-closed' : 'close'
      const done = { ticketId: ticket.id, correlationId: ticket.correlationId, psaTicketId, row } as const
      const closedBy = row === 'close' ? 'alertbridge' : 'psa'
      return await this.effects.remember(
        job,
        attempt.digest,
        integration,
        done,
        async (tx) => {
          const now = clock().toISOString()
          await tx.tickets.completeClose(ticket.id, now, closedBy)
          await tx.storms.markNoted(
            waiting.map((l) => l.id),
            now,
          )
        },
        outcomeOfEffect(done),
      )
    } finally {
      if (!claimEnded) await writes.run((tx) => tx.tickets.releaseClose(ticket.id, holdUntil)).catch(() => {})
    }
  }

  /** Closed-ticket policy `reopen`: back to an open status in the PSA with the alert as a note, record. */
  async reopen(attempt: Attempt, integration: Integration, d: Of<'reopen'>): Promise<Step> {
    const { job, policy } = attempt
    const { clock, recorder } = this.d
    const { ticket } = d
    const psaTicketId = ticket.psaTicketId
    if (psaTicketId === null) return { kind: 'again' }
    const psa = await this.d.psa.open(integration.partnerId)
    const occurrence = job.facts.incidentStatus === 'OPEN' ? ticket.occurrenceCount + 1 : null
    const reopen = {
      note: `The alert came back after the ticket was closed; alertbridge reopened it.\n\n${noteText(job.facts, job.messageId, occurrence)}`,
      openStatus: d.rule.ticket.status ?? psa.defaults.status ?? null,
    }
    const result = await callPsa(psa, ticket.correlationId, policy, (client, call, again) =>
      client.reopenTicket(psaTicketId, reopen, {
        ...call,
        marker: job.messageId,
        adopt: job.attempt > 1 || again,
      }),
    )
    if (!result.ok) {
      // The reopen may have happened in the PSA: two-way sync leaves the ticket to this alert's retries.
      if (result.failure.retryable) {
        const until = new Date(clock().getTime() + psaSyncHoldMs).toISOString()
        await this.d.writes.run((tx) => tx.tickets.holdPsaSync(ticket.id, until))
      }
      const failed = failedCall('update', result.failure, ticket.correlationId)
      return deferral(result, policy) ?? recorder.record(job, integration, failed)
    }
    const done: Pick<PsaEffect, 'ticketId' | 'correlationId' | 'psaTicketId' | 'row'> = {
      ticketId: ticket.id,
      correlationId: ticket.correlationId,
      psaTicketId,
      row: 'reopen-closed',
    }
    return this.effects.remember(
      job,
      attempt.digest,
      integration,
      done,
      (tx) => tx.tickets.reopen(ticket.id, clock().toISOString()),
      reopened(ticket.correlationId),
    )
  }
}
