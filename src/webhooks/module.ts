// The webhooks module, built once by the composition root (src/main/services.ts): the outbox every
// outcome and event goes through, the delivery jobs and their sender, state_snapshots, and the vendor's
// webhook, events and deliveries routes (docs/webhooks.md).
import type { ModuleParts } from '../platform/composition/module.js'
import type { Platform } from '../platform/composition/platform.js'
import type { AuthHooks, ProductGroupSource, Provisioning } from '../tenants/index.js'
import { DeliveryJobs, deliveryJob, deliveryKind } from './delivery-job.js'
import { WebhookOutbox } from './outbox.js'
import { defaultRetryScheduleSeconds } from './retry-policy.js'
import { registerDeliveries } from './routes/deliveries.js'
import { registerVendorEvents } from './routes/events.js'
import { registerVendorWebhook } from './routes/webhook.js'
import { WebhookSender } from './sender.js'
import { SnapshotScheduler, snapshotKind } from './snapshots.js'

export interface WebhooksModule extends ModuleParts {
  outbox: WebhookOutbox
  /** Queues webhook deliveries' jobs (the outbox, replays, an endpoint enabled again). */
  deliveryJobs: DeliveryJobs
  /** Sends one attempt of a delivery (the delivery job's handler); counts this process's attempts. */
  sender: WebhookSender
  snapshots: SnapshotScheduler
}

/** The first part, which the tenants module's ports need before the tenants module exists. */
export interface WebhookQueues extends Pick<WebhooksModule, 'deliveryJobs' | 'snapshots'> {
  /** The retry schedule of a delivery's attempts (WEBHOOK_RETRY_SCHEDULE or the default). */
  scheduleSeconds: readonly number[]
}

export function webhookQueues(p: Platform): WebhookQueues {
  const scheduleSeconds = p.config.webhookRetryScheduleSeconds ?? defaultRetryScheduleSeconds
  return {
    scheduleSeconds,
    // A delivery's attempts are jobs of the queue, 4 in flight per endpoint (delivery-job.ts).
    deliveryJobs: new DeliveryJobs(p.queue, deliveryJob(scheduleSeconds)),
    snapshots: new SnapshotScheduler(p.queue, p.clock, p.config.snapshotCoalesceMs),
  }
}

export function webhooksModule(
  p: Platform,
  d: {
    queues: WebhookQueues
    tenants: { auth: AuthHooks; productGroups: ProductGroupSource; provisioning: Provisioning }
  },
): WebhooksModule {
  const { store, clock, log, writes } = p
  const { auth, productGroups, provisioning } = d.tenants
  const { deliveryJobs, snapshots, scheduleSeconds } = d.queues
  const outbox = new WebhookOutbox(clock, productGroups, deliveryJobs)
  const http = p.outbound('alertbridge-webhooks/1')
  const sender = new WebhookSender({ store, writes, http, clock, log, scheduleSeconds })
  return {
    outbox,
    deliveryJobs,
    sender,
    snapshots,
    routes: [
      (app) => registerVendorWebhook(app, { auth, store, clock, productGroups, provisioning, deliveryJobs }),
      (app) => registerVendorEvents(app, { auth, store, clock }),
      (app) => registerDeliveries(app, { auth, store, clock, deliveryJobs }),
    ],
    jobs: [
      snapshotKind({ store, outbox, productGroups, deliveries: deliveryJobs }),
      deliveryKind(deliveryJobs.spec, { store, sender, jobs: p.jobs, clock, log }),
    ],
  }
}
