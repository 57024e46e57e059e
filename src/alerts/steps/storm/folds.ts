// Carries out row `storm` (docs/decision-table.md#storm) for the executor: an OPEN folds into the
// account's storm ticket (making it first when there is none: reserved under the account's storm key,
// so concurrent alerts make one, the others wait and fold into it), and an UPDATE or RESOLVED of a
// folded incident becomes a line. Each fold, line and the alert's outcome are one write; the PSA
// hears of them in the storm ticket's next batched note (notes.ts), not once per alert.
import { v7 as uuidv7 } from 'uuid'
import type { Integration, Vendor } from '../../../tenants/index.js'
import type { Decision } from '../../domain/decide.js'
import { deferral } from '../../executor/execution.js'
import { type Attempt, busy, type ExecutorDeps, psaSyncHoldMs, type Step } from '../../executor/follow-ups.js'
import { callPsa, failedCall } from '../../executor/psa-calls.js'
import { newTicket, ticketDescription } from '../../tickets/ticket-text.js'
import type { StormNotes } from './notes.js'
import {
  lastResolved,
  type StormDecision,
  type StormFollowUp,
  type StormOpen,
  stormClosedOutcome,
  stormKey,
  stormLine,
  stormOutcome,
  stormResolved,
  stormTitle,
} from './storm.js'

export class StormFolds {
  constructor(
    private readonly d: ExecutorDeps,
    private readonly notes: StormNotes,
  ) {}

  async run(attempt: Attempt, integration: Integration, vendor: Vendor, d: StormDecision): Promise<Step> {
    // A storm ticket still being made: wait for it, then decide again.
    if (d.ticket && d.ticket.status === 'creating') {
      const made = await this.d.reservations.createdTicketId(integration.id, d.ticket)
      if (made === null) return { kind: 'again' }
    }
    if (d.step === 'follow-up') return this.line(attempt, integration, d)
    return d.ticket ? this.fold(attempt, integration, d) : this.open(attempt, integration, vendor, d)
  }

  /** Folds the OPEN into the storm ticket: a folded incident (unless it repeats one) and a line. */
  private async fold(attempt: Attempt, integration: Integration, d: StormOpen): Promise<Step> {
    const { job } = attempt
    const ticket = d.ticket!
    const now = this.d.clock().toISOString()
    const facts = job.facts
    const line = stormLine('OPEN', facts.title, now, d.folded !== null, facts.correlationId ?? null)
    const execution = await this.d.recorder.record(
      job,
      integration,
      stormOutcome(ticket.correlationId, d.why),
      async (tx) => {
        if (!d.folded)
          await tx.storms.insertFold(this.newFold(attempt, integration, ticket.id, now, d.dedupKey))
        await tx.storms.addLine(ticket.id, { id: uuidv7(), line, messageId: job.messageId, now })
        await tx.tickets.recordOccurrence(ticket.id, now)
        await this.notes.schedule(tx, integration.id, ticket.id)
        return true
      },
    )
    this.notes.handOver()
    return execution
  }

  /**
   * An UPDATE or RESOLVED of a folded incident: a line, and a RESOLVED resolves the incident. The
   * RESOLVED of the last one still open, self-healing on, is answered closed: counted in the write,
   * under the storm ticket's lock, so of concurrent RESOLVEDs of the last incidents exactly the one that
   * leaves none open says closed. From that answer on the storm ticket is closed here (the same write),
   * so a later alert naming it answers as for any closed ticket; the PSA hears of it with the next note
   * (notes.ts), and two-way sync leaves the ticket alone until then.
   */
  private async line(attempt: Attempt, integration: Integration, d: StormFollowUp): Promise<Step> {
    const { job } = attempt
    const now = this.d.clock().toISOString()
    const f = job.facts
    const line = stormLine(f.incidentStatus, f.title, now, false, d.folded?.correlationId ?? null)
    const text = d.folded ? line : `${line} (no open folded alert matches it)`
    const cid = d.ticket.correlationId
    const execution = await this.d.writes.run(async (tx) => {
      await tx.storms.lockTicket(d.ticket.id)
      // Resolving again changes nothing, so it may stand where the message turns out recorded already.
      const resolved =
        d.folded !== null &&
        f.incidentStatus === 'RESOLVED' &&
        (await tx.storms.resolveFolded(d.folded.id, now))
      const counts = resolved ? await tx.storms.counts(d.ticket.id) : null
      const closes =
        counts !== null && stormResolved(integration.settings.selfHealing, counts.open, counts.folded)
      const outcome = closes ? stormClosedOutcome(cid, `${d.why} ${lastResolved}`) : stormOutcome(cid, d.why)
      return this.d.recorder.recordIn(tx, job, integration, outcome, async (t) => {
        await t.storms.addLine(d.ticket.id, { id: uuidv7(), line: text, messageId: job.messageId, now })
        if (closes) {
          await t.tickets.completeClose(d.ticket.id, now)
          await t.tickets.holdPsaSync(d.ticket.id, new Date(Date.parse(now) + psaSyncHoldMs).toISOString())
        }
        await this.notes.schedule(t, integration.id, d.ticket.id)
        return true
      })
    })
    this.notes.handOver()
    return execution
  }

  /**
   * The account's first fold in this window: reserve the storm ticket under the account's storm key
   * (a concurrent alert that holds it makes this one wait and fold into it), create it in the PSA
   * with the alert in its description, then record the fold with the alert's outcome.
   */
  private async open(
    attempt: Attempt,
    integration: Integration,
    vendor: Vendor,
    d: StormOpen,
  ): Promise<Step> {
    const { job, policy } = attempt
    const { clock, recorder, reservations, writes, store } = this.d
    const psa = await this.d.psa.open(integration.partnerId)
    const key = stormKey(job.facts.accountId)
    const account = await store.vendorData.findAccount(integration.id, job.facts.accountId)
    const title = stormTitle(null, vendor.name, account?.name ?? job.facts.accountId)
    const create: Extract<Decision, { kind: 'create' }> = {
      kind: 'create',
      rule: d.rule,
      mapping: d.mapping,
      correlationId: d.correlationId,
      dedupKey: key,
      dedupOpenKey: key,
      retireTicketId: d.retireTicketId,
      replaces: null,
    }
    const ticketId = uuidv7()
    const facts = { ...job.facts, title }
    const reserved = await reservations.reserve(ticketId, integration, facts, create, psa.kind, (w) =>
      writes.run(w),
    )
    if (typeof reserved === 'object') return busy(reserved)
    let keep = false
    try {
      const ticket = {
        ...newTicket(job.facts, create, psa.defaults, job.messageId),
        summary: title,
        description: [
          `Storm control: ${d.why}`,
          'Later alerts for this account are listed in notes, at most one a minute; the ticket closes once every folded alert has resolved (with self-healing on).',
          '',
          `First alert: ${job.facts.title}`,
          ticketDescription(job.facts, d.correlationId, job.messageId),
        ].join('\n'),
      }
      const adopt = job.attempt > 1 || reserved === 'after-dead'
      const result = await callPsa(psa, d.correlationId, policy, (client, call, again) =>
        client.createTicket(ticket, { ...call, ref: d.correlationId, adopt: adopt || again }),
      )
      const later = deferral(result, policy)
      if (later) return later
      if (!result.ok)
        return await recorder.record(job, integration, failedCall('create', result.failure, null))
      keep = true
      const psaTicketId = result.value.ticketId
      const now = clock().toISOString()
      const line = stormLine('OPEN', job.facts.title, now, false, job.facts.correlationId ?? null)
      return await recorder.record(job, integration, stormOutcome(d.correlationId, d.why), async (tx) => {
        await tx.tickets.completeCreation(ticketId, psaTicketId, now)
        await tx.storms.insertFold(this.newFold(attempt, integration, ticketId, now, d.dedupKey))
        await tx.storms.addLine(ticketId, { id: uuidv7(), line, messageId: job.messageId, now }, true)
        return true
      })
    } finally {
      if (!keep) await writes.run((tx) => tx.tickets.releaseReservation(ticketId)).catch(() => {})
      reservations.released(integration.id)
    }
  }

  private newFold(
    attempt: Attempt,
    integration: Integration,
    stormTicketId: string,
    now: string,
    dedupKey: string,
  ) {
    const f = attempt.job.facts
    return {
      id: uuidv7(),
      integrationId: integration.id,
      stormTicketId,
      messageId: attempt.job.messageId,
      // The webhook strategy's preview may have promised a correlationId of its own: it names the incident.
      correlationId: f.correlationId ?? attempt.job.newCorrelationId ?? null,
      dedupKey,
      title: f.title,
      now,
    }
  }
}
