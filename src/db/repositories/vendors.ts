import type { Kysely, Selectable, Updateable } from 'kysely'
import type { ProductGroupsMapping } from '../../catalogue/adapter.js'
import type { CryptoBox } from '../../security/crypto-box.js'
import { parseJson } from '../rows.js'
import type { Database, VendorsTable } from '../schema.js'

export interface Vendor {
  id: string
  name: string
  clientId: string
  clientSecretDigest: string
  webhookUrl: string | null
  hasWebhookSecret: boolean
  hasWebhookAuthHeader: boolean
  productGroups: Record<string, string[]> | null
  productGroupsUrl: string | null
  /** How to read a differently shaped answer of productGroupsUrl (spec §4.7); null: the spec's shape. */
  productGroupsMapping: ProductGroupsMapping | null
  rateLimitPerMinute: number | null
  webhookState: WebhookEndpointState
  webhookStateReason: string | null
  webhookFailingSince: string | null
  createdAt: string
  updatedAt: string
}

/** active; paused after days of failures (deliveries wait); disabled by a 410 (deliveries die). */
export type WebhookEndpointState = 'active' | 'paused' | 'disabled'

export interface VendorPatch {
  name?: string
  webhookUrl?: string | null
  webhookSecret?: string | null
  webhookAuthHeader?: string | null
  productGroups?: Record<string, string[]> | null
  productGroupsUrl?: string | null
  productGroupsMapping?: ProductGroupsMapping | null
  rateLimitPerMinute?: number | null
}

function toVendor(r: Selectable<VendorsTable>): Vendor {
  return {
    id: r.id,
    name: r.name,
    clientId: r.client_id,
    clientSecretDigest: r.client_secret_digest,
    webhookUrl: r.webhook_url,
    hasWebhookSecret: r.webhook_secret_enc !== null,
    hasWebhookAuthHeader: r.webhook_auth_header_enc !== null,
    productGroups: r.product_groups === null ? null : parseJson(r.product_groups),
    productGroupsUrl: r.product_groups_url,
    productGroupsMapping: r.product_groups_mapping === null ? null : parseJson(r.product_groups_mapping),
    rateLimitPerMinute: r.rate_limit_per_minute,
    webhookState: r.webhook_state as WebhookEndpointState,
    webhookStateReason: r.webhook_state_reason,
    webhookFailingSince: r.webhook_failing_since,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  }
}

export class VendorRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly box: CryptoBox,
  ) {}

  async insert(v: {
    id: string
    name: string
    clientId: string
    clientSecretDigest: string
    now: string
    patch: VendorPatch
  }): Promise<Vendor> {
    await this.db
      .insertInto('vendors')
      .values({
        id: v.id,
        name: v.name,
        client_id: v.clientId,
        client_secret_digest: v.clientSecretDigest,
        webhook_url: null,
        webhook_secret_enc: null,
        webhook_auth_header_enc: null,
        product_groups: null,
        product_groups_url: null,
        rate_limit_per_minute: null,
        created_at: v.now,
        updated_at: v.now,
        ...this.columns(v.patch),
      })
      .execute()
    return (await this.findById(v.id))!
  }

  async findById(id: string): Promise<Vendor | null> {
    const row = await this.db.selectFrom('vendors').selectAll().where('id', '=', id).executeTakeFirst()
    return row ? toVendor(row) : null
  }

  async findByClientId(clientId: string): Promise<Vendor | null> {
    const row = await this.db
      .selectFrom('vendors')
      .selectAll()
      .where('client_id', '=', clientId)
      .executeTakeFirst()
    return row ? toVendor(row) : null
  }

  async list(): Promise<Vendor[]> {
    const rows = await this.db.selectFrom('vendors').selectAll().orderBy('created_at').orderBy('id').execute()
    return rows.map(toVendor)
  }

  async update(id: string, patch: VendorPatch, now: string): Promise<Vendor | null> {
    await this.db
      .updateTable('vendors')
      .set({ ...this.columns(patch), updated_at: now })
      .where('id', '=', id)
      .execute()
    return this.findById(id)
  }

  /** Sets the endpoint's state; back to active also forgets how long it has been failing. */
  async setWebhookState(
    id: string,
    state: WebhookEndpointState,
    reason: string | null,
    now: string,
  ): Promise<void> {
    await this.db
      .updateTable('vendors')
      .set({
        webhook_state: state,
        webhook_state_reason: reason,
        updated_at: now,
        ...(state === 'active' ? { webhook_failing_since: null } : {}),
      })
      .where('id', '=', id)
      .execute()
  }

  /** Notes a failed attempt (keeping the first failure's time) or a success (clearing it). */
  async noteWebhookHealth(id: string, failedAt: string | null): Promise<void> {
    let q = this.db.updateTable('vendors').where('id', '=', id)
    if (failedAt === null) {
      q = q.set({ webhook_failing_since: null }).where('webhook_failing_since', 'is not', null)
    } else {
      q = q.set({ webhook_failing_since: failedAt }).where('webhook_failing_since', 'is', null)
    }
    await q.execute()
  }

  /** Where and how to deliver a vendor's webhooks: URL, signing secret and auth header, decrypted. */
  async webhookEndpoint(
    id: string,
  ): Promise<{ url: string | null; secret: string | null; authHeader: string | null }> {
    const row = await this.db
      .selectFrom('vendors')
      .select(['webhook_url', 'webhook_secret_enc', 'webhook_auth_header_enc'])
      .where('id', '=', id)
      .executeTakeFirst()
    return {
      url: row?.webhook_url ?? null,
      secret: row?.webhook_secret_enc ? this.box.open(row.webhook_secret_enc) : null,
      authHeader: row?.webhook_auth_header_enc ? this.box.open(row.webhook_auth_header_enc) : null,
    }
  }

  private columns(p: VendorPatch): Updateable<VendorsTable> {
    const seal = (s: string | null | undefined) =>
      s === undefined ? undefined : s === null ? null : this.box.seal(s)
    const cols: Updateable<VendorsTable> = {
      name: p.name,
      webhook_url: p.webhookUrl,
      // A new URL is a new endpoint: it starts active.
      ...(p.webhookUrl !== undefined
        ? { webhook_state: 'active', webhook_state_reason: null, webhook_failing_since: null }
        : {}),
      webhook_secret_enc: seal(p.webhookSecret),
      webhook_auth_header_enc: seal(p.webhookAuthHeader),
      product_groups:
        p.productGroups === undefined
          ? undefined
          : p.productGroups === null
            ? null
            : JSON.stringify(p.productGroups),
      product_groups_url: p.productGroupsUrl,
      product_groups_mapping:
        p.productGroupsMapping === undefined
          ? undefined
          : p.productGroupsMapping === null
            ? null
            : JSON.stringify(p.productGroupsMapping),
      rate_limit_per_minute: p.rateLimitPerMinute,
    }
    return Object.fromEntries(Object.entries(cols).filter(([, v]) => v !== undefined))
  }
}
