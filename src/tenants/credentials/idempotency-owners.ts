// Which routes take an Idempotency-Key and whose key it is (docs/vendor-api.md#idempotency-keys): the
// alert calls (POST under /api/oem-alerts-api/), whose vendor is the one the body's clientId and
// clientSecret authenticate, and the vendor API's changes (POST, PUT, PATCH and DELETE under
// /api/vendor-api/), whose vendor is the bearer token's. A route added under either path takes keys
// with no code of its own (`config: { idempotency: false }` opts one out). The mechanism is
// src/platform/http/idempotency.ts.
import type { FastifyRequest } from 'fastify'
import { type Clock, iso } from '../../platform/clock.js'
import type { Store } from '../../platform/db/store.js'
import type { IdempotencyOptions, KeyOwner, OwnerOf } from '../../platform/http/idempotency.js'
import { operationBudgetMs } from '../../psa/index.js'
import { authenticateClient } from './token-service.js'

const changes = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

export interface IdempotencyDeps {
  store: Pick<Store, 'idempotency'>
  clock: Clock
  /** Where the alert calls' vendor is looked up by clientId: fresh, so a secret rotated a moment ago
   * through another process authenticates (only requests with a key pay the read). */
  vendors: Pick<Store['vendors'], 'findByClientId'>
  /** PSA_TIMEOUT_MS: a synchronous alert may run for a few of these. */
  psaTimeoutMs: number
}

/**
 * An alert's vendor, once its clientId and clientSecret authenticate it. A retry must repeat the body
 * but for the credentials, which a rotation may change between two sends of the same alert; they are
 * checked on every send, the replayed ones too.
 */
function alertSender(d: IdempotencyDeps): OwnerOf {
  return async (request: FastifyRequest): Promise<KeyOwner | null> => {
    const body = request.body
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return null
    const { clientSecret, organizationOemToken: _orgToken, ...repeated } = body as Record<string, unknown>
    const clientId = repeated.clientId
    if (typeof clientId !== 'string' || typeof clientSecret !== 'string') return null
    const match = await authenticateClient(d.vendors, clientId, clientSecret, iso(d.clock))
    if (!match || match.vendor.disabled) return null
    return { vendorId: match.vendor.id, repeated }
  }
}

/** The bearer token's vendor (its auth hook ran before); the token's integration is part of the request. */
const tokenHolder: OwnerOf = (request) => {
  const p = request.principal
  if (p?.kind !== 'vendor') return null
  return { vendorId: p.vendorId, repeated: { body: request.body ?? null, integrationId: p.integrationId } }
}

export function vendorIdempotency(d: IdempotencyDeps): IdempotencyOptions {
  const alerts = alertSender(d)
  return {
    keys: d.store.idempotency,
    clock: d.clock,
    // Longer than a synchronous alert may take; a claim older than this is a process that died.
    leaseMs: Math.max(60_000, operationBudgetMs(d.psaTimeoutMs) + 30_000),
    ownerFor(method, url) {
      if (method === 'POST' && url.startsWith('/api/oem-alerts-api/')) return alerts
      if (changes.has(method) && url.startsWith('/api/vendor-api/')) return tokenHolder
      return undefined
    },
  }
}
