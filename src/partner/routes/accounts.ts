// Partner API: the vendor's accounts of an integration and their mapping to PSA companies.
import Type from 'typebox'
import type { App } from '../../http/app-types.js'
import { partnerId } from '../../http/auth.js'
import { failures, IdParams, Nullable } from '../../http/schemas.js'
import type { Services } from '../../services.js'

const MappingView = Type.Object({
  accountId: Type.String(),
  psaCompanyId: Type.String(),
  board: Nullable(Type.String()),
})

const AccountRow = Type.Object({
  vendorAccountId: Type.String(),
  name: Type.String(),
  externalId: Type.String(),
  mapping: Nullable(Type.Object({ psaCompanyId: Type.String(), board: Nullable(Type.String()) })),
})

const AccountParams = Type.Object({
  id: IdParams.properties.id,
  accountId: Type.String({ minLength: 1, maxLength: 128 }),
})

export function registerPartnerAccounts(app: App, s: Services): void {
  const base = { onRequest: s.auth.partner }
  const meta = { tags: ['partner'], security: [{ partnerKey: [] }] }

  app.get(
    '/api/partner/integrations/:id/accounts',
    {
      ...base,
      schema: {
        ...meta,
        summary: "The vendor's accounts with their mapping (null: not mapped)",
        params: IdParams,
        response: { 200: Type.Object({ data: Type.Array(AccountRow) }), ...failures(401, 404) },
      },
    },
    async (request) => {
      const integration = await s.partnerSetup.integration(partnerId(request), request.params.id)
      const [accounts, mappings] = await Promise.all([
        s.store.vendorData.listAccounts(integration.id),
        s.store.mappings.list(integration.id),
      ])
      const byAccount = new Map(mappings.map((m) => [m.accountId, m]))
      return {
        data: accounts.map((a) => {
          const m = byAccount.get(a.vendorAccountId)
          return {
            vendorAccountId: a.vendorAccountId,
            name: a.name,
            externalId: a.externalId,
            mapping: m ? { psaCompanyId: m.psaCompanyId, board: m.board } : null,
          }
        }),
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
        params: AccountParams,
        body: Type.Object({
          psaCompanyId: Type.String({ minLength: 1, maxLength: 128 }),
          board: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 128 }))),
        }),
        response: { 200: MappingView, ...failures(400, 401, 404) },
      },
    },
    async (request) => {
      const integration = await s.partnerSetup.integration(partnerId(request), request.params.id)
      return s.partnerSetup.putMapping(integration, {
        accountId: request.params.accountId,
        psaCompanyId: request.body.psaCompanyId,
        board: request.body.board ?? null,
      })
    },
  )

  app.delete(
    '/api/partner/integrations/:id/accounts/:accountId',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'Remove the mapping of an account',
        params: AccountParams,
        response: { 204: Type.Null(), ...failures(401, 404) },
      },
    },
    async (request, reply) => {
      const integration = await s.partnerSetup.integration(partnerId(request), request.params.id)
      await s.partnerSetup.deleteMapping(integration, request.params.accountId)
      return reply.code(204).send(null)
    },
  )
}
