// Schedules state_snapshot events (docs/contract.md#webhook-events,
// docs/decisions/webhook-strategy/when-a-snapshot-is-sent.md). A change to an integration's state,
// alerting, catalogue or mapped accounts queues one snapshot job a few seconds ahead; further changes
// before it runs coalesce into it (the queue drops jobs with the same dedupe key), and the job reads the
// state as it is when it runs, so the vendor gets one snapshot with the latest state.
import Type from 'typebox'
import { v7 as uuidv7 } from 'uuid'
import type { Clock } from '../platform/clock.js'
import type { Store } from '../platform/db/store.js'
import { defineJob, jobKind } from '../platform/queue/jobs.js'
import type { JobKindEntry, JobProducer } from '../platform/queue/port.js'
import type { ProductGroupSource } from '../tenants/index.js'
import type { DeliveryJobs } from './delivery-job.js'
import type { WebhookOutbox } from './outbox.js'

/** The snapshot job: which integration to snapshot. It fails only when the database does, so it retries
 * on a short schedule and then every ten minutes, never dying. */
export const snapshotJob = defineJob({
  kind: 'snapshot',
  payload: Type.Object({ integrationId: Type.String({ minLength: 1 }) }),
  retry: { delaysMs: [5_000, 30_000, 120_000, 600_000], maxDelayMs: 600_000 },
})

export class SnapshotScheduler {
  constructor(
    private readonly queue: JobProducer,
    private readonly clock: Clock,
    private readonly coalesceMs: number,
  ) {}

  /** Call inside the transaction that made the change. */
  async changed(tx: Store, integrationIds: readonly string[]): Promise<void> {
    const runAt = new Date(this.clock().getTime() + this.coalesceMs)
    await this.queue.enqueue(
      tx,
      integrationIds.map((integrationId) =>
        snapshotJob.job({
          id: uuidv7(),
          payload: { integrationId },
          dedupeKey: `snapshot:${integrationId}`,
          runAt,
        }),
      ),
    )
    // Hand over once the caller's transaction has committed (SQLite serialises it; elsewhere the
    // runner's idle poll covers the gap), so the runner plans for the new due time.
    setImmediate(() => this.queue.handOver())
  }
}

/** The snapshot job's kind: build the snapshot as the integration is now and put it in the outbox. */
export function snapshotKind(deps: {
  store: Store
  outbox: WebhookOutbox
  productGroups: Pick<ProductGroupSource, 'effective'>
  /** Hands the snapshot's delivery to the runners once it committed. */
  deliveries: Pick<DeliveryJobs, 'handOver'>
}): JobKindEntry {
  return jobKind(snapshotJob, async (job) => {
    const { integrationId } = job.payload
    // The partner's dynamic catalogue is fetched (within its budget) before the transaction, which
    // only reads the cache: after a restart, a credentials change or in a worker-only process.
    const integration = await deps.store.integrations.findById(integrationId)
    const vendor = integration ? await deps.store.vendors.findById(integration.vendorId) : null
    if (integration && vendor) await deps.productGroups.effective(vendor, integration)
    const id = await deps.store.transaction((tx) => deps.outbox.stateSnapshot(tx, integrationId))
    if (id) deps.deliveries.handOver()
    return { kind: 'done' }
  })
}
