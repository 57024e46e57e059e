// Two-way sync's rows (docs/psa/sync.md): each partner's psa_sync row (how its PSA is heard, the push
// URL's token digest and the push's sealed secret), and the ticket reads and changes sync makes.
import type { Kysely, Selectable } from 'kysely'
import type { Database } from '../platform/db/schema.js'
import { defineRepository } from '../platform/db/store.js'
import type { CryptoBox } from '../platform/security/crypto-box.js'
import type { PsaChange } from './psa-sync.js'
import { type SyncedTicket, syncedColumns, toSynced } from './synced-tickets.js'
import type { PsaSyncTable } from './tables.js'

export type { SyncedTicket } from './synced-tickets.js'

/** push: the PSA pushes (registered through its API); manual: an administrator set the push up by
 * hand (or must); poll: the reconciliation poll alone hears the PSA. */
export type PsaSyncMechanism = 'push' | 'manual' | 'poll'

export interface PsaSyncLink {
  partnerId: string
  tokenDigest: string
  /** The push's secret, in the clear: the URL's token is derived from it (psa-sync/secrets.ts). */
  secret: string
  psaKind: string
  mechanism: PsaSyncMechanism
  registrationId: string | null
  /** The PSA's word on the registration, an administrator's steps (JSON array), or why it failed. */
  detail: string | null
  registeredAt: string | null
  lastPushAt: string | null
  lastPollAt: string | null
  lastHeardAt: string | null
  /** The last poll round was held back by the connection's budget: until when, and why. */
  held: { until: string; reason: string } | null
  pushesRefused: number
}

const mechanisms: readonly PsaSyncMechanism[] = ['push', 'manual', 'poll']

/**
 * Rows or ids per statement where a list comes from a push or a PSA's answer: far below SQLite's
 * limit of bound variables (32,766) and PostgreSQL's (65,535), whatever the list's length.
 */
const perStatement = 250

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = []
  for (let i = 0; i < items.length; i += perStatement) out.push(items.slice(i, i + perStatement))
  return out
}

export class PsaSyncRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly box: CryptoBox,
  ) {}

  private toLink(r: Selectable<PsaSyncTable>): PsaSyncLink {
    return {
      partnerId: r.partner_id,
      tokenDigest: r.token_digest,
      secret: this.box.open(r.secret_enc),
      psaKind: r.psa_kind,
      mechanism: mechanisms.find((m) => m === r.mechanism) ?? 'poll',
      registrationId: r.registration_id,
      detail: r.detail,
      registeredAt: r.registered_at,
      lastPushAt: r.last_push_at,
      lastPollAt: r.last_poll_at,
      lastHeardAt: r.last_heard_at,
      held: r.held_until && r.held_reason ? { until: r.held_until, reason: r.held_reason } : null,
      pushesRefused: r.pushes_refused,
    }
  }

  async find(partnerId: string): Promise<PsaSyncLink | null> {
    const r = await this.db
      .selectFrom('psa_sync')
      .selectAll()
      .where('partner_id', '=', partnerId)
      .executeTakeFirst()
    return r ? this.toLink(r) : null
  }

  async findByDigest(tokenDigest: string): Promise<PsaSyncLink | null> {
    const r = await this.db
      .selectFrom('psa_sync')
      .selectAll()
      .where('token_digest', '=', tokenDigest)
      .executeTakeFirst()
    return r ? this.toLink(r) : null
  }

  /** A new link (a new secret, hence a new URL), replacing the partner's old one. */
  async replace(
    link: { partnerId: string; tokenDigest: string; secret: string; psaKind: string },
    now: string,
  ) {
    await this.db.deleteFrom('psa_sync').where('partner_id', '=', link.partnerId).execute()
    await this.db
      .insertInto('psa_sync')
      .values({
        partner_id: link.partnerId,
        token_digest: link.tokenDigest,
        secret_enc: this.box.seal(link.secret),
        psa_kind: link.psaKind,
        mechanism: 'poll',
        created_at: now,
        updated_at: now,
      })
      .execute()
  }

  /** `onlyIf`: only while the row still holds that registration (one made meanwhile is left alone). */
  async setRegistration(
    partnerId: string,
    r: { mechanism: PsaSyncMechanism; registrationId: string | null; detail: string | null },
    now: string,
    onlyIf?: { registrationId: string },
  ): Promise<void> {
    let q = this.db.updateTable('psa_sync').where('partner_id', '=', partnerId)
    if (onlyIf) q = q.where('registration_id', '=', onlyIf.registrationId)
    await q
      .set({
        mechanism: r.mechanism,
        registration_id: r.registrationId,
        detail: r.detail,
        registered_at: r.mechanism === 'poll' ? null : now,
        updated_at: now,
      })
      .execute()
  }

  /** The PSA was heard: a push that verified, or a poll that read tickets back (no longer held). */
  async heard(partnerId: string, via: 'push' | 'poll', now: string): Promise<void> {
    await this.db
      .updateTable('psa_sync')
      .set(
        via === 'push'
          ? { last_push_at: now, last_heard_at: now }
          : { last_poll_at: now, last_heard_at: now, held_until: null, held_reason: null },
      )
      .where('partner_id', '=', partnerId)
      .execute()
  }

  /** A poll round ran with nothing to read (no open ticket due): nothing holds it back. */
  async polled(partnerId: string, now: string): Promise<void> {
    await this.db
      .updateTable('psa_sync')
      .set({ last_poll_at: now, held_until: null, held_reason: null })
      .where('partner_id', '=', partnerId)
      .execute()
  }

  /** A poll round the connection's budget held back: the poll waits until `until`, for `reason`. */
  async held(partnerId: string, until: string, reason: string): Promise<void> {
    await this.db
      .updateTable('psa_sync')
      .set({ held_until: until, held_reason: reason.slice(0, 500) })
      .where('partner_id', '=', partnerId)
      .execute()
  }

  async refused(partnerId: string): Promise<void> {
    await this.db
      .updateTable('psa_sync')
      .set((eb) => ({ pushes_refused: eb('pushes_refused', '+', 1) }))
      .where('partner_id', '=', partnerId)
      .execute()
  }

  /** Ticket ids a push named, to be read back. */
  async addPending(partnerId: string, psaTicketIds: readonly string[], now: string): Promise<void> {
    for (const part of chunks([...new Set(psaTicketIds)]))
      await this.db
        .insertInto('psa_sync_pending')
        .values(part.map((id) => ({ partner_id: partnerId, psa_ticket_id: id, created_at: now })))
        .onConflict((oc) => oc.columns(['partner_id', 'psa_ticket_id']).doNothing())
        .execute()
  }

  /** Takes up to `limit` pending ids of the partner (they are removed; a failed read puts them back). */
  async takePending(partnerId: string, limit: number): Promise<string[]> {
    const ids = (
      await this.db
        .selectFrom('psa_sync_pending')
        .select('psa_ticket_id')
        .where('partner_id', '=', partnerId)
        .orderBy('created_at')
        .limit(limit)
        .execute()
    ).map((r) => r.psa_ticket_id)
    for (const part of chunks(ids))
      await this.db
        .deleteFrom('psa_sync_pending')
        .where('partner_id', '=', partnerId)
        .where('psa_ticket_id', 'in', part)
        .execute()
    return ids
  }

  async hasPending(partnerId: string): Promise<boolean> {
    const r = await this.db
      .selectFrom('psa_sync_pending')
      .select('psa_ticket_id')
      .where('partner_id', '=', partnerId)
      .limit(1)
      .executeTakeFirst()
    return r !== undefined
  }

  /** Every partner, for the poll's first scheduling. */
  async partnerIds(): Promise<string[]> {
    return (await this.db.selectFrom('partners').select('id').execute()).map((r) => r.id)
  }

  /** The partner's tickets (any status) that carry these PSA ticket ids. */
  async byPsaTicketIds(partnerId: string, psaTicketIds: readonly string[]): Promise<SyncedTicket[]> {
    const found: SyncedTicket[] = []
    for (const part of chunks([...new Set(psaTicketIds)])) {
      const rows = await this.ticketQuery()
        .where('partner_id', '=', partnerId)
        .where('psa_ticket_id', 'in', part)
        .execute()
      found.push(...rows.map(toSynced))
    }
    return found
  }

  async markChecked(ids: readonly string[], now: string): Promise<void> {
    for (const part of chunks(ids))
      await this.db.updateTable('tickets').set({ psa_checked_at: now }).where('id', 'in', part).execute()
  }

  /** Writes a PSA-side change on the ticket; false when the ticket moved on meanwhile (nothing written). */
  async applyChange(id: string, fromStatus: string, change: PsaChange, now: string): Promise<boolean> {
    const q = this.db.updateTable('tickets').where('id', '=', id).where('status', '=', fromStatus)
    const set =
      change.kind === 'closed'
        ? {
            status: 'closed',
            closed_at: now,
            closed_by: 'psa',
            psa_status: change.statusName,
            dedup_open_key: null,
          }
        : change.kind === 'reopened'
          ? { status: 'open', closed_at: null, closed_by: null, psa_status: change.statusName }
          : change.kind === 'merged'
            ? { psa_ticket_id: change.into, merged_from: change.from }
            : fromStatus === 'closed'
              ? { psa_deleted_at: now }
              : {
                  status: 'closed',
                  closed_at: now,
                  closed_by: 'psa',
                  psa_deleted_at: now,
                  dedup_open_key: null,
                }
    const r = await q.set({ ...set, updated_at: now, psa_checked_at: now }).executeTakeFirst()
    return Number(r.numUpdatedRows) === 1
  }

  private ticketQuery() {
    return this.db.selectFrom('tickets').select(syncedColumns)
  }
}

declare module '../platform/db/store.js' {
  interface Repositories {
    /** Two-way sync: how each partner's PSA is heard, and the ticket reads and changes it makes. */
    psaSync: PsaSyncRepository
  }
}
defineRepository('psaSync', (kysely, box) => new PsaSyncRepository(kysely, box))
