// A vendor (the Integrator) as the service knows it: its credentials' digests, its webhook endpoint, its
// product-group catalogue (static, or the URL of its own endpoint) and its rate limit
// (docs/architecture.md#the-data-model).
import type { Disabled } from './credentials/credentials.js'

export interface Vendor {
  id: string
  name: string
  clientId: string
  clientSecretDigest: string
  webhookUrl: string | null
  hasWebhookSecret: boolean
  hasWebhookAuthHeader: boolean
  productGroups: Record<string, string[]> | null
  productGroupsUrl: string | null
  /** How to read a differently shaped answer of productGroupsUrl (docs/decisions/catalogue/adapter.md);
   * null: the contract's shape. */
  productGroupsMapping: ProductGroupsMapping | null
  rateLimitPerMinute: number | null
  webhookState: WebhookEndpointState
  webhookStateReason: string | null
  webhookFailingSince: string | null
  createdAt: string
  updatedAt: string
  /** The client secret's rotation: its generation and the secret it replaced (digest), until that expires. */
  clientSecret: RotatingDigest & { version: number }
  /** The webhook signing secret's rotation (the secrets themselves are read only to sign). */
  webhookSecretRotation: { rotatedAt: string | null; previousExpiresAt: string | null }
  /** Set while the operator has the vendor disabled. */
  disabled: Disabled | null
  /** Until when the vendor is long-polling its events: they are recorded even without a webhook URL. */
  listeningUntil: string | null
}

/** What a rotation keeps of the credential it replaced: its digest, until the overlap window ends. */
export interface RotatingDigest {
  previousDigest: string | null
  previousExpiresAt: string | null
  rotatedAt: string | null
}

/** active; paused after days of failures (deliveries wait); disabled by a 410 (deliveries die). */
export type WebhookEndpointState = 'active' | 'paused' | 'disabled'

/** Where and how a vendor's webhook is sent: its URL and its secrets, opened. */
export interface WebhookTarget {
  url: string | null
  secret: string | null
  /** The replaced secret during a rotation's overlap window, and when it stops signing. */
  previousSecret: { secret: string; expiresAt: string } | null
  /** `{"name": …, "value": …}` as the vendor set it. */
  authHeader: string | null
}

/** Where the groups are in a differently shaped answer. Every field is optional; the default is the spec's. */
export interface ProductGroupsMapping {
  /** Dotted path to the array of groups, e.g. `data.groups`; default `productGroups`. */
  groupsPath?: string
  /** Field of a group holding its name; default `productGroup`. */
  groupField?: string
  /** Field of a group holding its alert types (an array, or a comma-separated string); default `alertTypes`. */
  typesField?: string
  /** When the alert types are objects: the field holding the type's name, e.g. `code`. */
  typeNameField?: string
}

export interface AccessToken {
  id: string
  vendorId: string
  integrationId: string | null
  expiresAt: string
  revokedAt: string | null
  createdAt: string
  /** The client secret's and organization token's generations it was issued under
   * (docs/decisions/credentials/tokens-die-with-their-secret.md). */
  clientSecretVersion: number
  orgTokenVersion: number
}
