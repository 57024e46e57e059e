// At start: the windows saved by a version that did not store their occurrences ahead (migration
// 0026_maintenance_upcoming) get them worked out, each under the expansion budget, with the job of their
// next boundary (deduplicated against the one already queued). Until then such a window applies to no
// alert (docs/decisions/maintenance/recurrence-limits.md); afterwards there is nothing left to do and
// this is one query.
import type { FastifyBaseLogger } from 'fastify'
import type { Clock } from '../../../platform/clock.js'
import type { Store } from '../../../platform/db/store.js'
import type { JobProducer } from '../../../platform/queue/port.js'
import { MaintenanceJobs } from './jobs.js'
import { upcomingOf } from './upcoming.js'

const batch = 100

/** Answers how many windows it worked out. */
export async function backfillUpcoming(d: {
  store: Store
  queue: JobProducer
  clock: Clock
  log: FastifyBaseLogger
}): Promise<number> {
  const jobs = new MaintenanceJobs(d.queue, d.clock)
  let after = ''
  let done = 0
  for (;;) {
    const windows = await d.store.maintenance.withoutUpcoming(after, batch)
    for (const w of windows) {
      const now = d.clock()
      const upcoming = upcomingOf(w.schedule, now)
      await d.store.transaction(async (tx) => {
        if (await tx.maintenance.setUpcoming(w.id, w.updatedAt, upcoming))
          await jobs.next(tx, w, upcoming, now)
      })
      done++
    }
    jobs.handOver()
    const last = windows.at(-1)
    if (!last || windows.length < batch) break
    after = last.id
  }
  if (done > 0)
    d.log.info({ windows: done }, 'maintenance: worked out the occurrences ahead of earlier windows')
  return done
}
