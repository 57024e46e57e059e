import type { Kysely, Selectable } from 'kysely'
import type { CatchAllSettings } from '../../platform/core/types.js'
import { closedTicketPolicies, type DedupField, type IntegrationState } from '../../platform/core/types.js'
import { prepared } from '../../platform/db/prepared.js'
import { type CreatedKey, type KeyPage, parseJson, toBool, toInt } from '../../platform/db/rows.js'
import type { Database } from '../../platform/db/schema.js'
import { defineRepository } from '../../platform/db/store.js'
import type { CryptoBox } from '../../platform/security/crypto-box.js'
import type { TenantState } from '../credentials/credentials.js'
import { catchAllColumns, catchAllOf } from '../integrations/catch-all-settings.js'
import type { Integration, IntegrationSettings, VendorCredentials } from '../integrations/integration.js'
import { parseStormSettings } from '../integrations/storm-settings.js'
import type { IntegrationsTable } from '../tables.js'

/** As stored: the header's name in the clear (it is shown back), its value sealed. */
interface StoredVendorCredentials {
  header: string
  sealedValue: string
}

export type SettingsPatch = Partial<
  Omit<IntegrationSettings, 'state' | 'deduplication' | 'closedTickets' | 'catchAll'>
> & {
  catchAll?: Partial<CatchAllSettings>
  deduplication?: Partial<IntegrationSettings['deduplication']>
  closedTickets?: Partial<IntegrationSettings['closedTickets']>
}

function toIntegration(r: Selectable<IntegrationsTable>): Integration {
  return {
    id: r.id,
    vendorId: r.vendor_id,
    partnerId: r.partner_id,
    settings: {
      state: r.state as IntegrationState,
      alertsEnabled: toBool(r.alerts_enabled),
      ticketCreation: toBool(r.ticket_creation),
      selfHealing: toBool(r.self_healing),
      deduplication: {
        enabled: toBool(r.dedup_enabled),
        keyFields: parseJson<DedupField[]>(r.dedup_key_fields),
        windowMinutes: r.dedup_window_minutes,
      },
      closedTickets: {
        policy: closedTicketPolicies.find((p) => p === r.closed_ticket_policy) ?? 'refuse',
        reopenWindowMinutes: r.reopen_window_minutes,
        closeOnlyUntouched: toBool(r.close_only_untouched),
      },
      catchAll: catchAllOf(r),
      storm: parseStormSettings(r.storm_settings),
    },
    vendorCredentials:
      r.vendor_credentials_enc === null
        ? null
        : { header: parseJson<StoredVendorCredentials>(r.vendor_credentials_enc).header },
    maintenanceInUse: toBool(r.maintenance_in_use),
    mappingCompletedAt: r.mapping_completed_at,
    connectedAt: r.connected_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    orgToken: {
      version: r.org_token_version,
      previousDigest: r.previous_org_token_digest,
      previousExpiresAt: r.previous_org_token_expires_at,
      rotatedAt: r.org_token_rotated_at,
    },
  }
}

// The alert path's reads of an integration, prepared (platform/db/prepared.ts): read for every alert.
const byId = prepared(1, (db: Kysely<Database>, id: string) =>
  db.selectFrom('integrations').selectAll().where('id', '=', id),
)
const tenantStateOf = prepared(1, (db: Kysely<Database>, id: string) =>
  db
    .selectFrom('integrations as i')
    .innerJoin('vendors as v', 'v.id', 'i.vendor_id')
    .innerJoin('partners as p', 'p.id', 'i.partner_id')
    .select([
      'i.vendor_id',
      'i.partner_id',
      'v.disabled_at as vendor_disabled_at',
      'v.disabled_reason as vendor_disabled_reason',
      'p.disabled_at as partner_disabled_at',
      'p.disabled_reason as partner_disabled_reason',
      'v.client_secret_version',
      'v.previous_client_secret_expires_at',
      'i.org_token_version',
      'i.previous_org_token_expires_at',
    ])
    .where('i.id', '=', id),
)

export class IntegrationRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly box: CryptoBox,
  ) {}

  async insert(i: {
    id: string
    vendorId: string
    partnerId: string
    orgTokenDigest: string
    settings: IntegrationSettings
    now: string
  }): Promise<Integration> {
    const s = i.settings
    await this.db
      .insertInto('integrations')
      .values({
        id: i.id,
        vendor_id: i.vendorId,
        partner_id: i.partnerId,
        org_token_digest: i.orgTokenDigest,
        state: s.state,
        alerts_enabled: toInt(s.alertsEnabled),
        ticket_creation: toInt(s.ticketCreation),
        self_healing: toInt(s.selfHealing),
        dedup_enabled: toInt(s.deduplication.enabled),
        dedup_key_fields: JSON.stringify(s.deduplication.keyFields),
        dedup_window_minutes: s.deduplication.windowMinutes,
        closed_ticket_policy: s.closedTickets.policy,
        reopen_window_minutes: s.closedTickets.reopenWindowMinutes,
        close_only_untouched: toInt(s.closedTickets.closeOnlyUntouched),
        mapping_completed_at: null,
        connected_at: null,
        created_at: i.now,
        updated_at: i.now,
      })
      .execute()
    return (await this.findById(i.id))!
  }

  async findById(id: string): Promise<Integration | null> {
    const [row] = await byId(this.db, id)
    return row ? toIntegration(row) : null
  }

  /**
   * The integration whose organization token, current or replaced by a rotation, has this digest
   * (whether a replaced one still works is the caller's to judge, with its clock).
   */
  async findByOrgTokenDigest(digest: string): Promise<(Integration & { orgTokenDigest: string }) | null> {
    const row = await this.db
      .selectFrom('integrations')
      .selectAll()
      .where((eb) =>
        eb.or([eb('org_token_digest', '=', digest), eb('previous_org_token_digest', '=', digest)]),
      )
      .executeTakeFirst()
    return row ? { ...toIntegration(row), orgTokenDigest: row.org_token_digest } : null
  }

  /** Makes `digest` the organization token (generation + 1); the replaced one works until `previousExpiresAt`. */
  async rotateOrgToken(id: string, digest: string, previousExpiresAt: string | null, now: string) {
    await this.db
      .updateTable('integrations')
      .set((eb) => ({
        previous_org_token_digest: previousExpiresAt === null ? null : eb.ref('org_token_digest'),
        previous_org_token_expires_at: previousExpiresAt,
        org_token_digest: digest,
        org_token_version: eb('org_token_version', '+', 1),
        org_token_rotated_at: now,
        updated_at: now,
      }))
      .where('id', '=', id)
      .execute()
  }

  /** The replaced organization token stops working now. */
  async endOrgTokenOverlap(id: string, now: string): Promise<void> {
    await this.db
      .updateTable('integrations')
      .set({ previous_org_token_digest: null, previous_org_token_expires_at: null, updated_at: now })
      .where('id', '=', id)
      .execute()
  }

  /**
   * Read fresh on every alert (never cached): whether the integration's vendor or partner is disabled,
   * and the generations of its credentials, so that a cached copy of them can be checked.
   */
  async tenantState(id: string): Promise<
    | (TenantState & {
        clientSecret: { version: number; previousExpiresAt: string | null }
        orgToken: { version: number; previousExpiresAt: string | null }
      })
    | null
  > {
    const [r] = await tenantStateOf(this.db, id)
    if (!r) return null
    return {
      vendorId: r.vendor_id,
      partnerId: r.partner_id,
      vendorDisabled:
        r.vendor_disabled_at === null ? null : { at: r.vendor_disabled_at, reason: r.vendor_disabled_reason },
      partnerDisabled:
        r.partner_disabled_at === null
          ? null
          : { at: r.partner_disabled_at, reason: r.partner_disabled_reason },
      clientSecret: {
        version: r.client_secret_version,
        previousExpiresAt: r.previous_client_secret_expires_at,
      },
      orgToken: { version: r.org_token_version, previousExpiresAt: r.previous_org_token_expires_at },
    }
  }

  /** Integrations in the order they were created; one page of them when `page` is given. */
  async list(
    filter: { partnerId?: string; vendorId?: string },
    page?: KeyPage<CreatedKey>,
  ): Promise<Integration[]> {
    let q = this.db.selectFrom('integrations').selectAll()
    if (filter.partnerId) q = q.where('partner_id', '=', filter.partnerId)
    if (filter.vendorId) q = q.where('vendor_id', '=', filter.vendorId)
    if (page?.after) {
      const [createdAt, id] = page.after
      q = q.where((eb) => eb(eb.refTuple('created_at', 'id'), '>', eb.tuple(createdAt, id)))
    }
    q = q.orderBy('created_at').orderBy('id')
    if (page) q = q.limit(page.limit)
    return (await q.execute()).map(toIntegration)
  }

  async updateSettings(id: string, patch: SettingsPatch, now: string): Promise<void> {
    const d = patch.deduplication
    const cols = {
      alerts_enabled: patch.alertsEnabled === undefined ? undefined : toInt(patch.alertsEnabled),
      ticket_creation: patch.ticketCreation === undefined ? undefined : toInt(patch.ticketCreation),
      self_healing: patch.selfHealing === undefined ? undefined : toInt(patch.selfHealing),
      dedup_enabled: d?.enabled === undefined ? undefined : toInt(d.enabled),
      dedup_key_fields: d?.keyFields === undefined ? undefined : JSON.stringify(d.keyFields),
      dedup_window_minutes: d?.windowMinutes,
      closed_ticket_policy: patch.closedTickets?.policy,
      reopen_window_minutes: patch.closedTickets?.reopenWindowMinutes,
      close_only_untouched:
        patch.closedTickets?.closeOnlyUntouched === undefined
          ? undefined
          : toInt(patch.closedTickets.closeOnlyUntouched),
      ...catchAllColumns(patch.catchAll),
      storm_settings: patch.storm && JSON.stringify(patch.storm),
    }
    const set = Object.fromEntries(Object.entries(cols).filter(([, v]) => v !== undefined))
    await this.db
      .updateTable('integrations')
      .set({ ...set, updated_at: now })
      .where('id', '=', id)
      .execute()
  }

  async vendorCredentials(id: string): Promise<VendorCredentials | null> {
    const row = await this.db
      .selectFrom('integrations')
      .select('vendor_credentials_enc')
      .where('id', '=', id)
      .executeTakeFirst()
    if (!row?.vendor_credentials_enc) return null
    const stored = parseJson<StoredVendorCredentials>(row.vendor_credentials_enc)
    return { header: stored.header, value: this.box.open(stored.sealedValue) }
  }

  /** Stores the credentials (the header's name lower-cased, the value sealed), or clears them. */
  async setVendorCredentials(id: string, credentials: VendorCredentials | null, now: string): Promise<void> {
    const stored: StoredVendorCredentials | null =
      credentials === null
        ? null
        : { header: credentials.header.toLowerCase(), sealedValue: this.box.seal(credentials.value) }
    await this.db
      .updateTable('integrations')
      .set({
        vendor_credentials_enc: stored === null ? null : JSON.stringify(stored),
        updated_at: now,
      })
      .where('id', '=', id)
      .execute()
  }

  /** Moves the state only if it is still `from`; answers whether this call moved it. */
  async moveState(id: string, from: IntegrationState, to: IntegrationState, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('integrations')
      .set({
        state: to,
        updated_at: now,
        ...(to === 'pending' ? { mapping_completed_at: now } : {}),
        ...(to === 'connected' ? { connected_at: now } : {}),
      })
      .where('id', '=', id)
      .where('state', '=', from)
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  }
}

declare module '../../platform/db/store.js' {
  interface Repositories {
    integrations: IntegrationRepository
  }
}
defineRepository('integrations', (kysely, box) => new IntegrationRepository(kysely, box))
