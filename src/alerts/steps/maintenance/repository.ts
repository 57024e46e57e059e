// The maintenance windows' rows (migrations 0020_maintenance_windows, 0026_maintenance_upcoming): the
// windows of each integration with their occurrences ahead, and the alerts a window in hold mode keeps
// until its end.
import type { Kysely, Selectable } from 'kysely'
import type { AlertFacts } from '../../../platform/core/types.js'
import { parseJson } from '../../../platform/db/rows.js'
import type { Database } from '../../../platform/db/schema.js'
import { defineRepository } from '../../../platform/db/store.js'
import type { Strategy } from '../../../webhooks/index.js'
import type {
  HeldRef,
  MaintenanceMode,
  MaintenanceSchedule,
  MaintenanceScope,
  MaintenanceWindow,
} from './maintenance.js'
import type { MaintenanceHeldTable, MaintenanceWindowsTable } from './tables.js'
import { type Upcoming, upcomingFromJson, upcomingJson } from './upcoming.js'

const toWindow = (r: Selectable<MaintenanceWindowsTable>): MaintenanceWindow => ({
  id: r.id,
  integrationId: r.integration_id,
  name: r.name,
  mode: r.mode as MaintenanceMode,
  schedule: parseJson<MaintenanceSchedule>(r.schedule),
  scope: parseJson<MaintenanceScope>(r.scope),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  upcoming: upcomingFromJson(r.upcoming),
})

const toColumns = (w: MaintenanceWindow) => ({
  name: w.name,
  mode: w.mode,
  schedule: JSON.stringify(w.schedule),
  scope: JSON.stringify(w.scope),
  ends_at: w.schedule.kind === 'once' ? w.schedule.endsAt : null,
  upcoming: w.upcoming ? upcomingJson(w.upcoming) : null,
  updated_at: w.updatedAt,
})

/** An alert held by a window: what its release runs again. */
export interface HeldAlert {
  id: string
  integrationId: string
  windowId: string
  windowName: string
  correlationId: string
  messageId: string
  releaseMessageId: string
  vendorId: string
  partnerId: string
  strategy: Strategy
  /** The alert as the executor was given it: its request (credentials removed) and facts. */
  request: unknown
  facts: AlertFacts
  newCorrelationId: string
  releaseAt: string
  createdAt: string
}

const toHeld = (r: Selectable<MaintenanceHeldTable>): HeldAlert => ({
  id: r.id,
  integrationId: r.integration_id,
  windowId: r.window_id,
  windowName: r.window_name,
  correlationId: r.correlation_id,
  messageId: r.message_id,
  releaseMessageId: r.release_message_id,
  vendorId: r.vendor_id,
  partnerId: r.partner_id,
  strategy: r.strategy as Strategy,
  ...parseJson<{ request: unknown; facts: AlertFacts }>(r.request),
  newCorrelationId: r.new_correlation_id,
  releaseAt: r.release_at,
  createdAt: r.created_at,
})

export class MaintenanceRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async list(integrationId: string): Promise<MaintenanceWindow[]> {
    const rows = await this.db
      .selectFrom('maintenance_windows')
      .selectAll()
      .where('integration_id', '=', integrationId)
      .orderBy('created_at')
      .orderBy('id')
      .execute()
    return rows.map(toWindow)
  }

  /** The windows of a partner's integrations (or of one of them), each with its integration's vendor. */
  async listForPartner(
    partnerId: string,
    integrationId?: string,
  ): Promise<{ window: MaintenanceWindow; vendorId: string }[]> {
    let q = this.db
      .selectFrom('maintenance_windows as w')
      .innerJoin('integrations as i', 'i.id', 'w.integration_id')
      .selectAll('w')
      .select('i.vendor_id')
      .where('i.partner_id', '=', partnerId)
    if (integrationId !== undefined) q = q.where('w.integration_id', '=', integrationId)
    const rows = await q.orderBy('w.created_at').orderBy('w.id').execute()
    return rows.map(({ vendor_id, ...r }) => ({ window: toWindow(r), vendorId: vendor_id }))
  }

  async find(id: string): Promise<MaintenanceWindow | null> {
    const row = await this.db
      .selectFrom('maintenance_windows')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst()
    return row ? toWindow(row) : null
  }

  /**
   * Stores a new window and marks its integration as using maintenance windows, from then on: its
   * alerts read windows and held alerts (migration 0027_steps_in_use). Run it in a transaction.
   */
  async insert(w: MaintenanceWindow): Promise<void> {
    await this.db
      .insertInto('maintenance_windows')
      .values({ id: w.id, integration_id: w.integrationId, created_at: w.createdAt, ...toColumns(w) })
      .execute()
    await this.db
      .updateTable('integrations')
      .set({ maintenance_in_use: 1 })
      .where('id', '=', w.integrationId)
      .where('maintenance_in_use', '=', 0)
      .execute()
  }

  async update(w: MaintenanceWindow): Promise<void> {
    await this.db.updateTable('maintenance_windows').set(toColumns(w)).where('id', '=', w.id).execute()
  }

  /**
   * Stores the occurrences ahead worked out from the window as it was at `updatedAt`; answers false
   * (and stores nothing) when it has been changed or deleted since (the change's job works them out).
   */
  async setUpcoming(id: string, updatedAt: string, upcoming: Upcoming): Promise<boolean> {
    const r = await this.db
      .updateTable('maintenance_windows')
      .set({ upcoming: upcomingJson(upcoming) })
      .where('id', '=', id)
      .where('updated_at', '=', updatedAt)
      .executeTakeFirst()
    return Number(r.numUpdatedRows) === 1
  }

  /** Up to `limit` windows, in id order after `afterId`, whose occurrences ahead were never worked out. */
  async withoutUpcoming(afterId: string, limit: number): Promise<MaintenanceWindow[]> {
    const rows = await this.db
      .selectFrom('maintenance_windows')
      .selectAll()
      .where('upcoming', 'is', null)
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit)
      .execute()
    return rows.map(toWindow)
  }

  async delete(integrationId: string, id: string): Promise<boolean> {
    const r = await this.db
      .deleteFrom('maintenance_windows')
      .where('integration_id', '=', integrationId)
      .where('id', '=', id)
      .executeTakeFirst()
    return Number(r.numDeletedRows) === 1
  }

  /** Deletes up to `limit` one-off windows that ended before `before`; answers how many. */
  async pruneExpired(before: string, limit: number): Promise<number> {
    const ids = this.db
      .selectFrom('maintenance_windows')
      .select('id')
      .where('ends_at', 'is not', null)
      .where('ends_at', '<', before)
      .orderBy('ends_at')
      .limit(limit)
    const r = await this.db.deleteFrom('maintenance_windows').where('id', 'in', ids).executeTakeFirst()
    return Number(r.numDeletedRows)
  }

  /** Answers false when the message is held already (an attempt that ran twice). */
  async hold(h: HeldAlert): Promise<boolean> {
    const r = await this.db
      .insertInto('maintenance_held')
      .values({
        id: h.id,
        integration_id: h.integrationId,
        window_id: h.windowId,
        window_name: h.windowName,
        correlation_id: h.correlationId,
        message_id: h.messageId,
        release_message_id: h.releaseMessageId,
        vendor_id: h.vendorId,
        partner_id: h.partnerId,
        strategy: h.strategy,
        request: JSON.stringify({ request: h.request, facts: h.facts }),
        new_correlation_id: h.newCorrelationId,
        release_at: h.releaseAt,
        created_at: h.createdAt,
      })
      .onConflict((oc) => oc.column('message_id').doNothing())
      .executeTakeFirst()
    return Number(r.numInsertedOrUpdatedRows ?? 0) === 1
  }

  /** The first alert held for the correlationId, if any (what the decision table is told). */
  async heldFor(integrationId: string, correlationId: string): Promise<HeldRef | null> {
    const row = await this.db
      .selectFrom('maintenance_held')
      .select(['window_id', 'window_name', 'release_at'])
      .where('integration_id', '=', integrationId)
      .where('correlation_id', '=', correlationId)
      .orderBy('id')
      .limit(1)
      .executeTakeFirst()
    return row ? { windowId: row.window_id, windowName: row.window_name, releaseAt: row.release_at } : null
  }

  /** The alerts of a window due for release at `now` (every one of a deleted window), in held order. */
  async due(windowId: string, now: string, all: boolean, limit: number): Promise<HeldAlert[]> {
    let q = this.db.selectFrom('maintenance_held').selectAll().where('window_id', '=', windowId)
    if (!all) q = q.where('release_at', '<=', now)
    const rows = await q.orderBy('id').limit(limit).execute()
    return rows.map(toHeld)
  }

  /** How many alerts each of the integration's windows holds now. */
  async counts(integrationId: string): Promise<Map<string, number>> {
    const rows = await this.db
      .selectFrom('maintenance_held')
      .select((eb) => ['window_id', eb.fn.countAll<number>().as('n')])
      .where('integration_id', '=', integrationId)
      .groupBy('window_id')
      .execute()
    return new Map(rows.map((r) => [r.window_id, Number(r.n)]))
  }

  async released(id: string): Promise<void> {
    await this.db.deleteFrom('maintenance_held').where('id', '=', id).execute()
  }

  /** Drops what is held for the correlationId (a RESOLVED arrived first); answers how many. */
  async drop(integrationId: string, correlationId: string): Promise<number> {
    const r = await this.db
      .deleteFrom('maintenance_held')
      .where('integration_id', '=', integrationId)
      .where('correlation_id', '=', correlationId)
      .executeTakeFirst()
    return Number(r.numDeletedRows)
  }
}

declare module '../../../platform/db/store.js' {
  interface Repositories {
    /** Maintenance windows and the alerts they hold. */
    maintenance: MaintenanceRepository
  }
}
defineRepository('maintenance', (kysely) => new MaintenanceRepository(kysely))
