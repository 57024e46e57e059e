import type { Kysely, Selectable } from 'kysely'
import type { PsaConnection, PsaKind } from '../../psa/adapter.js'
import type { CryptoBox } from '../../security/crypto-box.js'
import type { Database, PartnersTable } from '../schema.js'

export interface Partner {
  id: string
  name: string
  psa: { kind: PsaKind; settings: Record<string, unknown> }
  createdAt: string
  updatedAt: string
}

export class PartnerRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly box: CryptoBox,
  ) {}

  private toPartner(r: Selectable<PartnersTable>): Partner {
    return {
      id: r.id,
      name: r.name,
      psa: { kind: r.psa_kind as PsaKind, settings: JSON.parse(this.box.open(r.psa_settings_enc)) },
      createdAt: r.created_at,
      updatedAt: r.updated_at,
    }
  }

  async insert(p: {
    id: string
    name: string
    apiKeyDigest: string
    psa: Partner['psa']
    now: string
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
      })
      .execute()
    return (await this.findById(p.id))!
  }

  async findById(id: string): Promise<Partner | null> {
    const row = await this.db.selectFrom('partners').selectAll().where('id', '=', id).executeTakeFirst()
    return row ? this.toPartner(row) : null
  }

  async findByApiKeyDigest(digest: string): Promise<{ id: string; digest: string } | null> {
    const row = await this.db
      .selectFrom('partners')
      .select(['id', 'api_key_digest'])
      .where('api_key_digest', '=', digest)
      .executeTakeFirst()
    return row ? { id: row.id, digest: row.api_key_digest } : null
  }

  async list(): Promise<Partner[]> {
    const rows = await this.db
      .selectFrom('partners')
      .selectAll()
      .orderBy('created_at')
      .orderBy('id')
      .execute()
    return rows.map((r) => this.toPartner(r))
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
      .execute()
    return this.findById(id)
  }

  async connection(partnerId: string): Promise<PsaConnection | null> {
    const p = await this.findById(partnerId)
    return p ? { partnerId: p.id, kind: p.psa.kind, settings: p.psa.settings } : null
  }
}
