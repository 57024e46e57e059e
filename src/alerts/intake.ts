// The part of alert intake shared by both strategies: credentials (row 2), the vendor's rate limit
// (row 3) and the integration lookup (row 4). Nothing is stored for these rows: no tenant is known.
import type { Integration } from '../db/repositories/integrations.js'
import type { Vendor } from '../db/repositories/vendors.js'
import type { Store } from '../db/store.js'
import type { AlertFacts } from '../domain/types.js'
import { ApiError } from '../http/errors.js'
import { digest, sameDigest } from '../security/secrets.js'
import { authenticateClient } from '../vendor/token-service.js'
import { type RateDecision, rateLimitHeaders, type VendorRateLimiter } from './rate-limit.js'
import type { AlertRequest } from './schema.js'

export interface Admitted {
  vendor: Vendor
  integration: Integration
  rate: RateDecision
}

const badCredentials = 'clientId, clientSecret or organizationOemToken is wrong.'

/** The reads intake needs: the Store, or a cache in front of it (cached-reads.ts). */
export interface IntakeReads {
  vendors: Pick<Store['vendors'], 'findByClientId'>
  integrations: Pick<Store['integrations'], 'findByOrgTokenDigest'>
}

export class AlertIntake {
  constructor(
    private readonly store: IntakeReads,
    private readonly limiter: VendorRateLimiter,
  ) {}

  async admit(body: AlertRequest, messageId: string, correlationId: string | null): Promise<Admitted> {
    const fail = (
      code: ConstructorParameters<typeof ApiError>[0],
      detail: string,
      headers?: Record<string, string>,
    ) => new ApiError(code, detail, { messageId, correlationId, ...(headers ? { headers } : {}) })

    // Row 2.
    if (body.grantType !== 'client_credentials')
      throw fail('INVALID_CREDENTIALS', "grantType must be 'client_credentials'.")
    if (body.scope !== 'vendor_manage') throw fail('INVALID_CREDENTIALS', "scope must be 'vendor_manage'.")
    const vendor = await authenticateClient(this.store.vendors, body.clientId, body.clientSecret)
    if (!vendor) throw fail('INVALID_CREDENTIALS', badCredentials)
    const orgTokenDigest = digest(body.organizationOemToken)
    const integration = await this.store.integrations.findByOrgTokenDigest(orgTokenDigest)
    if (
      !integration ||
      integration.vendorId !== vendor.id ||
      !sameDigest(orgTokenDigest, integration.orgTokenDigest)
    ) {
      throw fail('INVALID_CREDENTIALS', badCredentials)
    }

    // Row 3.
    const rate = await this.limiter.consume(vendor.id, vendor.rateLimitPerMinute)
    if (!rate.allowed) {
      throw fail(
        'RATE_LIMITED',
        `More than ${rate.limit} alerts a minute; retry after ${rate.resetSeconds} s.`,
        rateLimitHeaders(rate),
      )
    }

    // Row 4.
    if (integration.id !== body.integrationId) {
      throw fail(
        'INTEGRATION_NOT_FOUND',
        `integrationId '${body.integrationId}' is not an integration of this vendor and organization.`,
        rateLimitHeaders(rate),
      )
    }
    return { vendor, integration, rate }
  }
}

/** The alert's facts; `correlationID` is accepted as a spelling of `correlationId`. */
export function alertFacts(body: AlertRequest, messageId: string): AlertFacts {
  const { correlationId, correlationID } = body
  if (correlationId !== undefined && correlationID !== undefined && correlationId !== correlationID) {
    throw new ApiError(
      'VALIDATION_FAILED',
      'correlationId and correlationID are both given and differ; send one.',
      {
        messageId,
        correlationId: null,
      },
    )
  }
  return factsOf(redactedRequest(body))
}

/** The alert as received, credentials removed: what the audit trail keeps and a queued job carries. */
export interface RedactedRequest {
  integrationId: string
  correlationId: string | null
  data: AlertRequest['data']
}

export function redactedRequest(body: AlertRequest): RedactedRequest {
  return {
    integrationId: body.integrationId,
    correlationId: body.correlationId ?? body.correlationID ?? null,
    data: body.data,
  }
}

/** The facts the decision table reads, from the redacted request (a queued job carries only that). */
export function factsOf(request: RedactedRequest): AlertFacts {
  const d = request.data
  return {
    incidentStatus: d.incidentStatus,
    correlationId: request.correlationId ?? undefined,
    title: d.title,
    summary: d.summary ?? '',
    accountId: d.accountId,
    productGroup: d.productGroup,
    alertType: d.alertType,
  }
}
