import type { Kysely, Selectable } from 'kysely'
import type { DedupField, IntegrationSettings, IntegrationState } from '../../domain/types.js'
import type { CryptoBox } from '../../security/crypto-box.js'
import { parseJson, toBool, toInt } from '../rows.js'
import type { Database, IntegrationsTable } from '../schema.js'

export interface Integration {
  id: string
  vendorId: string
  partnerId: string
  settings: IntegrationSettings
  /** The credentials for the vendor's catalogue endpoint, if configured: only the header's name. */
  vendorCredentials: { header: string } | null
  mappingCompletedAt: string | null
  connectedAt: string | null
  createdAt: string
  updatedAt: string
}

/** The credentials the service calls the vendor's catalogue endpoint with (one header). */
export interface VendorCredentials {
  header: string
  value: string
}

/** As stored: the header's name in the clear (it is shown back), its value sealed. */
interface StoredVendorCredentials {
  header: string
  sealedValue: string
}

export type SettingsPatch = Partial<Omit<IntegrationSettings, 'state' | 'deduplication'>> & {
  deduplication?: Partial<IntegrationSettings['deduplication']>
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
    },
    vendorCredentials:
      r.vendor_credentials_enc === null
        ? null
        : { header: parseJson<StoredVendorCredentials>(r.vendor_credentials_enc).header },
    mappingCompletedAt: r.mapping_completed_at,
    connectedAt: r.connected_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  }
}

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
        mapping_completed_at: null,
        connected_at: null,
        created_at: i.now,
        updated_at: i.now,
      })
      .execute()
    return (await this.findById(i.id))!
  }

  async findById(id: string): Promise<Integration | null> {
    const row = await this.db.selectFrom('integrations').selectAll().where('id', '=', id).executeTakeFirst()
    return row ? toIntegration(row) : null
  }

  async findByOrgTokenDigest(digest: string): Promise<(Integration & { orgTokenDigest: string }) | null> {
    const row = await this.db
      .selectFrom('integrations')
      .selectAll()
      .where('org_token_digest', '=', digest)
      .executeTakeFirst()
    return row ? { ...toIntegration(row), orgTokenDigest: row.org_token_digest } : null
  }

  async list(filter: { partnerId?: string; vendorId?: string }): Promise<Integration[]> {
    let q = this.db.selectFrom('integrations').selectAll()
    if (filter.partnerId) q = q.where('partner_id', '=', filter.partnerId)
    if (filter.vendorId) q = q.where('vendor_id', '=', filter.vendorId)
    const rows = await q.orderBy('created_at').orderBy('id').execute()
    return rows.map(toIntegration)
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
