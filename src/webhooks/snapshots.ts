// Schedules state_snapshot events (spec §6.2). A change to an integration's state, alerting, catalogue
// or mapped accounts queues one snapshot job a few seconds ahead; further changes before it runs
// coalesce into it (the queue drops jobs with the same dedupe key), and the job reads the state as it
// is when it runs, so the vendor gets one snapshot with the latest state.
import { v7 as uuidv7 } from 'uuid'
import type { CatalogueSource } from '../catalogue/source.js'
import type { Clock } from '../clock.js'
import type { Store } from '../db/store.js'
import type { IntegrationState } from '../domain/types.js'
import type { ClaimedJob, JobQueue } from '../queue/port.js'
import type { WebhookOutbox } from './outbox.js'

export class SnapshotScheduler {
  constructor(
    private readonly queue: JobQueue,
    private readonly clock: Clock,
    private readonly coalesceMs: number,
  ) {}

  /** Moves an integration's state (if it is still `from`) and, when it moved, schedules a snapshot.
   * Every lifecycle move goes through here, so none can forget the vendor. */
  async moveState(
    tx: Store,
    integrationId: string,
    from: IntegrationState,
    to: IntegrationState,
    now: string,
  ): Promise<boolean> {
    const moved = await tx.integrations.moveState(integrationId, from, to, now)
    if (moved) await this.changed(tx, [integrationId])
    return moved
  }

  /** Call inside the transaction that made the change. */
  async changed(tx: Store, integrationIds: readonly string[]): Promise<void> {
    const runAt = new Date(this.clock().getTime() + this.coalesceMs)
    await this.queue.enqueue(
      tx,
      integrationIds.map((id) => ({
        id: uuidv7(),
        kind: 'snapshot' as const,
        payload: { integrationId: id },
        dedupeKey: `snapshot:${id}`,
        runAt,
      })),
    )
    // Wake the worker so it plans for the new due time; by then the caller's transaction has
    // committed (SQLite serialises it; elsewhere the worker's idle poll covers the gap).
    setImmediate(() => this.queue.notify())
  }
}

/** The snapshot job: build the snapshot as the integration is now and put it in the outbox. */
export function snapshotHandler(deps: {
  store: Store
  queue: JobQueue
  outbox: WebhookOutbox
  catalogues: Pick<CatalogueSource, 'effective'>
  onDelivery: () => void
}): (job: ClaimedJob) => Promise<void> {
  return async (job) => {
    const { integrationId } = job.payload as { integrationId: string }
    // The partner's dynamic catalogue is fetched (within its budget) before the transaction, which
    // only reads the cache: after a restart, a credentials change or in a worker-only process.
    const integration = await deps.store.integrations.findById(integrationId)
    const vendor = integration ? await deps.store.vendors.findById(integration.vendorId) : null
    if (integration && vendor) await deps.catalogues.effective(vendor, integration)
    const id = await deps.store.transaction(async (tx) => {
      if (!(await deps.queue.complete(tx, job))) return null
      return deps.outbox.stateSnapshot(tx, integrationId)
    })
    if (id) deps.onDelivery()
  }
}
