// GET /api/oem-alerts-api/alert and /alert/{correlationId} (docs/contract.md#vendor-api-calls,
// docs/contract.md#ticket-record) with the vendor's bearer token; the plural /alerts paths are aliases
// (docs/contract.md#odd-spellings).
import Type from 'typebox'
import type { Store } from '../../platform/db/store.js'
import type { App } from '../../platform/http/app-types.js'
import { orRefuse } from '../../platform/http/errors.js'
import { callers, operation } from '../../platform/http/openapi/operation-doc.js'
import { Cursor, failures, Limit, Page } from '../../platform/http/schemas.js'
import { type AuthHooks, vendorPrincipal } from '../../tenants/index.js'
import { CorrelationId } from '../intake/schema.js'
import { ticket } from '../openapi.js'
import { getTicket, listTickets, type TicketScope } from '../tickets/ticket-reads.js'
import { TicketView, TicketWithHistory } from '../tickets/views.js'

const ListQuery = Type.Object({
  status: Type.Optional(Type.Union([Type.Literal('open'), Type.Literal('closed')])),
  accountId: Type.Optional(Type.String({ maxLength: 128 })),
  integrationId: Type.Optional(Type.String({ maxLength: 64 })),
  cursor: Type.Optional(Cursor),
  limit: Type.Optional(Limit),
})

export interface VendorTicketRoutesDeps {
  auth: Pick<AuthHooks, 'vendor'>
  store: Store
}

async function scopeOf(
  s: VendorTicketRoutesDeps,
  request: Parameters<typeof vendorPrincipal>[0],
  integrationId?: string,
): Promise<TicketScope> {
  const p = vendorPrincipal(request)
  // A partner's test tickets are not the vendor's (docs/partner-api.md#test-alerts).
  const vendor = true
  if (p.integrationId) {
    if (integrationId && integrationId !== p.integrationId) return { integrationIds: [], vendor }
    return { integrationIds: [p.integrationId], vendor }
  }
  const own = (await s.store.integrations.list({ vendorId: p.vendorId })).map((i) => i.id)
  return { integrationIds: integrationId ? own.filter((id) => id === integrationId) : own, vendor }
}

export function registerVendorTickets(app: App, s: VendorTicketRoutesDeps): void {
  for (const base of ['/api/oem-alerts-api/alert', '/api/oem-alerts-api/alerts']) {
    const alias = base.endsWith('alerts')
    app.get(
      base,
      {
        onRequest: s.auth.vendor,
        schema: {
          tags: ['alerts'],
          summary: alias ? 'Alias of GET /api/oem-alerts-api/alert' : 'List tickets, newest first',
          ...operation({
            id: 'listTickets',
            description: `The tickets your alerts made, newest first, paged with \`cursor\`. ${callers.vendor}`,
            answers: { '200': { data: [ticket], nextCursor: null } },
          }),
          hide: alias,
          security: [{ vendorToken: [] }],
          querystring: ListQuery,
          response: { 200: Page(TicketView), ...failures(400, 401) },
        },
      },
      async (request) => {
        const q = request.query
        return orRefuse(
          await listTickets(s.store, await scopeOf(s, request, q.integrationId), {
            ...q,
            limit: q.limit ?? 50,
          }),
        )
      },
    )
    app.get(
      `${base}/:correlationId`,
      {
        onRequest: s.auth.vendor,
        schema: {
          tags: ['alerts'],
          summary: alias
            ? 'Alias of GET /api/oem-alerts-api/alert/{correlationId}'
            : 'A ticket with its event history',
          ...operation({
            id: 'getTicket',
            description: `One ticket by the correlationId its alerts carry, with its events (what each alert did). 409 when the correlationId names tickets of several integrations and the token is unbound: name one with ?integrationId=. ${callers.vendor}`,
          }),
          hide: alias,
          security: [{ vendorToken: [] }],
          params: Type.Object({ correlationId: CorrelationId }),
          querystring: Type.Object({ integrationId: Type.Optional(Type.String({ maxLength: 64 })) }),
          response: { 200: TicketWithHistory, ...failures(400, 401, 404, 409) },
        },
      },
      async (request) => {
        const scope = await scopeOf(s, request, request.query.integrationId)
        return orRefuse(await getTicket(s.store, scope, request.params.correlationId))
      },
    )
  }
}
