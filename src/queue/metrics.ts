// The queue at GET /metrics: jobs waiting or running, and dead jobs (kept with their reason).
import { Gauge, type Registry } from 'prom-client'
import type { SqlJobQueue } from './sql-queue.js'

export function registerQueueMetrics(
  registry: Registry,
  queue: Pick<SqlJobQueue, 'depth' | 'deadCount'>,
): void {
  new Gauge({
    name: 'alertbridge_jobs_queued',
    help: 'Jobs waiting or running in the queue',
    registers: [registry],
    async collect() {
      this.set(await queue.depth())
    },
  })
  new Gauge({
    name: 'alertbridge_jobs_dead',
    help: 'Jobs that can never run (their payload does not fit their kind), kept with the reason',
    registers: [registry],
    async collect() {
      this.set(await queue.deadCount())
    },
  })
}
