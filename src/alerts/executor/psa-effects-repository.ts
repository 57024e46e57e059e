// The journal of PSA effects whose outcome is not recorded yet (alerts/executor/psa-effect.ts): written the
// moment a PSA call succeeds, removed in the transaction that records the outcome.
import type { Insertable, Kysely, Selectable } from 'kysely'
import { type Prepared, prepared, preparedRow } from '../../platform/db/prepared.js'
import type { Database } from '../../platform/db/schema.js'
import { defineRepository } from '../../platform/db/store.js'
import type { Strategy } from '../../webhooks/index.js'
import type { PsaEffectsTable } from '../tables.js'
import type { EffectRow, PsaEffect } from './psa-effect.js'

// Written and removed for every PSA call that changed something: prepared
// (docs/decisions/speed/prepared-outcome-writes.md).
const insertEffect = preparedRow((db, row: Insertable<PsaEffectsTable>) =>
  db
    .insertInto('psa_effects')
    .values(row)
    .onConflict((oc) => oc.column('message_id').doNothing()),
)
const removeEffect = preparedRow((db, v: { messageId: string }) =>
  db.deleteFrom('psa_effects').where('message_id', '=', v.messageId),
)

type OrphanMatch = 'request_digest' | 'correlation_id'

// Looked up on every synchronous alert: prepared per way of matching and list of rows. The lists are
// the executor's own constants (psa-effect.ts says which rows an operation may have made), so a
// handful of statements serve every call; a list never seen before is prepared once too.
const orphanStatements = new Map<
  string,
  Prepared<[integrationId: string, value: string, abandonedBefore: string], Selectable<PsaEffectsTable>>
>()

function orphansBy(match: OrphanMatch, rows: readonly EffectRow[]) {
  const key = `${match}:${rows.join(',')}`
  let statement = orphanStatements.get(key)
  if (!statement) {
    const inRows = [...rows]
    statement = prepared(
      3,
      (db: Kysely<Database>, integrationId: string, value: string, abandonedBefore: string) =>
        db
          .selectFrom('psa_effects')
          .selectAll()
          .where('integration_id', '=', integrationId)
          .where(match, '=', value)
          .where('strategy', '=', 'sync')
          .where('row', 'in', inRows)
          .where((eb) => eb.or([eb('orphaned_at', 'is not', null), eb('created_at', '<', abandonedBefore)])),
    )
    orphanStatements.set(key, statement)
  }
  return statement
}

function toEffect(r: Selectable<PsaEffectsTable>): PsaEffect {
  return {
    messageId: r.message_id,
    integrationId: r.integration_id,
    ticketId: r.ticket_id,
    correlationId: r.correlation_id,
    psaTicketId: r.psa_ticket_id,
    row: r.row as EffectRow,
    strategy: r.strategy as Strategy,
    requestDigest: r.request_digest,
    orphanedAt: r.orphaned_at,
    createdAt: r.created_at,
  }
}

export interface OrphanQuery {
  integrationId: string
  requestDigest: string
  /** Rows a same request may have made. */
  bySameRequest: readonly EffectRow[]
  /** With the alert's correlationId, the rows that one may have made. */
  byCorrelationId: { correlationId: string; rows: readonly EffectRow[] } | null
  /** Effects written before this are orphans even if nobody said so (their process died). */
  abandonedBefore: string
}

export class PsaEffectRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** False when this message's effect is written down already (by another attempt of it). */
  async insert(e: PsaEffect): Promise<boolean> {
    const result = await insertEffect(this.db, {
      message_id: e.messageId,
      integration_id: e.integrationId,
      ticket_id: e.ticketId,
      correlation_id: e.correlationId,
      psa_ticket_id: e.psaTicketId,
      row: e.row,
      strategy: e.strategy,
      request_digest: e.requestDigest,
      orphaned_at: e.orphanedAt,
      created_at: e.createdAt,
    })
    return Number(result.numAffectedRows ?? 0) === 1
  }

  async find(messageId: string): Promise<PsaEffect | null> {
    const r = await this.db
      .selectFrom('psa_effects')
      .selectAll()
      .where('message_id', '=', messageId)
      .executeTakeFirst()
    return r ? toEffect(r) : null
  }

  /**
   * The oldest effect of a synchronous call that gave up recording its outcome (or whose process died)
   * and that this alert is another attempt of. A webhook-strategy effect is never an orphan: its own
   * job runs again and records it.
   *
   * One query per way of matching, each on its own index (by request, by correlationId), and the oldest of
   * what they find: the two ways joined by OR made SQLite build a row set per run, ten times the cost of
   * both lookups, on every synchronous alert (docs/decisions/speed/orphan-lookup-two-queries.md). Each
   * finds a handful at most.
   */
  async findOrphan(q: OrphanQuery): Promise<PsaEffect | null> {
    const orphans = (match: OrphanMatch, value: string, rows: readonly EffectRow[]) =>
      rows.length === 0
        ? Promise.resolve([])
        : orphansBy(match, rows)(this.db, q.integrationId, value, q.abandonedBefore)
    const c = q.byCorrelationId
    const found = (
      await Promise.all([
        orphans('request_digest', q.requestDigest, q.bySameRequest),
        c ? orphans('correlation_id', c.correlationId, c.rows) : [],
      ])
    ).flat()
    const oldest = found.reduce<(typeof found)[number] | null>(
      (a, r) => (a === null || r.created_at < a.created_at ? r : a),
      null,
    )
    return oldest ? toEffect(oldest) : null
  }

  async markOrphaned(messageId: string, now: string): Promise<void> {
    await this.db
      .updateTable('psa_effects')
      .set({ orphaned_at: now })
      .where('message_id', '=', messageId)
      .execute()
  }

  /** Removes the effect of `messageId`; false when there was none (another attempt took it). */
  async remove(messageId: string): Promise<boolean> {
    const r = await removeEffect(this.db, { messageId })
    return Number(r.numAffectedRows ?? 0) === 1
  }

  /**
   * Removes effects written before `cutoff` that nobody will record any more: a synchronous call's
   * (its answer was a 500 and, by now, nobody sent it again). A webhook job's effect stays until its
   * job records it. Their tickets keep their rows.
   */
  async prune(cutoff: string, limit: number): Promise<number> {
    const old = this.db
      .selectFrom('psa_effects')
      .select('message_id')
      .where('strategy', '=', 'sync')
      .where('created_at', '<', cutoff)
      .limit(limit)
    const r = await this.db.deleteFrom('psa_effects').where('message_id', 'in', old).executeTakeFirst()
    return Number(r.numDeletedRows)
  }

  /** How many effects wait for their outcome to be recorded (a gauge). */
  async countUnrecorded(): Promise<number> {
    const r = await this.db
      .selectFrom('psa_effects')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
    return Number(r.n)
  }
}

declare module '../../platform/db/store.js' {
  interface Repositories {
    psaEffects: PsaEffectRepository
  }
}
defineRepository('psaEffects', (kysely) => new PsaEffectRepository(kysely))
