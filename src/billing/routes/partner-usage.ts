// Partner API: billing usage of an integration. The latest count per account and service, each
// saying whether its account and service are mapped, and every vendor account or service that is not
// mapped, so that nothing silently drops out of billing. Plus the history of the counts.
import Type from 'typebox'
import type { Store } from '../../platform/db/store.js'
import type { App } from '../../platform/http/app-types.js'
import { orRefuse } from '../../platform/http/errors.js'
import { callers, operation } from '../../platform/http/openapi/operation-doc.js'
import { decodeKeyCursor, pageByKey } from '../../platform/http/pagination.js'
import { failures, IdParams, KeyCursor, LongLimit, Nullable, Page } from '../../platform/http/schemas.js'
import { type AuthHooks, type PartnerIntegrations, partnerId } from '../../tenants/index.js'
import type { UsagePushes } from '../usage-push.js'
import type { UsagePush } from '../usage-push-plan.js'
import { pairKey } from '../usage-pushes-repository.js'
import { HistoryFilters, UsageView, usageHistory } from '../usage-reads.js'

function pushView(p: UsagePush | undefined) {
  if (!p) return null
  const { serviceId: _s, accountId: _a, usageId: _u, ...view } = p
  return view
}

const Push = Type.Object(
  {
    status: Type.Enum(['pending', 'pushed', 'retrying', 'failed', 'unmapped'], {
      description:
        'pending: waiting for its push; pushed: the PSA took this count; retrying: the PSA failed and it is tried again; failed: refused, or out of retries; unmapped: nowhere to push it (kept, not pushed)',
    }),
    unitCount: Type.Number({ description: 'the count the status is about (the latest)' }),
    psaLineId: Nullable(Type.String({ description: 'the billing line it went, or was going, to' })),
    previousQuantity: Nullable(
      Type.Number({ description: "the line's quantity before, where the PSA said" }),
    ),
    attempts: Type.Integer(),
    detail: Nullable(
      Type.String({ description: 'why it is not pushed, in the PSA’s own words where it gave some' }),
    ),
    updatedAt: Type.String(),
    pushedCount: Nullable(Type.Number({ description: 'the last count the PSA took' })),
    pushedAt: Nullable(Type.String({ description: 'when the PSA took it' })),
  },
  { description: "the push of this pair's counts to the PSA's billing line" },
)

const UsageRow = Type.Object({
  ...UsageView.properties,
  accountMapped: Type.Boolean(),
  psaCompanyId: Nullable(Type.String()),
  serviceMapped: Type.Boolean(),
  psaProductId: Nullable(Type.String()),
  psaLineId: Nullable(Type.String({ description: 'the billing line named for this account, if any' })),
  push: Nullable(Push),
})

/** The unmapped lists name this many, by id; their counts say how many there are. */
const unmappedShown = 100

const UsageOverview = Type.Object({
  data: Type.Array(UsageRow, { description: 'the latest count per service and account, one page' }),
  nextCursor: Nullable(Type.String({ description: 'the next page of `data`; null on the last' })),
  unmappedAccounts: Type.Array(
    Type.Object({ vendorAccountId: Type.String(), name: Type.String(), externalId: Type.String() }),
    {
      description: `the vendor's accounts not mapped to a PSA company: the first ${unmappedShown} by id (every one: GET …/accounts?mapped=false)`,
    },
  ),
  unmappedAccountCount: Type.Integer({ description: 'how many accounts are not mapped' }),
  unmappedServices: Type.Array(
    Type.Object({ id: Type.String(), name: Type.String(), description: Type.String() }),
    {
      description: `the vendor's services not mapped to a PSA product: the first ${unmappedShown} by id (every one: GET …/services?mapped=false)`,
    },
  ),
  unmappedServiceCount: Type.Integer({ description: 'how many services are not mapped' }),
})

export interface PartnerUsageRoutesDeps {
  auth: Pick<AuthHooks, 'partner'>
  store: Store
  partnerIntegrations: Pick<PartnerIntegrations, 'integration'>
  usagePushes: Pick<UsagePushes, 'pushAgain'>
}

export function registerPartnerUsage(app: App, s: PartnerUsageRoutesDeps): void {
  const base = { onRequest: s.auth.partner }
  const meta = { tags: ['partner'], security: [{ partnerKey: [] }] }

  app.get(
    '/api/partner/integrations/:id/usage',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'The latest usage count per account and service (500 a page), and what is not mapped',
        ...operation({
          id: 'getPartnerUsage',
          description: `With the accounts and services not mapped yet, whose counts reach no PSA. ${callers.partner}`,
        }),
        params: IdParams,
        querystring: Type.Object({ limit: Type.Optional(LongLimit), cursor: Type.Optional(KeyCursor) }),
        response: { 200: UsageOverview, ...failures(400, 401, 404) },
      },
    },
    async (request) => {
      const { limit = 500, cursor } = request.query
      const after = decodeKeyCursor(cursor, 2)
      const integration = orRefuse(
        await s.partnerIntegrations.integration(partnerId(request), request.params.id),
      )
      const unmapped = { mapped: false, limit: unmappedShown }
      const [rows, accounts, accountCount, services, serviceCount] = await Promise.all([
        s.store.usage.latest(integration.id, {}, { after, limit: limit + 1 }),
        s.store.vendorData.listAccountsWithMappings(integration.id, unmapped),
        s.store.vendorData.countUnmappedAccounts(integration.id),
        s.store.vendorData.listServicesWithMappings(integration.id, unmapped),
        s.store.vendorData.countUnmappedServices(integration.id),
      ])
      const { data: latest, nextCursor } = pageByKey(rows, limit, (u) => [u.serviceId, u.accountId])
      const serviceIds = [...new Set(latest.map((u) => u.serviceId))]
      const [accountMappings, product, lines, pushes] = await Promise.all([
        s.store.mappings.forAccounts(integration.id, [...new Set(latest.map((u) => u.accountId))]),
        s.store.serviceMappings.forServices(integration.id, serviceIds),
        s.store.usagePushes.linesOf(integration.id, serviceIds),
        s.store.usagePushes.states(
          integration.id,
          latest.map((u) => [u.serviceId, u.accountId] as const),
        ),
      ])
      const company = new Map([...accountMappings].map(([id, m]) => [id, m.psaCompanyId]))
      const line = new Map(lines.map((l) => [pairKey(l.serviceId, l.accountId), l.psaLineId]))
      return {
        nextCursor,
        unmappedAccountCount: accountCount,
        unmappedServiceCount: serviceCount,
        data: latest.map((u) => ({
          ...u,
          accountMapped: company.has(u.accountId),
          psaCompanyId: company.get(u.accountId) ?? null,
          serviceMapped: product.has(u.serviceId) || line.has(pairKey(u.serviceId, u.accountId)),
          psaProductId: product.get(u.serviceId) ?? null,
          psaLineId: line.get(pairKey(u.serviceId, u.accountId)) ?? null,
          push: pushView(pushes.get(pairKey(u.serviceId, u.accountId))),
        })),
        unmappedAccounts: accounts.map(({ account: a }) => ({
          vendorAccountId: a.vendorAccountId,
          name: a.name,
          externalId: a.externalId,
        })),
        unmappedServices: services.map(({ service: v }) => ({
          id: v.id,
          name: v.name,
          description: v.description,
        })),
      }
    },
  )

  app.get(
    '/api/partner/integrations/:id/usage/history',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'Every usage count of the integration, newest first',
        ...operation({
          id: 'listPartnerUsageHistory',
          description: `Paged with \`cursor\`. ${callers.partner}`,
        }),
        params: IdParams,
        querystring: Type.Object({
          serviceId: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
          ...HistoryFilters,
        }),
        response: { 200: Page(UsageView), ...failures(400, 401, 404) },
      },
    },
    async (request) => {
      const integration = orRefuse(
        await s.partnerIntegrations.integration(partnerId(request), request.params.id),
      )
      return orRefuse(await usageHistory(s.store, integration.id, request.query))
    },
  )

  app.post(
    '/api/partner/integrations/:id/usage/push',
    {
      ...base,
      schema: {
        ...meta,
        summary:
          'Push the latest count of every service and account to the PSA again (after fixing what made pushes fail); answers how many were queued',
        ...operation({
          id: 'pushUsage',
          description: `Queues one push per latest count; each runs like a count the vendor sent. ${callers.partner}`,
        }),
        params: IdParams,
        response: { 202: Type.Object({ queued: Type.Integer() }), ...failures(401, 404) },
      },
    },
    async (request, reply) => {
      const integration = orRefuse(
        await s.partnerIntegrations.integration(partnerId(request), request.params.id),
      )
      return reply.code(202).send({ queued: await s.usagePushes.pushAgain(s.store, integration.id) })
    },
  )
}
