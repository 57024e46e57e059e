// The part of alert intake shared by both strategies (docs/decision-table.md): credentials
// (bad-credentials; a rotated secret or token also in its overlap window, a disabled vendor or partner
// 403), the vendor's rate limit (rate-limited) and the integration lookup (unknown-integration). Each
// refusal is answered as a value; nothing is stored for it.
import { type Clock, iso } from '../../platform/clock.js'
import type { ErrorCode } from '../../platform/core/errors.js'
import { ok, type Result, refuse } from '../../platform/core/result.js'
import type { AlertFacts } from '../../platform/core/types.js'
import type { Store } from '../../platform/db/store.js'
import { digest } from '../../platform/security/secrets.js'
import type { Integration, Vendor } from '../../tenants/index.js'
import { authenticateClient, disabledDetail, matchOrgToken } from '../../tenants/index.js'
import { type RateDecision, rateLimitHeaders, type VendorRateLimiter } from './rate-limit.js'
import { type AlertRequest, contractFields, extrasProblem, type RedactedRequest } from './schema.js'

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

type Credentials = { vendor: Vendor; integration: Integration & { orgTokenDigest: string } }
type Fresh = NonNullable<Awaited<ReturnType<Store['integrations']['tenantState']>>>

/** Whether cached credentials are of the generations the database holds now (no rotation since). */
function sameGenerations(c: Credentials, fresh: Fresh): boolean {
  const a = c.vendor.clientSecret
  const b = c.integration.orgToken
  return (
    a.version === fresh.clientSecret.version &&
    a.previousExpiresAt === fresh.clientSecret.previousExpiresAt &&
    b.version === fresh.orgToken.version &&
    b.previousExpiresAt === fresh.orgToken.previousExpiresAt
  )
}

export class AlertIntake {
  constructor(
    /** Vendors and integrations, possibly up to a second old (cached-reads.ts). */
    private readonly reads: IntakeReads,
    /** Never cached: whether a tenant is disabled and the credentials' generations are read here. */
    private readonly fresh: IntakeReads & { integrations: Pick<Store['integrations'], 'tenantState'> },
    private readonly limiter: VendorRateLimiter,
    private readonly clock: Clock,
  ) {}

  /** The vendor and integration these credentials open now (current ones, or replaced ones in their window). */
  private async credentials(
    reads: IntakeReads,
    body: AlertRequest,
    now: string,
  ): Promise<Credentials | null> {
    const client = await authenticateClient(reads.vendors, body.clientId, body.clientSecret, now)
    if (!client) return null
    const presented = digest(body.organizationOemToken)
    const integration = await reads.integrations.findByOrgTokenDigest(presented)
    if (
      !integration ||
      integration.vendorId !== client.vendor.id ||
      matchOrgToken(integration, presented, now) === 'none'
    ) {
      return null
    }
    return { vendor: client.vendor, integration }
  }

  async admit(
    body: AlertRequest,
    messageId: string,
    correlationId: string | null,
  ): Promise<Result<Admitted>> {
    const fail = (code: ErrorCode, detail: string, headers?: Record<string, string>) =>
      refuse(code, detail, { messageId, correlationId, ...(headers ? { headers } : {}) })

    // bad-credentials.
    if (body.grantType !== 'client_credentials')
      return fail('INVALID_CREDENTIALS', "grantType must be 'client_credentials'.")
    if (body.scope !== 'vendor_manage') return fail('INVALID_CREDENTIALS', "scope must be 'vendor_manage'.")
    const now = iso(this.clock)
    let credentials = await this.credentials(this.reads, body, now)
    let state = credentials && (await this.fresh.integrations.tenantState(credentials.integration.id))
    if (credentials && state && !sameGenerations(credentials, state)) {
      // A rotation the cached copy does not know of yet (made through another process): read again.
      credentials = await this.credentials(this.fresh, body, now)
      state = credentials && (await this.fresh.integrations.tenantState(credentials.integration.id))
    }
    if (!credentials || !state) return fail('INVALID_CREDENTIALS', badCredentials)
    const { vendor, integration } = credentials

    // The right credentials of a disabled tenant are refused, and nothing is stored.
    if (state.vendorDisabled)
      return fail('TENANT_DISABLED', disabledDetail('vendor', state.vendorDisabled, 'own'))
    if (state.partnerDisabled)
      return fail('TENANT_DISABLED', disabledDetail('partner', state.partnerDisabled, 'integration'))

    // rate-limited.
    const spent = await this.spend(vendor, { messageId, correlationId })
    if (!spent.ok) return spent
    const rate = spent.value

    // unknown-integration.
    if (integration.id !== body.integrationId) {
      return fail(
        'INTEGRATION_NOT_FOUND',
        `integrationId '${body.integrationId}' is not an integration of this vendor and organization.`,
        rateLimitHeaders(rate),
      )
    }
    return ok({ vendor, integration, rate })
  }

  /** One alert of the vendor's rate limit (a test alert's too): the decision, or the refusal once spent. */
  async spend(
    vendor: Vendor,
    ids: { messageId: string; correlationId: string | null },
  ): Promise<Result<RateDecision>> {
    const rate = await this.limiter.consume(vendor.id, vendor.rateLimitPerMinute)
    if (rate.allowed) return ok(rate)
    return refuse(
      'RATE_LIMITED',
      `More than ${rate.limit} alerts a minute; retry after ${rate.resetSeconds} s.`,
      {
        ...ids,
        headers: rateLimitHeaders(rate),
      },
    )
  }
}

/** The alert's facts; `correlationID` is accepted as a spelling of `correlationId`. */
export function alertFacts(body: AlertRequest, messageId: string): Result<AlertFacts> {
  const { correlationId, correlationID } = body
  if (correlationId !== undefined && correlationID !== undefined && correlationId !== correlationID) {
    return refuse(
      'VALIDATION_FAILED',
      'correlationId and correlationID are both given and differ; send one.',
      {
        messageId,
        correlationId: null,
      },
    )
  }
  const extras = extrasProblem(body.data)
  if (extras) return refuse('VALIDATION_FAILED', extras, { messageId })
  return ok(factsOf(redactedRequest(body)))
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
    ...extrasOf(d),
  }
}

/** The fields of `data` beyond the contract's, when there are any. */
function extrasOf(data: object): Pick<AlertFacts, 'extras'> {
  const extras = Object.entries(data).filter(([name]) => !contractFields.has(name))
  return extras.length > 0 ? { extras: Object.fromEntries(extras) } : {}
}
