// The maintenance job (docs/partner-api.md#maintenance-windows): one per window boundary, queued at
// the start or end of the window's next occurrence, at once when a window is changed or deleted, and
// at the end of what the window's occurrences ahead cover (`refresh`). When it runs it records the
// boundary as an audit event (`Maintenance Window Started` / `Ended`, once per occurrence: its
// messageId is the window, edge and instant), works out the window's occurrences ahead again and
// stores them (what alerts read: src/alerts/steps/maintenance/upcoming.ts), releases the alerts the window
// holds once it is no longer active (all of them when the window is gone), each through the executor
// as the rules stand then, in the order they were held, and queues the next boundary. Held alerts and
// the jobs are rows of the database, so a restart loses neither.
import type { FastifyBaseLogger } from 'fastify'
import Type, { type Static } from 'typebox'
import { v7 as uuidv7 } from 'uuid'
import type { Clock } from '../../../platform/clock.js'
import type { Store } from '../../../platform/db/store.js'
import { defineJob, jobKind } from '../../../platform/queue/jobs.js'
import type { JobKindEntry, JobProducer, JobResult } from '../../../platform/queue/port.js'
import type { Integration } from '../../../tenants/index.js'
import type { DeliveryJobs } from '../../../webhooks/index.js'
import type { AlertExecutor } from '../../executor/executor.js'
import { type MaintenanceWindow, type Occurrence, occurrenceAt } from './maintenance.js'
import { activeIn, nextBoundaryIn, type Upcoming, upcomingOf } from './upcoming.js'

const Boundary = Type.Object({
  windowId: Type.String({ minLength: 1 }),
  integrationId: Type.String({ minLength: 1 }),
  /** The instant of the boundary (ISO 8601); for `change`, when the window was changed. */
  at: Type.String({ minLength: 1 }),
  edge: Type.Union([
    Type.Literal('start'),
    Type.Literal('end'),
    Type.Literal('change'),
    Type.Literal('refresh'),
  ]),
})
type Boundary = Static<typeof Boundary>

export const maintenanceJob = defineJob({
  kind: 'maintenance',
  payload: Boundary,
  retry: { delaysMs: [5_000, 30_000, 120_000, 600_000], maxDelayMs: 3_600_000 },
})

/** Released alerts per job run; a window holding more goes on in the next run at once. */
const releaseBatch = 100

/** Queues a window's jobs; callers hand them over once their transaction committed. */
export class MaintenanceJobs {
  constructor(
    private readonly queue: Pick<JobProducer, 'enqueue' | 'handOver'>,
    private readonly clock: Clock,
  ) {}

  /** The job of the window's next boundary after `now`, by its occurrences ahead, if it has one. */
  async next(
    tx: Store,
    window: Pick<MaintenanceWindow, 'id' | 'integrationId'>,
    upcoming: Upcoming,
    now: Date,
  ): Promise<void> {
    const b = nextBoundaryIn(upcoming, now)
    if (b) await this.put(tx, window, b.at, b.edge)
  }

  /** A job now: the window was changed or deleted (releases what it no longer holds). */
  async changed(tx: Store, window: Pick<MaintenanceWindow, 'id' | 'integrationId'>): Promise<void> {
    await this.put(tx, window, this.clock(), 'change')
  }

  private async put(
    tx: Store,
    w: Pick<MaintenanceWindow, 'id' | 'integrationId'>,
    at: Date,
    edge: Boundary['edge'],
  ): Promise<void> {
    const payload = { windowId: w.id, integrationId: w.integrationId, at: at.toISOString(), edge }
    const dedupeKey = `maintenance:${w.id}:${edge}:${payload.at}`
    await this.queue.enqueue(tx, [maintenanceJob.job({ id: uuidv7(), payload, dedupeKey, runAt: at })])
  }

  handOver(): void {
    this.queue.handOver()
  }
}

interface MaintenanceJobDeps {
  store: Store
  executor: Pick<AlertExecutor, 'run'>
  clock: Clock
  log: FastifyBaseLogger
  jobs: MaintenanceJobs
  deliveries: Pick<DeliveryJobs, 'handOver'>
}

/** The job kind the runtime runs (services.ts). */
export function maintenanceKind(o: Omit<MaintenanceJobDeps, 'jobs'> & { queue: JobProducer }): JobKindEntry {
  const d: MaintenanceJobDeps = { ...o, jobs: new MaintenanceJobs(o.queue, o.clock) }
  return jobKind(maintenanceJob, async (job) => {
    const b = job.payload
    const now = d.clock()
    const window = await d.store.maintenance.find(b.windowId)
    if (window && (b.edge === 'start' || b.edge === 'end')) await boundaryEvent(d.store, window, b, now)
    const upcoming = window ? upcomingOf(window.schedule, now) : null
    if (upcoming?.exhausted)
      d.log.warn(
        { windowId: b.windowId },
        'maintenance: the expansion budget ran out working out the occurrences ahead; tried again in a day',
      )
    if (!activeIn(upcoming, now)) {
      const released = await release(d, b.windowId, now, { canRetry: job.canRetry, canWait: job.canWait })
      if (released) return released
    }
    if (window && upcoming) {
      // A window changed since it was read has its own job queued by the change: it takes over.
      await d.store.transaction(async (tx) => {
        if (await tx.maintenance.setUpcoming(window.id, window.updatedAt, upcoming))
          await d.jobs.next(tx, window, upcoming, now)
      })
      d.jobs.handOver()
    }
    return { kind: 'done' }
  })
}

/** `Maintenance Window Started` / `Ended`, when the payload's instant is the edge of an occurrence. */
async function boundaryEvent(store: Store, w: MaintenanceWindow, b: Boundary, now: Date): Promise<void> {
  const at = new Date(b.at)
  const start = b.edge === 'start'
  // A job queued before the window changed may name an instant that is no edge of it any more.
  const occurrence = occurrenceAt(w.schedule, start ? at : new Date(at.getTime() - 1))
  if (!occurrence) return
  if ((start ? occurrence.start : occurrence.end).getTime() !== at.getTime()) return
  const integration = await store.integrations.findById(w.integrationId)
  if (!integration) return
  await recordBoundary(store, integration, w, start ? 'start' : 'end', occurrence, now)
}

/**
 * Writes the boundary's audit event, once per window, edge and instant (its messageId): by the job at
 * the boundary, or by the save of a window that is running already (it has no job at its start).
 */
export async function recordBoundary(
  store: Store,
  integration: Pick<Integration, 'id' | 'partnerId' | 'vendorId'>,
  w: Pick<MaintenanceWindow, 'id' | 'name' | 'mode'>,
  edge: 'start' | 'end',
  occurrence: Occurrence,
  now: Date,
): Promise<void> {
  const start = edge === 'start'
  const at = (start ? occurrence.start : occurrence.end).toISOString()
  await store.events.insert({
    messageId: `maintenance:${w.id}:${edge}:${at}`,
    partnerId: integration.partnerId,
    vendorId: integration.vendorId,
    integrationId: integration.id,
    correlationId: null,
    event: start ? 'Maintenance Window Started' : 'Maintenance Window Ended',
    status: 'success',
    httpStatus: 200,
    incidentStatus: null,
    strategy: 'sync',
    request: null,
    detail: start
      ? `Maintenance window '${w.name}' (${w.id}, ${w.mode}) started; it ends at ${occurrence.end.toISOString()}.`
      : `Maintenance window '${w.name}' (${w.id}, ${w.mode}) ended.`,
    createdAt: now.toISOString(),
  })
}

/**
 * Releases the window's held alerts in the order they were held: each runs through the executor
 * under its own messageId (a release that runs twice finds its outcome recorded). A PSA that asks to
 * wait, or a failure worth retrying, stops the run so that the order is kept: the job answers it.
 */
async function release(
  d: MaintenanceJobDeps,
  windowId: string,
  now: Date,
  job: { canRetry: boolean; canWait: boolean },
): Promise<JobResult | null> {
  for (;;) {
    const held = await d.store.maintenance.due(windowId, now.toISOString(), true, releaseBatch)
    for (const h of held) {
      const execution = await d.executor.run(
        {
          messageId: h.releaseMessageId,
          strategy: h.strategy,
          vendorId: h.vendorId,
          partnerId: h.partnerId,
          integrationId: h.integrationId,
          facts: h.facts,
          attempt: 1,
          request: h.request,
          newCorrelationId: h.newCorrelationId,
        },
        { deferRetryable: job.canRetry, deferThrottled: job.canWait, adoptRecorded: true },
      )
      switch (execution.kind) {
        case 'recorded':
        case 'adopted':
          await d.store.maintenance.released(h.id)
          if (execution.kind === 'recorded' && execution.notified) d.deliveries.handOver()
          break
        case 'deferred': {
          const { failure } = execution
          if (failure.throttled && job.canWait)
            return { kind: 'wait', reason: failure.message, notBeforeMs: failure.retryAfterMs ?? 0 }
          return { kind: 'retry', reason: failure.message, notBeforeMs: failure.retryAfterMs }
        }
        case 'unrecorded':
          return { kind: 'retry', reason: 'a released alert could not be recorded' }
      }
    }
    if (held.length < releaseBatch) return null
    d.log.info({ windowId, released: held.length }, 'maintenance: released a batch of held alerts')
  }
}
