// The simulated BMS look-ups: the API user, accounts (paged, without a record count, Filter.Name;
// inactive ones only with Filter.WithInactiveAccounts=true), an account's locations, queues,
// priorities, statuses (with their basic status as typeId, and no word on which one completes) and the
// generic /v2/system/lookup/{tableName}: the ticket types, sources and note types answer under the
// names `tableNames` gives (case ignored); any other name is refused, or answered with an empty list
// (`unknownTable`), as BMS might.
import type { FastifyInstance } from 'fastify'
import { contains, okBody, page, query, refuse } from './envelope.js'
import type { KaseyaBmsState, LookupRole } from './types.js'

export function lookupRoutes(app: FastifyInstance, state: KaseyaBmsState): void {
  app.get('/v2/security/userinfo', async () =>
    okBody({
      userId: 17,
      fullName: 'AlertBridge API',
      emailAddress: `${state.credentials.username}`,
      tenantId: 4242,
      businessName: state.credentials.tenant,
      timeZoneName: 'UTC',
      isUserSystemAdmin: false,
    }),
  )

  app.get('/v2/crm/accounts/lookup', async (request, reply) => {
    const name = query(request, 'Filter.Name')
    const inactive = query(request, 'Filter.WithInactiveAccounts')?.toLowerCase() === 'true'
    const matching = state.accounts.filter((a) => (inactive || a.isActive) && contains(a.name, name))
    const p = page(matching, query(request, 'PageSize'), query(request, 'PageNumber'), state.paging)
    if (!p.ok) return refuse(reply, 400, p.message)
    // A list answer: BMS gives no totalRecords here.
    return okBody(
      p.rows.map((a) => ({
        id: a.id,
        name: a.name,
        tenantName: state.credentials.tenant,
        isActive: a.isActive,
      })),
    )
  })

  app.get<{ Params: { accountId: string } }>(
    '/v2/crm/accounts/:accountId/locations/lookup',
    async (request, reply) => {
      const account = state.accounts.find((a) => String(a.id) === request.params.accountId)
      if (!account) return refuse(reply, 404, `Account ${request.params.accountId} was not found.`)
      return okBody(
        account.locations.map((l) => ({ id: l.id, name: l.name, accountId: account.id, isMain: l.isMain })),
      )
    },
  )

  app.get('/v2/system/queues/lookup', async () => okBody(state.queues))
  app.get('/v2/system/priorities/lookup', async () => okBody(state.priorities))
  app.get('/v2/system/statuses/lookup', async () =>
    okBody(
      state.statuses.map((s) => ({
        id: s.id,
        name: s.name,
        fontColor: '#ffffff',
        color: s.color,
        statusOrder: s.statusOrder,
        typeId: s.typeId,
        isSystemStatus: s.isSystemStatus,
        slaEventId: null,
        isActive: s.isActive,
      })),
    ),
  )

  app.get<{ Params: { tableName: string } }>('/v2/system/lookup/:tableName', async (request, reply) => {
    const asked = request.params.tableName.toLowerCase()
    const role = (Object.keys(state.tableNames) as LookupRole[]).find(
      (r) => state.tableNames[r]?.toLowerCase() === asked,
    )
    if (role) return okBody(state.lists[role])
    if (state.unknownTable === 'empty') return okBody([])
    return refuse(reply, 400, `Invalid lookup table name '${request.params.tableName}'.`)
  })

  app.get('/v2/admin/finance/services/lookup', async () => okBody(state.catalog))
}
