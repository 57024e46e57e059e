// A storm ticket's batched notes (docs/partner-api.md#storm-control), a job of the one queue: every
// fold, update and resolution of a folded incident is a line; `storm-note` writes the lines that
// arrived since the last note as one PSA note, at most one a minute per storm ticket (each line queues
// the job a minute ahead, coalescing with one still queued). Once self-healing is on and every folded
// incident has resolved, the note is the resolution and the storm ticket is closed (in the PSA: here it
// was closed when that last RESOLVED was answered `closed`, folds.ts). The same job writes
// an ordinary ticket's batched notes, kept while its PSA's request budget was nearly spent
// (docs/psa/README.md, "Near the limit"); near the limit itself a note waits and a close goes.
import type { FastifyBaseLogger } from 'fastify'
import Type, { type Static } from 'typebox'
import { v7 as uuidv7 } from 'uuid'
import type { Clock } from '../../../platform/clock.js'
import type { Ticket } from '../../../platform/core/types.js'
import type { Store } from '../../../platform/db/store.js'
import type { WriteBatcher } from '../../../platform/db/write-batch.js'
import { defineJob, jobKind } from '../../../platform/queue/jobs.js'
import type { JobKindEntry, JobProducer, JobResult, RunningJob } from '../../../platform/queue/port.js'
import { afterFailure } from '../../../psa/index.js'
import { batchedNote, noteWaits } from '../../domain/note-batching.js'
import { psaSyncHoldMs } from '../../executor/follow-ups.js'
import type { OpenPsa, PsaCalls } from '../../executor/psa-calls.js'
import type { TicketReservations } from '../../executor/reservations.js'
import { isStormTicket, stormNote, stormResolved } from './storm.js'

export const stormNoteJob = defineJob({
  kind: 'storm-note',
  payload: Type.Object({
    integrationId: Type.String({ minLength: 1 }),
    ticketId: Type.String({ minLength: 1 }),
  }),
  retry: { delaysMs: [10_000, 60_000, 300_000, 900_000], maxDelayMs: 1_800_000 },
})

type Payload = Static<typeof stormNoteJob.payload>

/** The most lines one storm note carries; the rest go in the next. */
const linesPerNote = 200
/** The most alerts' notes one batched note of an ordinary ticket carries (each is several lines). */
const notesPerBatch = 20

export interface StormNoteDeps {
  store: Store
  writes: Pick<WriteBatcher, 'run'>
  clock: Clock
  log: FastifyBaseLogger
  psa: PsaCalls
  reservations: TicketReservations
  queue: Pick<JobProducer, 'enqueue' | 'handOver'>
  /** At most one note per storm ticket this often (a minute). */
  intervalMs: number
}

export class StormNotes {
  constructor(private readonly d: StormNoteDeps) {}

  /** Queues the storm ticket's next note an interval ahead, inside the caller's transaction. */
  async schedule(tx: Store, integrationId: string, ticketId: string): Promise<void> {
    const runAt = new Date(this.d.clock().getTime() + this.d.intervalMs)
    const job = stormNoteJob.job({
      id: uuidv7(),
      payload: { integrationId, ticketId },
      dedupeKey: `${stormNoteJob.kind}:${ticketId}`,
      runAt,
    })
    await this.d.queue.enqueue(tx, [job])
  }

  /**
   * An ordinary ticket's note kept for its next batched note, with that note queued (near the PSA's
   * request limit: docs/psa/README.md, "Near the limit"); inside the caller's transaction.
   */
  async add(
    tx: Store,
    integrationId: string,
    ticketId: string,
    messageId: string,
    note: string,
  ): Promise<void> {
    const now = this.d.clock().toISOString()
    await tx.storms.addLine(ticketId, { id: uuidv7(), line: note, messageId, now })
    await this.schedule(tx, integrationId, ticketId)
  }

  handOver(): void {
    this.d.queue.handOver()
  }

  kind(): JobKindEntry {
    return jobKind(stormNoteJob, (job) => this.run(job))
  }

  async run(job: RunningJob<Payload>): Promise<JobResult> {
    const { store, clock } = this.d
    const ticket = await store.tickets.get(job.payload.ticketId)
    if (!ticket) return { kind: 'done' }
    if (ticket.status === 'creating' || ticket.status === 'closing')
      return { kind: 'wait', reason: `the storm ticket is ${ticket.status}`, notBeforeMs: 5000 }
    const storm = isStormTicket(ticket)
    const [lines, counts, integration] = await Promise.all([
      store.storms.pendingLines(ticket.id, storm ? linesPerNote : notesPerBatch),
      store.storms.counts(ticket.id),
      store.integrations.findById(job.payload.integrationId),
    ])
    const now = clock().toISOString()
    const ids = lines.map((l) => l.id)
    // A storm ticket closed here by its last RESOLVED, whose closing lines the PSA has not heard yet.
    const closedHere =
      storm && ticket.status === 'closed' && ticket.closedBy === 'alertbridge' && lines.length > 0
    if (!integration || (ticket.status === 'closed' && !closedHere) || ticket.psaTicketId === null) {
      // Nothing to write to: the lines are dropped.
      await this.d.writes.run((tx) => tx.storms.markNoted(ids, now))
      return { kind: 'done' }
    }
    const closing =
      closedHere || (storm && stormResolved(integration.settings.selfHealing, counts.open, counts.folded))
    if (!closing && lines.length === 0) return { kind: 'done' }
    const psa = await this.d.psa.open(integration.partnerId)
    // Near the PSA's limit a note waits; a close goes first (docs/psa/README.md, "Near the limit").
    if (!closing && noteWaits(await psa.share()))
      return {
        kind: 'wait',
        reason: "the PSA's request budget is nearly spent",
        notBeforeMs: this.d.intervalMs,
      }
    const text = storm
      ? await this.stormText(ticket, integration.vendorId, integration.id, counts, lines)
      : batchedNote(lines.map((l) => l.line))
    const closingNote = `${text}\n\nEvery folded alert has resolved.`
    const result = closedHere
      ? await this.closeInPsa(job, psa, ticket, integration.id, closingNote)
      : closing
        ? await this.close(job, psa, ticket, integration.id, closingNote)
        : await this.append(job, psa, ticket, text)
    if (result !== null) return result
    await this.d.writes.run(async (tx) => {
      await tx.storms.markNoted(ids, now)
      if (!closing && lines.length === (storm ? linesPerNote : notesPerBatch))
        await this.schedule(tx, integration.id, ticket.id)
    })
    this.handOver()
    return { kind: 'done' }
  }

  private async stormText(
    ticket: Ticket,
    vendorId: string,
    integrationId: string,
    counts: { folded: number; open: number },
    lines: readonly { line: string }[],
  ): Promise<string> {
    const [vendor, account] = await Promise.all([
      this.d.store.vendors.findById(vendorId),
      this.d.store.vendorData.findAccount(integrationId, ticket.accountId),
    ])
    return stormNote(
      counts.folded,
      counts.open,
      vendor?.name ?? 'the vendor',
      account?.name ?? ticket.accountId,
      lines.map((l) => l.line),
    )
  }

  /** One note; null when it was written. */
  private async append(
    job: RunningJob<Payload>,
    psa: OpenPsa,
    ticket: Ticket,
    note: string,
  ): Promise<JobResult | null> {
    const psaTicketId = ticket.psaTicketId ?? ''
    const result = await psa.call(ticket.correlationId, (client, call) =>
      client.appendNote(psaTicketId, note, { ...call, marker: job.id, adopt: job.attempt > 1 }),
    )
    return result.ok ? null : afterFailure(result.failure, 'storm note')
  }

  /** The closing note and the close, under the ticket's close claim; null when it closed. */
  private async close(
    job: RunningJob<Payload>,
    psa: OpenPsa,
    ticket: Ticket,
    integrationId: string,
    note: string,
  ): Promise<JobResult | null> {
    const { writes, clock, reservations } = this.d
    const claimed = await reservations.claimClose(integrationId, ticket, (w) => writes.run(w))
    if (claimed !== 'claimed') return { kind: 'wait', reason: 'a close is in flight', notBeforeMs: 5000 }
    let ended = false
    try {
      const close = { note, closedStatus: await this.closedStatus(integrationId, ticket, psa) }
      const psaTicketId = ticket.psaTicketId ?? ''
      const result = await psa.call(ticket.correlationId, (client, call) =>
        client.closeTicket(psaTicketId, close, { ...call, marker: job.id, adopt: job.attempt > 1 }),
      )
      if (!result.ok) return afterFailure(result.failure, 'storm close')
      ended = true
      const closedBy = result.value.alreadyClosed ? 'psa' : 'alertbridge'
      await writes.run((tx) => tx.tickets.completeClose(ticket.id, clock().toISOString(), closedBy))
      return null
    } finally {
      if (!ended) await writes.run((tx) => tx.tickets.releaseClose(ticket.id)).catch(() => {})
      reservations.released(integrationId)
    }
  }

  /**
   * The closing note and the close in the PSA of a storm ticket closed here already; null when it
   * closed. No claim: the ticket is closed here, so no alert closes it again. While the close is
   * retried, two-way sync leaves the ticket alone (what the PSA shows meanwhile is not a reopen).
   */
  private async closeInPsa(
    job: RunningJob<Payload>,
    psa: OpenPsa,
    ticket: Ticket,
    integrationId: string,
    note: string,
  ): Promise<JobResult | null> {
    const { writes, clock } = this.d
    const close = { note, closedStatus: await this.closedStatus(integrationId, ticket, psa) }
    const psaTicketId = ticket.psaTicketId ?? ''
    const result = await psa.call(ticket.correlationId, (client, call) =>
      client.closeTicket(psaTicketId, close, { ...call, marker: job.id, adopt: job.attempt > 1 }),
    )
    if (result.ok) return null
    const until = new Date(clock().getTime() + psaSyncHoldMs).toISOString()
    await writes.run((tx) => tx.tickets.holdPsaSync(ticket.id, until))
    return afterFailure(result.failure, 'storm close')
  }

  /** The PSA status a closed ticket gets: its rule's, else the connection's default. */
  private async closedStatus(integrationId: string, ticket: Ticket, psa: OpenPsa): Promise<string | null> {
    const rules = await this.d.store.rules.list(integrationId)
    const rule = rules.find((r) => r.id === ticket.ruleId)
    return rule?.ticket.closedStatus ?? psa.defaults.closedStatus ?? null
  }
}
