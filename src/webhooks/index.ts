// The webhooks module's entry (docs/architecture.md#the-modules): everything other modules use of it, and
// nothing else. A file outside this folder imports only from here.
// Its repositories, registered on the Store (src/platform/db/store.ts) when the module loads.
import './deliveries-repository.js'
import './delivery-feed.js'
import './events-repository.js'

export type { AuditEvent, Strategy } from './audit-event.js'
export { DeliveryJobs, deliveryJob, deliveryKind } from './delivery-job.js'
export { openApiWebhooks, webhookSchemas } from './event-types.js'
export type { WebhooksModule } from './module.js'
export { webhookQueues, webhooksModule } from './module.js'
export { WebhookOutbox } from './outbox.js'
export { defaultRetryScheduleSeconds } from './retry-policy.js'
export { WebhookSender } from './sender.js'
export { SnapshotScheduler, snapshotKind } from './snapshots.js'
