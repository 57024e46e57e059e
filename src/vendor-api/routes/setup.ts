// The vendor's setup and usage calls (docs/vendor-api.md, "Setup calls"), with the bearer token of
// POST /api/oauth/token.
import Type from 'typebox'
import type { Clock } from '../../platform/clock.js'
import type { Store } from '../../platform/db/store.js'
import type { App } from '../../platform/http/app-types.js'
import { orRefuse } from '../../platform/http/errors.js'
import { callers, operation } from '../../platform/http/openapi/operation-doc.js'
import { decodeKeyCursor, pageByKey } from '../../platform/http/pagination.js'
import { failures, Page } from '../../platform/http/schemas.js'
import { type AuthHooks, vendorIntegration, vendorPrincipal } from '../../tenants/index.js'
import { account, integrationId } from '../openapi.js'
import type { VendorSetup } from '../setup.js'
import {
  AccountBody,
  AccountList,
  AccountView,
  BulkAccountsView,
  CountBody,
  CountView,
  Id,
  IntegrationQuery,
  ListQuery,
  ServiceBody,
  ServiceView,
  StatusBody,
  StatusView,
} from './setup-schemas.js'

export interface VendorSetupRoutesDeps {
  auth: Pick<AuthHooks, 'vendor'>
  store: Store
  clock: Clock
  vendorSetup: Pick<VendorSetup, 'upsertAccounts' | 'startMapping' | 'recordUsage'>
}

export function registerVendorSetup(app: App, s: VendorSetupRoutesDeps): void {
  const common = { onRequest: s.auth.vendor }
  const security = [{ vendorToken: [] }]

  app.post(
    '/api/vendor-api/organization/accounts',
    {
      ...common,
      schema: {
        tags: ['vendor'],
        summary: 'Create (or update) one account, or up to 500 in one call; idempotent per vendorAccountId',
        ...operation({
          id: 'createAccounts',
          description: `The partner maps these accounts to PSA companies; an alert's data.accountId names one. ${callers.vendor}`,
          body: { vendorAccountId: 'acme-001', name: 'Acme Corp', externalId: 'ACME-001' },
          answers: { '201': account, '200': account },
        }),
        description:
          'One account answers 201 when new and 200 when it existed. A list is written all or nothing and answers 200 with every account and how many were new.',
        security,
        querystring: IntegrationQuery,
        body: Type.Union([AccountBody, AccountList]),
        response: {
          200: Type.Union([AccountView, BulkAccountsView]),
          201: AccountView,
          ...failures(400, 401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const integration = orRefuse(
        await vendorIntegration(s.store, vendorPrincipal(request), request.query.integrationId),
      )
      const body = request.body
      if (!Array.isArray(body)) {
        const { account, created } = orRefuse(await s.vendorSetup.upsertAccounts(integration, [body]))[0]!
        return reply.code(created ? 201 : 200).send(account)
      }
      const results = orRefuse(await s.vendorSetup.upsertAccounts(integration, body))
      const created = results.filter((r) => r.created).length
      return reply.code(200).send({
        data: results.map((r) => r.account),
        created,
        updated: results.length - created,
      })
    },
  )

  app.get(
    '/api/vendor-api/organization/accounts',
    {
      ...common,
      schema: {
        tags: ['vendor'],
        summary: "The integration's accounts, by vendorAccountId, 500 a page unless `limit` says otherwise",
        ...operation({
          id: 'listAccounts',
          description: `Paged by vendorAccountId with \`cursor\`. ${callers.vendor}`,
          answers: { '200': { data: [account], nextCursor: null } },
        }),
        security,
        querystring: ListQuery,
        response: { 200: Page(AccountView), ...failures(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { integrationId, limit = 500, cursor } = request.query
      const after = decodeKeyCursor(cursor, 1)?.[0]
      const integration = orRefuse(await vendorIntegration(s.store, vendorPrincipal(request), integrationId))
      const rows = await s.store.vendorData.listAccounts(integration.id, { after, limit: limit + 1 })
      return pageByKey(rows, limit, (a) => [a.vendorAccountId])
    },
  )

  app.post(
    '/api/vendor-api/organization/services',
    {
      ...common,
      schema: {
        tags: ['vendor'],
        summary: 'Create (or update) a service; idempotent per id',
        ...operation({
          id: 'createService',
          description: `A service (a product the partner bills), for usage counts. ${callers.vendor}`,
          body: { id: 'edr-seat', name: 'EDR seat', description: 'One protected endpoint' },
        }),
        security,
        querystring: IntegrationQuery,
        body: ServiceBody,
        response: { 200: ServiceView, 201: ServiceView, ...failures(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const integration = orRefuse(
        await vendorIntegration(s.store, vendorPrincipal(request), request.query.integrationId),
      )
      const b = request.body
      const { service, created } = await s.store.vendorData.upsertService(
        integration.id,
        { id: b.id, name: b.name, description: b.description ?? '' },
        s.clock().toISOString(),
      )
      return reply.code(created ? 201 : 200).send(service)
    },
  )

  app.get(
    '/api/vendor-api/organization/services',
    {
      ...common,
      schema: {
        tags: ['vendor'],
        summary: "The integration's services, by id, 500 a page unless `limit` says otherwise",
        ...operation({
          id: 'listServices',
          description: `Paged by id with \`cursor\`. ${callers.vendor}`,
        }),
        security,
        querystring: ListQuery,
        response: { 200: Page(ServiceView), ...failures(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { integrationId, limit = 500, cursor } = request.query
      const after = decodeKeyCursor(cursor, 1)?.[0]
      const integration = orRefuse(await vendorIntegration(s.store, vendorPrincipal(request), integrationId))
      const rows = await s.store.vendorData.listServices(integration.id, { after, limit: limit + 1 })
      return pageByKey(rows, limit, (v) => [v.id])
    },
  )

  app.get(
    '/api/vendor-api/status/mapping',
    {
      ...common,
      schema: {
        tags: ['vendor'],
        summary: "The integration's state (created, mapping, pending or connected)",
        ...operation({
          id: 'getIntegrationStatus',
          description: `created → mapping (you) → pending (the partner completed the mapping) → connected (first alert or count). Alerts need pending or connected. ${callers.vendor}`,
          answers: { '200': { integrationId, state: 'pending' } },
        }),
        security,
        querystring: IntegrationQuery,
        response: { 200: StatusView, ...failures(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const integration = orRefuse(
        await vendorIntegration(s.store, vendorPrincipal(request), request.query.integrationId),
      )
      return { integrationId: integration.id, state: integration.settings.state }
    },
  )

  app.patch(
    '/api/vendor-api/status/mapping',
    {
      ...common,
      schema: {
        tags: ['vendor'],
        summary: 'Set the integration status to mapping',
        ...operation({
          id: 'startMapping',
          description: `Tells the partner the integration is ready to be mapped (created → mapping); the partner then maps accounts, adds a rule and completes the mapping. An unbound token names the integration with \`id\`. ${callers.vendor}`,
          body: {},
          answers: { '200': { integrationId, state: 'mapping' } },
        }),
        security,
        body: StatusBody,
        response: { 200: StatusView, ...failures(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const integration = orRefuse(
        await vendorIntegration(s.store, vendorPrincipal(request), request.body.id),
      )
      return { integrationId: integration.id, state: orRefuse(await s.vendorSetup.startMapping(integration)) }
    },
  )

  app.post(
    '/api/vendor-api/service/:serviceId/count',
    {
      ...common,
      schema: {
        tags: ['vendor'],
        summary: 'Send a usage count for a service and account',
        ...operation({
          id: 'sendUsageCount',
          description: `The units of a service an account uses now; the partner's PSA billing line follows it. Needs pending or connected. ${callers.vendor}`,
          body: { unitCount: 42, accountId: 'acme-001' },
        }),
        security,
        params: Type.Object({ serviceId: Id('the service') }),
        querystring: IntegrationQuery,
        body: CountBody,
        response: { 201: CountView, ...failures(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const integration = orRefuse(
        await vendorIntegration(s.store, vendorPrincipal(request), request.query.integrationId),
      )
      const { usage, state } = orRefuse(
        await s.vendorSetup.recordUsage(integration, request.params.serviceId, request.body),
      )
      return reply.code(201).send({ ...usage, integrationState: state })
    },
  )
}
