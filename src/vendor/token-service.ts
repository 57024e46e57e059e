// Vendor credentials: client id + secret (spec §5.1) and the bearer tokens of POST /api/oauth/token.

import { v7 as uuidv7 } from 'uuid'
import { type Clock, iso } from '../clock.js'
import type { Vendor } from '../db/repositories/vendors.js'
import type { Store } from '../db/store.js'
import type { ErrorCode } from '../domain/errors.js'
import { digest, matchesDigest, newSecret } from '../security/secrets.js'

export type TokenCheck =
  | { ok: true; vendorId: string; integrationId: string | null; tokenId: string }
  | { ok: false; code: ErrorCode; detail: string }

const dummyDigest = digest('no vendor has this secret')

export class TokenService {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly ttlSeconds: number,
  ) {}

  /** The vendor whose client id and secret these are, or null. Costs one digest, never a password hash. */
  async authenticateClient(clientId: string, clientSecret: string): Promise<Vendor | null> {
    return authenticateClient(this.store.vendors, clientId, clientSecret)
  }

  async issue(
    vendorId: string,
    integrationId: string | null,
  ): Promise<{ accessToken: string; expiresIn: number }> {
    const accessToken = newSecret('accessToken')
    const now = this.clock()
    await this.store.tokens.insert({
      id: uuidv7(),
      vendorId,
      integrationId,
      digest: digest(accessToken),
      expiresAt: new Date(now.getTime() + this.ttlSeconds * 1000).toISOString(),
      revokedAt: null,
      createdAt: now.toISOString(),
    })
    return { accessToken, expiresIn: this.ttlSeconds }
  }

  async verify(accessToken: string): Promise<TokenCheck> {
    const token = await this.store.tokens.findByDigest(digest(accessToken))
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
    if (token.expiresAt <= iso(this.clock)) {
      return {
        ok: false,
        code: 'TOKEN_EXPIRED',
        detail: `The access token expired at ${token.expiresAt}; request a new one from POST /api/oauth/token.`,
      }
    }
    return { ok: true, vendorId: token.vendorId, integrationId: token.integrationId, tokenId: token.id }
  }
}

/** The vendor whose clientId and clientSecret these are; the same work whether or not the id exists. */
export async function authenticateClient(
  vendors: Pick<Store['vendors'], 'findByClientId'>,
  clientId: string,
  clientSecret: string,
): Promise<Vendor | null> {
  const vendor = await vendors.findByClientId(clientId)
  const matches = matchesDigest(clientSecret, vendor?.clientSecretDigest ?? dummyDigest)
  return vendor && matches ? vendor : null
}
