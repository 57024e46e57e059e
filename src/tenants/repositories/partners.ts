import type { Kysely, Selectable } from 'kysely'
import { prepared } from '../../platform/db/prepared.js'
import { type CreatedKey, type Disabled, type KeyPage, setTenantDisabled } from '../../platform/db/rows.js'
import type { Database } from '../../platform/db/schema.js'
import { defineRepository } from '../../platform/db/store.js'
import type { CryptoBox } from '../../platform/security/crypto-box.js'
import { openKept } from '../../platform/security/opened.js'
import type { PsaKind } from '../../psa/index.js'
import type { Partner } from '../partner.js'
import type { PartnersTable } from '../tables.js'

const partnerById = prepared(1, (db: Kysely<Database>, id: string) =>
  db.selectFrom('partners').selectAll().where('id', '=', id),
)

export class PartnerRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly box: CryptoBox,
  ) {}

  private toPartner(r: Selectable<PartnersTable>): Partner {
    return {
      id: r.id,
      name: r.name,
      psa: { kind: r.psa_kind as PsaKind, settings: JSON.parse(openKept(this.box, r.psa_settings_enc)) },
      createdAt: r.created_at,
      updatedAt: r.updated_at,
      apiKeyRotation: { rotatedAt: r.api_key_rotated_at, previousExpiresAt: r.previous_api_key_expires_at },
      disabled: r.disabled_at === null ? null : { at: r.disabled_at, reason: r.disabled_reason },
      sandboxVendorId: r.sandbox_vendor_id,
    }
  }

  async insert(p: {
    id: string
    name: string
    apiKeyDigest: string
    psa: Partner['psa']
    now: string
    sandboxVendorId?: string | null
  }): Promise<Partner> {
    await this.db
      .insertInto('partners')
      .values({
        id: p.id,
        name: p.name,
        api_key_digest: p.apiKeyDigest,
        psa_kind: p.psa.kind,
        psa_settings_enc: this.box.seal(JSON.stringify(p.psa.settings)),
        created_at: p.now,
        updated_at: p.now,
        sandbox_vendor_id: p.sandboxVendorId ?? null,
      })
      .execute()
    return (await this.findById(p.id))!
  }

  /** The kind of the partner's PSA connection, without reading (and decrypting) its settings. */
  async psaKind(id: string): Promise<PsaKind | null> {
    const row = await this.db
      .selectFrom('partners')
      .select('psa_kind')
      .where('id', '=', id)
      .executeTakeFirst()
    return row ? (row.psa_kind as PsaKind) : null
  }

  /** Read for every alert (the decision's partner): prepared (platform/db/prepared.ts). */
  async findById(id: string): Promise<Partner | null> {
    const [row] = await partnerById(this.db, id)
    return row ? this.toPartner(row) : null
  }

  /** The partner whose API key, current or replaced by a rotation, has this digest. */
  async findByApiKeyDigest(digest: string): Promise<{
    id: string
    digest: string
    previous: { digest: string; expiresAt: string | null } | null
    disabled: { at: string; reason: string | null } | null
  } | null> {
    const row = await this.db
      .selectFrom('partners')
      .select([
        'id',
        'api_key_digest',
        'previous_api_key_digest',
        'previous_api_key_expires_at',
        'disabled_at',
        'disabled_reason',
      ])
      .where((eb) => eb.or([eb('api_key_digest', '=', digest), eb('previous_api_key_digest', '=', digest)]))
      .executeTakeFirst()
    if (!row) return null
    return {
      id: row.id,
      digest: row.api_key_digest,
      previous:
        row.previous_api_key_digest === null
          ? null
          : { digest: row.previous_api_key_digest, expiresAt: row.previous_api_key_expires_at },
      disabled: row.disabled_at === null ? null : { at: row.disabled_at, reason: row.disabled_reason },
    }
  }

  /** Makes `digest` the API key; the replaced one works until `previousExpiresAt` (null: not at all). */
  async rotateApiKey(id: string, digest: string, previousExpiresAt: string | null, now: string) {
    await this.db
      .updateTable('partners')
      .set((eb) => ({
        previous_api_key_digest: previousExpiresAt === null ? null : eb.ref('api_key_digest'),
        previous_api_key_expires_at: previousExpiresAt,
        api_key_digest: digest,
        api_key_rotated_at: now,
        updated_at: now,
      }))
      .where('id', '=', id)
      .execute()
  }

  /** The replaced API key stops working now. */
  async endApiKeyOverlap(id: string, now: string): Promise<void> {
    await this.db
      .updateTable('partners')
      .set({ previous_api_key_digest: null, previous_api_key_expires_at: null, updated_at: now })
      .where('id', '=', id)
      .execute()
  }

  /** Disables the partner (keeping the first time and reason if it already is) or enables it (null). */
  async setDisabled(id: string, disabled: Disabled | null, now: string): Promise<void> {
    await setTenantDisabled(this.db, 'partners', id, disabled, now)
  }

  /** Partners in the order they were created; one page of them when `page` is given. */
  async list(page?: KeyPage<CreatedKey>): Promise<Partner[]> {
    let q = this.db.selectFrom('partners').selectAll().orderBy('created_at').orderBy('id')
    if (page?.after) {
      const [createdAt, id] = page.after
      q = q.where((eb) => eb(eb.refTuple('created_at', 'id'), '>', eb.tuple(createdAt, id)))
    }
    if (page) q = q.limit(page.limit)
    return (await q.execute()).map((r) => this.toPartner(r))
  }

  async update(
    id: string,
    patch: { name?: string; psa?: Partner['psa'] },
    now: string,
  ): Promise<Partner | null> {
    await this.db
      .updateTable('partners')
      .set({
        updated_at: now,
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(patch.psa
          ? { psa_kind: patch.psa.kind, psa_settings_enc: this.box.seal(JSON.stringify(patch.psa.settings)) }
          : {}),
      })
      .where('id', '=', id)
      // A test partner's PSA stays the sandbox, whoever asks (docs/vendor-api.md#self-serve-test-mode).
      .$if(patch.psa !== undefined && patch.psa.kind !== 'sandbox', (q) =>
        q.where('sandbox_vendor_id', 'is', null),
      )
      .execute()
    return this.findById(id)
  }

  /** Whether the partner is a vendor's test partner (set when it is made, never changed). */
  async isSandbox(id: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('partners')
      .select('sandbox_vendor_id')
      .where('id', '=', id)
      .executeTakeFirst()
    return row?.sandbox_vendor_id != null
  }

  /** A vendor's test partners, oldest first (at most `limit`). */
  async sandboxesOf(vendorId: string, limit: number): Promise<Partner[]> {
    const rows = await this.db
      .selectFrom('partners')
      .selectAll()
      .where('sandbox_vendor_id', '=', vendorId)
      .orderBy('created_at')
      .orderBy('id')
      .limit(limit)
      .execute()
    return rows.map((r) => this.toPartner(r))
  }

  /** Deletes a vendor's test partner; its integrations and what hangs off them go by cascade. */
  async deleteSandbox(id: string, vendorId: string): Promise<boolean> {
    const r = await this.db
      .deleteFrom('partners')
      .where('id', '=', id)
      .where('sandbox_vendor_id', '=', vendorId)
      .executeTakeFirst()
    return Number(r.numDeletedRows) === 1
  }
}

declare module '../../platform/db/store.js' {
  interface Repositories {
    partners: PartnerRepository
  }
}
defineRepository('partners', (kysely, box) => new PartnerRepository(kysely, box))
