// Partner API: the vendor's accounts of an integration and their mapping to PSA companies.
import Type from 'typebox'
import { CatchAllRemap } from '../../alerts/index.js'
import type { Clock } from '../../platform/clock.js'
import type { Store } from '../../platform/db/store.js'
import type { App } from '../../platform/http/app-types.js'
import { orRefuse } from '../../platform/http/errors.js'
import { callers, operation } from '../../platform/http/openapi/operation-doc.js'
import { decodeKeyCursor, pageByKey } from '../../platform/http/pagination.js'
import { failures, IdParams, KeyCursor, LongLimit, Nullable, Page } from '../../platform/http/schemas.js'
import type { PsaRegistry } from '../../psa/index.js'
import { type AuthHooks, partnerId } from '../../tenants/index.js'
import type { PartnerSetup } from '../setup.js'

const MappingView = Type.Object({
  accountId: Type.String(),
  psaCompanyId: Type.String(),
  board: Nullable(Type.String()),
  catchAllTickets: Type.Optional(
    Type.Object(
      { moved: Type.Integer(), noted: Type.Integer(), failed: Type.Integer() },
      {
        description:
          "the account's open catch-all tickets: moved to the company, or given a note that says where its new alerts go (docs/partner-api.md#catch-all-account)",
      },
    ),
  ),
})

const AccountRow = Type.Object({
  vendorAccountId: Type.String(),
  name: Type.String(),
  externalId: Type.String(),
  mapping: Nullable(Type.Object({ psaCompanyId: Type.String(), board: Nullable(Type.String()) })),
})

const MappingInput = {
  psaCompanyId: Type.String({ minLength: 1, maxLength: 128 }),
  board: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 128 }))),
}

const AccountParams = Type.Object({
  id: IdParams.properties.id,
  accountId: Type.String({ minLength: 1, maxLength: 128 }),
})

export interface PartnerAccountRoutesDeps {
  auth: Pick<AuthHooks, 'partner'>
  store: Store
  clock: Clock
  psa: PsaRegistry
  partnerSetup: Pick<PartnerSetup, 'integration' | 'putMapping' | 'putMappings' | 'deleteMapping'>
}

export function registerPartnerAccounts(app: App, s: PartnerAccountRoutesDeps): void {
  const base = { onRequest: s.auth.partner }
  const meta = { tags: ['partner'], security: [{ partnerKey: [] }] }
  const remap = new CatchAllRemap(s)

  app.get(
    '/api/partner/integrations/:id/accounts',
    {
      ...base,
      schema: {
        ...meta,
        summary:
          "The vendor's accounts with their mapping (null: not mapped), by vendorAccountId, 500 a page; filtered by mapping and a search",
        ...operation({ id: 'listPartnerAccounts', description: `Paged with \`cursor\`. ${callers.partner}` }),
        params: IdParams,
        querystring: Type.Object({
          mapped: Type.Optional(
            Type.Boolean({ description: 'true: only mapped accounts; false: only unmapped' }),
          ),
          search: Type.Optional(
            Type.String({
              minLength: 1,
              maxLength: 128,
              description: 'part of the name, the vendorAccountId or the externalId, case ignored',
            }),
          ),
          limit: Type.Optional(LongLimit),
          cursor: Type.Optional(KeyCursor),
        }),
        response: { 200: Page(AccountRow), ...failures(400, 401, 404) },
      },
    },
    async (request) => {
      const { mapped, search, limit = 500, cursor } = request.query
      const after = decodeKeyCursor(cursor, 1)?.[0]
      const integration = orRefuse(await s.partnerSetup.integration(partnerId(request), request.params.id))
      const rows = await s.store.vendorData.listAccountsWithMappings(integration.id, {
        after,
        limit: limit + 1,
        mapped,
        search,
      })
      const { data, nextCursor } = pageByKey(rows, limit, (r) => [r.account.vendorAccountId])
      return {
        data: data.map(({ account: a, mapping }) => ({
          vendorAccountId: a.vendorAccountId,
          name: a.name,
          externalId: a.externalId,
          mapping,
        })),
        nextCursor,
      }
    },
  )

  app.put(
    '/api/partner/integrations/:id/accounts/:accountId',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'Map an account to a PSA company (and optionally a board)',
        ...operation({
          id: 'mapAccount',
          description: `Alerts for this account then open tickets for this PSA company (and board); its open catch-all tickets are moved there where the PSA can, else noted. ${callers.partner}`,
          body: { psaCompanyId: '100', board: 'Service Desk' },
        }),
        params: AccountParams,
        body: Type.Object(MappingInput),
        response: { 200: MappingView, ...failures(400, 401, 404) },
      },
    },
    async (request) => {
      const integration = orRefuse(await s.partnerSetup.integration(partnerId(request), request.params.id))
      const mapping = orRefuse(
        await s.partnerSetup.putMapping(integration, {
          accountId: request.params.accountId,
          psaCompanyId: request.body.psaCompanyId,
          board: request.body.board ?? null,
        }),
      )
      const moved = await remap.remapped(integration, mapping)
      return moved.moved + moved.noted + moved.failed > 0 ? { ...mapping, catchAllTickets: moved } : mapping
    },
  )

  app.patch(
    '/api/partner/integrations/:id/accounts',
    {
      ...base,
      schema: {
        ...meta,
        summary:
          'Map several accounts at once (e.g. every confident suggestion), all or none; the accounts not named keep their mapping',
        ...operation({
          id: 'mapAccounts',
          description: `Several accounts mapped in one transaction, all or none (an undeclared or repeated account refuses all): e.g. every confident suggestion of the setup wizard; each account's open catch-all tickets as for one. ${callers.partner}`,
          body: { mappings: [{ accountId: 'acme-001', psaCompanyId: '100' }] },
        }),
        params: IdParams,
        body: Type.Object({
          mappings: Type.Array(
            Type.Object({ accountId: AccountParams.properties.accountId, ...MappingInput }),
            { minItems: 1, maxItems: 1000 },
          ),
        }),
        response: { 200: Type.Object({ data: Type.Array(MappingView) }), ...failures(400, 401, 404) },
      },
    },
    async (request) => {
      const integration = orRefuse(await s.partnerSetup.integration(partnerId(request), request.params.id))
      const mappings = orRefuse(
        await s.partnerSetup.putMappings(
          integration,
          request.body.mappings.map((m) => ({
            accountId: m.accountId,
            psaCompanyId: m.psaCompanyId,
            board: m.board ?? null,
          })),
        ),
      )
      const data = []
      for (const mapping of mappings) {
        const moved = await remap.remapped(integration, mapping)
        data.push(
          moved.moved + moved.noted + moved.failed > 0 ? { ...mapping, catchAllTickets: moved } : mapping,
        )
      }
      return { data }
    },
  )

  app.delete(
    '/api/partner/integrations/:id/accounts/:accountId',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'Remove the mapping of an account',
        ...operation({
          id: 'unmapAccount',
          description: `Its alerts are then refused (ACCOUNT_NOT_MAPPED), or go to the catch-all account where it is on. ${callers.partner}`,
        }),
        params: AccountParams,
        response: { 204: Type.Null(), ...failures(401, 404) },
      },
    },
    async (request, reply) => {
      const integration = orRefuse(await s.partnerSetup.integration(partnerId(request), request.params.id))
      orRefuse(await s.partnerSetup.deleteMapping(integration, request.params.accountId))
      return reply.code(204).send(null)
    },
  )
}
