// Puts webhook events into the outbox (the webhook_deliveries table) inside the caller's transaction,
// with the delivery job that will send each (delivery-job.ts), so an event and its sending exist
// exactly when the change it reports committed. A vendor without a webhook URL gets no deliveries (unless
// it is listening: then they are stored dead, for its long-poll); a disabled endpoint's deliveries are
// stored dead, ready for replay. Callers hand the jobs over
// (JobProducer.handOver) once their transaction has committed.

import { LRUCache } from 'lru-cache'
import type { Clock } from '../platform/clock.js'
import type { Outcome } from '../platform/core/outcome.js'
import type { Store } from '../platform/db/store.js'
import type { Integration, ProductGroupSource, Vendor } from '../tenants/index.js'
import { isActive } from '../tenants/index.js'
import type { NewDelivery } from './deliveries-repository.js'
import type { DeliveryJobs } from './delivery-job.js'
import { type EventMeta, stateSnapshot, statusEvent, statusUpdate } from './events.js'

/** Builds an event's body once its sequence number and time are known. */
type BodyOf = (meta: EventMeta) => unknown

/** Why an event of a listening vendor without a webhook URL is stored dead. */
export const noUrlReason = 'no webhook URL; recorded for a listener'

export class WebhookOutbox {
  /**
   * Whether a partner is a vendor's test partner (docs/vendor-api.md#self-serve-test-mode): fixed when
   * the partner is made and never changed, so remembered; its events are marked `test`.
   */
  private readonly testPartners = new LRUCache<string, boolean>({ max: 100_000 })

  constructor(
    private readonly clock: Clock,
    /** The partner's effective catalogue, for state_snapshot. */
    private readonly productGroups: Pick<ProductGroupSource, 'peek'>,
    private readonly jobs: Pick<DeliveryJobs, 'enqueue'>,
  ) {}

  /** The status_update of one processed alert (docs/contract.md#webhook-events). */
  async statusUpdate(
    tx: Store,
    input: {
      vendorId: string
      integration: Pick<Integration, 'id' | 'partnerId'>
      messageId: string
      outcome: Outcome
      correlationId: string | null
      /** The outcome of a test alert (docs/vendor-api.md). */
      test?: boolean
    },
  ): Promise<string | null> {
    return this.putStatusUpdate(tx, input, (meta) =>
      statusUpdate({
        outcome: input.outcome,
        messageId: input.messageId,
        correlationId: input.correlationId,
        vendorId: input.vendorId,
        partnerId: input.integration.partnerId,
        integrationId: input.integration.id,
        meta: { ...meta, test: meta.test || input.test === true },
      }),
    )
  }

  /** The status_update of a change made in the PSA (docs/psa/sync.md): its own event, status success. */
  async psaChange(
    tx: Store,
    input: {
      vendorId: string
      integration: Pick<Integration, 'id' | 'partnerId'>
      messageId: string
      correlationId: string
      event: string
      message: string
    },
  ): Promise<string | null> {
    return this.putStatusUpdate(tx, input, (meta) =>
      statusEvent({
        ...input,
        status: 'success',
        error: null,
        partnerId: input.integration.partnerId,
        integrationId: input.integration.id,
        meta,
      }),
    )
  }

  /** A status_update body, as the vendor's delivery of its message. */
  private async putStatusUpdate(
    tx: Store,
    to: { vendorId: string; integration: Pick<Integration, 'id' | 'partnerId'>; messageId: string },
    body: BodyOf,
  ): Promise<string | null> {
    return this.put(tx, await tx.vendors.findById(to.vendorId), {
      partnerId: to.integration.partnerId,
      integrationId: to.integration.id,
      messageId: to.messageId,
      eventType: 'status_update',
      body,
    })
  }

  /** The state_snapshot of one integration as it is now (docs/contract.md#webhook-events). */
  async stateSnapshot(tx: Store, integrationId: string): Promise<string | null> {
    const integration = await tx.integrations.findById(integrationId)
    if (!integration) return null
    const vendor = await tx.vendors.findById(integration.vendorId)
    if (!vendor) return null
    const mappings = await tx.mappings.list(integration.id)
    // A disabled partner's integration accepts no alerts, whatever its state (docs/operations.md,
    // "Credentials, disabled tenants and the audit log").
    const partnerDisabled = (await tx.integrations.tenantState(integration.id))?.partnerDisabled ?? null
    const body: BodyOf = (meta) =>
      stateSnapshot({
        isIntegrationActive: isActive(integration.settings.state) && partnerDisabled === null,
        isAlertsEnabled: integration.settings.alertsEnabled,
        // What this partner may use: the cached dynamic list, else the static one. No vendor call here:
        // this runs inside a transaction (a stale list is refreshed meanwhile and its change re-snapshots).
        productGroups: this.productGroups.peek(vendor, integration).groups ?? {},
        accounts: mappings.map((m) => m.accountId),
        vendorId: vendor.id,
        partnerId: integration.partnerId,
        integrationId: integration.id,
        meta,
      })
    return this.put(tx, vendor, {
      partnerId: integration.partnerId,
      integrationId: integration.id,
      messageId: null,
      eventType: 'state_snapshot',
      body,
    })
  }

  /**
   * A test event the vendor asked for (docs/vendor-api.md#self-service): a sample body the caller builds,
   * marked `test`, put like any other event. The partner does not see it (no partnerId). Null: the vendor
   * has no webhook URL and is not listening.
   */
  async testEvent(
    tx: Store,
    vendor: Vendor,
    d: Pick<NewDelivery, 'integrationId' | 'eventType'> & { body: BodyOf },
  ): Promise<string | null> {
    return this.put(tx, vendor, {
      partnerId: null,
      integrationId: d.integrationId,
      messageId: null,
      eventType: d.eventType,
      body: (meta) => d.body({ ...meta, test: true }),
    })
  }

  private async put(
    tx: Store,
    vendor: Vendor | null,
    d: Omit<NewDelivery, 'vendorId' | 'body'> & { body: BodyOf },
  ): Promise<string | null> {
    if (!vendor) return null
    // A vendor long-polling its events (docs/vendor-api.md#self-service) gets them recorded without a
    // URL: dead, for the listener to read, and replayable once a URL is set.
    const listening = vendor.listeningUntil !== null && vendor.listeningUntil > this.clock().toISOString()
    if (!vendor.webhookUrl && !listening) return null
    const deadReason = !vendor.webhookUrl
      ? noUrlReason
      : vendor.webhookState === 'disabled'
        ? `The endpoint is disabled (${vendor.webhookStateReason ?? 'by the operator'}); replay once it is enabled.`
        : undefined
    const meta: EventMeta = {
      sequence: await tx.deliveryFeed.nextSequence(),
      occurredAt: this.clock().toISOString(),
      test: d.partnerId !== null && (await this.isTestPartner(tx, d.partnerId)),
    }
    const id = await tx.deliveries.insert(
      { ...d, body: JSON.stringify(d.body(meta)), vendorId: vendor.id, deadReason },
      meta.occurredAt,
    )
    if (id && !deadReason) await this.jobs.enqueue(tx, [{ id, vendorId: vendor.id }])
    return id
  }

  private async isTestPartner(tx: Store, partnerId: string): Promise<boolean> {
    const known = this.testPartners.get(partnerId)
    if (known !== undefined) return known
    const test = await tx.partners.isSandbox(partnerId)
    this.testPartners.set(partnerId, test)
    return test
  }
}
