// @alertbridge/vendor: the vendor's client of alertbridge (README.md beside this folder).
export {
  type AlertData,
  type AlertFields,
  type AlertInput,
  type AlertOptions,
  type AlertResult,
  type EventsPage,
  type ListenedEvent,
  type TestEventName,
  VendorClient,
  type VendorClientOptions,
} from './client.js'
export { AlertbridgeError } from './errors.js'
export type { components, operations, paths, webhooks } from './openapi.js'
export {
  backoffDelay,
  isRetryable,
  parseRetryAfter,
  type RetryInfo,
  type RetryOptions,
  retryDefaults,
  withRetries,
} from './retry.js'
export { type TokenAnswer, TokenSource, type TokenSourceOptions } from './token.js'
export { authOf, type Fetch } from './transport.js'
export {
  type EventMeta,
  type HeadersLike,
  normaliseHeaders,
  type StateSnapshotEvent,
  type StatusUpdateEvent,
  type VerifyOptions,
  verify,
  verifyWebhook,
  type WebhookEvent,
  WebhookVerificationError,
} from './webhooks.js'
