// Vendor credentials: client id + secret (docs/contract.md#authentication), the organization token, and the
// bearer tokens of POST /api/oauth/token. A rotated secret or token keeps working beside its successor
// until its overlap window ends (tenants/credentials/credentials.ts); an access token works only while the generations
// of the secret (and organization token) it was issued under do, and while its tenants are enabled.

import { RateLimiterRes } from 'rate-limiter-flexible'
import { v7 as uuidv7 } from 'uuid'
import { type Clock, iso } from '../../platform/clock.js'
import type { Store } from '../../platform/db/store.js'
import { type Limiter, type LimiterFactory, memoryLimiters } from '../../platform/redis/limiters.js'
import { digest, matchesDigest, newSecret, sameDigest } from '../../platform/security/secrets.js'
import type { VendorTokenCheck } from '../auth.js'
import type { Integration } from '../integrations/integration.js'
import type { Vendor } from '../vendor.js'
import {
  type CredentialMatch,
  disabledDetail,
  generationLive,
  generationOf,
  matchCredential,
} from './credentials.js'

const dummyDigest = digest('no vendor has this secret')

/** A vendor authenticated by its client secret: which of its secrets matched, and that secret's generation. */
export interface ClientMatch {
  vendor: Vendor
  secret: Exclude<CredentialMatch, 'none'>
  secretVersion: number
}

/** How many access tokens a vendor may hold at once, and request a minute
 * (docs/decisions/bounded-growth/token-issuance-limited.md). */
export interface TokenLimits {
  maxActive: number
  perMinute: number
}

/** A new token, or why none was issued and when to ask again. */
export type Issuance =
  | { kind: 'issued'; accessToken: string; expiresIn: number }
  | { kind: 'refused'; detail: string; retryAfterSeconds: number }

export class TokenService {
  /** The installation's count, like the alert limit: in Redis when there is one. */
  private readonly rate: Limiter

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly ttlSeconds: number,
    private readonly limits: TokenLimits,
    make: LimiterFactory = memoryLimiters,
  ) {
    this.rate = make({ keyPrefix: 'access-tokens', points: limits.perMinute, duration: 60 })
  }

  /** The vendor whose client id and secret these are, or null. Costs two digests, never a password hash. */
  async authenticateClient(clientId: string, clientSecret: string): Promise<ClientMatch | null> {
    return authenticateClient(this.store.vendors, clientId, clientSecret, iso(this.clock))
  }

  /**
   * A new token, unless the vendor asked for more than `perMinute` this minute or already holds
   * `maxActive` tokens that still work. The count and the insert happen under a lock on the vendor,
   * so processes racing each other never take the vendor past the cap.
   */
  async issue(
    vendorId: string,
    binding: { integrationId: string; orgTokenVersion: number } | null,
    clientSecretVersion: number,
  ): Promise<Issuance> {
    const { maxActive, perMinute } = this.limits
    try {
      await this.rate.consume(vendorId)
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection
      const wait = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000))
      return {
        kind: 'refused',
        detail: `More than ${perMinute} access tokens requested in a minute; tokens last ${this.ttlSeconds} s, so reuse one until it expires. Retry after ${wait} s.`,
        retryAfterSeconds: wait,
      }
    }
    const accessToken = newSecret('accessToken')
    return this.store.transaction(async (tx): Promise<Issuance> => {
      await tx.tokens.lockVendor(vendorId)
      const now = this.clock()
      const active = await tx.tokens.countActive(vendorId, now.toISOString())
      if (active >= maxActive) {
        const first = await tx.tokens.firstActiveExpiry(vendorId, now.toISOString())
        const wait = Math.max(
          1,
          Math.ceil(((first ? Date.parse(first) : now.getTime()) - now.getTime()) / 1000),
        )
        return {
          kind: 'refused',
          detail: `This vendor already holds ${active} unexpired access tokens, the most it may; reuse one, or have the operator revoke some. The first expires in ${wait} s.`,
          retryAfterSeconds: wait,
        }
      }
      await tx.tokens.insert({
        id: uuidv7(),
        vendorId,
        integrationId: binding?.integrationId ?? null,
        digest: digest(accessToken),
        expiresAt: new Date(now.getTime() + this.ttlSeconds * 1000).toISOString(),
        revokedAt: null,
        createdAt: now.toISOString(),
        clientSecretVersion,
        orgTokenVersion: binding?.orgTokenVersion ?? 1,
      })
      return { kind: 'issued', accessToken, expiresIn: this.ttlSeconds }
    })
  }

  async verify(accessToken: string): Promise<VendorTokenCheck> {
    const token = await this.store.tokens.findInUse(digest(accessToken))
    if (!token || !matchesDigest(accessToken, token.digest)) {
      return {
        ok: false,
        code: 'INVALID_CREDENTIALS',
        detail: 'The access token is not valid; request one from POST /api/oauth/token.',
      }
    }
    if (token.revokedAt) {
      return {
        ok: false,
        code: 'INVALID_CREDENTIALS',
        detail: 'The access token was revoked; request a new one.',
      }
    }
    const now = iso(this.clock)
    if (token.expiresAt <= now) {
      return {
        ok: false,
        code: 'TOKEN_EXPIRED',
        detail: `The access token expired at ${token.expiresAt}; request a new one from POST /api/oauth/token.`,
      }
    }
    if (token.vendor.disabled) {
      return {
        ok: false,
        code: 'TENANT_DISABLED',
        detail: disabledDetail('vendor', token.vendor.disabled, 'own'),
      }
    }
    if (!generationLive(token.clientSecretVersion, token.vendor.clientSecret, now)) {
      return {
        ok: false,
        code: 'INVALID_CREDENTIALS',
        detail:
          'The access token was issued with a client secret that has since been rotated out; request a new one with the current secret.',
      }
    }
    if (token.integration) {
      if (token.integration.disabledPartner) {
        const detail = disabledDetail('partner', token.integration.disabledPartner, 'integration')
        return { ok: false, code: 'TENANT_DISABLED', detail }
      }
      if (!generationLive(token.orgTokenVersion, token.integration.orgToken, now)) {
        return {
          ok: false,
          code: 'INVALID_CREDENTIALS',
          detail:
            'The access token was bound with an organization token that has since been rotated out; request a new one with the current organization token.',
        }
      }
    }
    return { ok: true, vendorId: token.vendorId, integrationId: token.integrationId, tokenId: token.id }
  }
}

/**
 * The vendor whose clientId and clientSecret these are, by its current secret or (during an overlap
 * window) the one a rotation replaced; the same work whether or not the id exists.
 */
export async function authenticateClient(
  vendors: Pick<Store['vendors'], 'findByClientId'>,
  clientId: string,
  clientSecret: string,
  now: string,
): Promise<ClientMatch | null> {
  const vendor = await vendors.findByClientId(clientId)
  const presented = digest(clientSecret)
  const current = sameDigest(presented, vendor?.clientSecretDigest ?? dummyDigest)
  const previous = sameDigest(presented, vendor?.clientSecret.previousDigest ?? dummyDigest)
  if (!vendor) return null
  const match = matchCredential({ current, previous }, vendor.clientSecret.previousExpiresAt, now)
  return match === 'none'
    ? null
    : { vendor, secret: match, secretVersion: generationOf(match, vendor.clientSecret) }
}

/**
 * Which of an integration's organization tokens `presentedDigest` is, if either works now: the
 * current one, or the one a rotation replaced while its overlap window lasts.
 */
export function matchOrgToken(
  integration: Pick<Integration, 'orgToken'> & { orgTokenDigest: string },
  presentedDigest: string,
  now: string,
): CredentialMatch {
  const current = sameDigest(presentedDigest, integration.orgTokenDigest)
  const previous = sameDigest(presentedDigest, integration.orgToken.previousDigest ?? dummyDigest)
  return matchCredential({ current, previous }, integration.orgToken.previousExpiresAt, now)
}
