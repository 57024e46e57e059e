// A partner (an MSP) and the PSA it connects (docs/architecture.md#the-data-model). The PSA settings are
// stored as given; the PSA layer checks them against the schema of their kind.
import type { StoredPsa } from '../psa/index.js'
import type { Disabled } from './credentials/credentials.js'

export interface Partner {
  id: string
  name: string
  psa: StoredPsa
  createdAt: string
  updatedAt: string
  /** The API key's rotation: until when the key it replaced still works. */
  apiKeyRotation: { rotatedAt: string | null; previousExpiresAt: string | null }
  /** Set while the operator has the partner disabled. */
  disabled: Disabled | null
  /** A vendor's test partner (docs/vendor-api.md#self-serve-test-mode): that vendor's id; its PSA stays the sandbox. */
  sandboxVendorId: string | null
}

/** What an API key authenticates: its partner, which of its keys it is, and whether the partner is disabled. */
export interface PartnerKeyOwner {
  partnerId: string
  key: 'current' | 'previous'
  disabled: Disabled | null
}
