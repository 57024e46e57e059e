import type { Kysely, Updateable } from 'kysely'
import { type CreatedKey, type Disabled, type KeyPage, setTenantDisabled } from '../../platform/db/rows.js'
import type { Database } from '../../platform/db/schema.js'
import { defineRepository } from '../../platform/db/store.js'
import type { CryptoBox } from '../../platform/security/crypto-box.js'
import { openKept } from '../../platform/security/opened.js'
import type { VendorsTable } from '../tables.js'
import type { ProductGroupsMapping, Vendor, WebhookEndpointState, WebhookTarget } from '../vendor.js'
import { endpointOf, type SealedEndpoint, toVendor, vendorById } from './vendor-rows.js'

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

  /** The names of these vendors, by id (what a partner may see of them). */
  async names(ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map()
    const rows = await this.db.selectFrom('vendors').select(['id', 'name']).where('id', 'in', ids).execute()
    return new Map(rows.map((r) => [r.id, r.name]))
  }

  async findById(id: string): Promise<Vendor | null> {
    const [row] = await vendorById(this.db, id)
    return row ? toVendor(row) : null
  }

  /**
   * Makes `digest` the client secret (generation + 1); the one it replaces keeps working until
   * `previousExpiresAt` (null: not at all). An older previous secret is dropped.
   */
  async rotateClientSecret(id: string, digest: string, previousExpiresAt: string | null, now: string) {
    await this.db
      .updateTable('vendors')
      .set((eb) => ({
        previous_client_secret_digest: previousExpiresAt === null ? null : eb.ref('client_secret_digest'),
        previous_client_secret_expires_at: previousExpiresAt,
        client_secret_digest: digest,
        client_secret_version: eb('client_secret_version', '+', 1),
        client_secret_rotated_at: now,
        updated_at: now,
      }))
      .where('id', '=', id)
      .execute()
  }

  /** The replaced client secret stops working now. */
  async endClientSecretOverlap(id: string, now: string): Promise<void> {
    await this.db
      .updateTable('vendors')
      .set({ previous_client_secret_digest: null, previous_client_secret_expires_at: null, updated_at: now })
      .where('id', '=', id)
      .execute()
  }

  /** Makes `secret` the signing secret; the one it replaces also signs until `previousExpiresAt` (null: not at all). */
  async rotateWebhookSecret(id: string, secret: string, previousExpiresAt: string | null, now: string) {
    await this.db
      .updateTable('vendors')
      .set((eb) => ({
        previous_webhook_secret_enc: previousExpiresAt === null ? null : eb.ref('webhook_secret_enc'),
        previous_webhook_secret_expires_at: previousExpiresAt,
        webhook_secret_enc: this.box.seal(secret),
        webhook_secret_rotated_at: now,
        updated_at: now,
      }))
      .where('id', '=', id)
      .execute()
  }

  /** The replaced signing secret stops signing now. */
  async endWebhookSecretOverlap(id: string, now: string): Promise<void> {
    await this.db
      .updateTable('vendors')
      .set({ previous_webhook_secret_enc: null, previous_webhook_secret_expires_at: null, updated_at: now })
      .where('id', '=', id)
      .execute()
  }

  /** Disables the vendor (keeping the first time and reason if it already is) or enables it (null). */
  async setDisabled(id: string, disabled: Disabled | null, now: string): Promise<void> {
    await setTenantDisabled(this.db, 'vendors', id, disabled, now)
  }

  async findByClientId(clientId: string): Promise<Vendor | null> {
    const row = await this.db
      .selectFrom('vendors')
      .selectAll()
      .where('client_id', '=', clientId)
      .executeTakeFirst()
    return row ? toVendor(row) : null
  }

  /** Vendors in the order they were created; one page of them when `page` is given. */
  async list(page?: KeyPage<CreatedKey>): Promise<Vendor[]> {
    let q = this.db.selectFrom('vendors').selectAll().orderBy('created_at').orderBy('id')
    if (page?.after) {
      const [createdAt, id] = page.after
      q = q.where((eb) => eb(eb.refTuple('created_at', 'id'), '>', eb.tuple(createdAt, id)))
    }
    if (page) q = q.limit(page.limit)
    return (await q.execute()).map(toVendor)
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

  /** The vendor long-polls its events until `until` (docs/vendor-api.md#self-service). */
  async listenUntil(id: string, until: string): Promise<void> {
    await this.db.updateTable('vendors').set({ listening_until: until }).where('id', '=', id).execute()
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

  /** Where and how to deliver a vendor's webhooks (openEndpoint), read by the vendor's id. */
  async webhookEndpoint(id: string): Promise<WebhookTarget> {
    const [row] = await endpointOf(this.db, id)
    return this.openEndpoint(row)
  }

  /**
   * The URL, signing secret and auth header of endpoint columns read already (sealedEndpointColumns),
   * decrypted; and, during a rotation's overlap window, the replaced secret with when it stops signing.
   * No query: the delivery job reads these columns with the delivery.
   */
  openEndpoint(row: SealedEndpoint | undefined): WebhookTarget {
    const previous = row?.previous_webhook_secret_enc
    const previousUntil = row?.previous_webhook_secret_expires_at
    return {
      url: row?.webhook_url ?? null,
      secret: row?.webhook_secret_enc ? openKept(this.box, row.webhook_secret_enc) : null,
      previousSecret:
        previous && previousUntil ? { secret: openKept(this.box, previous), expiresAt: previousUntil } : null,
      authHeader: row?.webhook_auth_header_enc ? openKept(this.box, row.webhook_auth_header_enc) : null,
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

declare module '../../platform/db/store.js' {
  interface Repositories {
    vendors: VendorRepository
  }
}
defineRepository('vendors', (kysely, box) => new VendorRepository(kysely, box))
