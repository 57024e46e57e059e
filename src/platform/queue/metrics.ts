// The queue at GET /metrics: jobs waiting or running, dead jobs (kept with their reason), how long the
// oldest runnable job has waited, and with Redis, what BullMQ holds (the relay's lag is the relay's own).
import type { Queue } from 'bullmq'
import { Gauge, type Registry } from 'prom-client'
import type { BullJobData } from './redis-transport.js'
import type { SqlJobQueue } from './sql-queue.js'

export function registerQueueMetrics(
  registry: Registry,
  queue: Pick<SqlJobQueue, 'depth' | 'deadCount' | 'oldestWaitMs'>,
  bull: Pick<Queue<BullJobData>, 'getJobCounts'> | null = null,
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
  new Gauge({
    name: 'alertbridge_jobs_oldest_wait_seconds',
    help: 'How long the job due earliest and not running has waited (0: none waits)',
    registers: [registry],
    async collect() {
      this.set((await queue.oldestWaitMs()) / 1000)
    },
  })
  if (bull) {
    new Gauge({
      name: 'alertbridge_queue_redis_jobs',
      help: 'Jobs handed over to Redis (BullMQ), by state: waiting for a worker, running, or waiting a moment',
      labelNames: ['state'],
      registers: [registry],
      async collect() {
        const counts = await bull.getJobCounts('waiting', 'active', 'delayed')
        for (const [state, n] of Object.entries(counts)) this.set({ state }, n)
      },
    })
  }
}
