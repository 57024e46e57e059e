// Simulated BMS contracts for usage: /v2/finance/contracts/lookup (AccountId), /summary (paged, with
// a record count), and a recurring-services contract's services. The spec declares only the POST of
// …/recurringservices/{contractId}/services (an array of {ServiceId, ServiceName, Units, UnitCost,
// UnitPrice, EffectiveDate, SortOrder}); reading them back is this simulator's assumption: a GET on the
// same route (or, with `servicesRoute: 'contract'`, the contract with its services at
// …/recurringservices/{contractId}). Whether the Units posted for a service already on the contract
// are added to it (the default; a negative number removes units) or replace them is `serviceUnits`.
import type { FastifyInstance, FastifyReply } from 'fastify'
import { input, intOf, okBody, page, query, refuse } from './envelope.js'
import type { BmsContract, BmsServiceLine, KaseyaBmsState } from './types.js'

export function contractRoutes(app: FastifyInstance, state: KaseyaBmsState): void {
  const recurring = (id: string, reply: FastifyReply): BmsContract | null => {
    const c = state.contracts.find((x) => String(x.id) === id)
    if (!c) {
      refuse(reply, 404, `Contract ${id} was not found.`)
      return null
    }
    if (c.contractType !== 'Recurring Services') {
      refuse(reply, 400, `Contract ${c.name} is not a recurring services contract.`)
      return null
    }
    return c
  }
  const services = (c: BmsContract) =>
    c.services.map(({ changes: _changes, ...s }) => ({
      ...s,
      contractId: c.id,
      contractName: c.name,
      totalPrice: s.units * s.unitPrice,
      totalCost: s.units * s.unitCost,
    }))

  app.get('/v2/finance/contracts/lookup', async (request) => {
    const accountId = query(request, 'AccountId')
    const matching = state.contracts.filter(
      (c) => accountId === undefined || String(c.accountId) === accountId,
    )
    return okBody(
      matching.map((c) => ({
        id: c.id,
        name: c.name,
        isDefault: c.isDefault,
        slaId: null,
        slaName: null,
        isActive: c.isActive,
        endDate: c.endDate,
      })),
    )
  })

  app.get('/v2/finance/contracts/summary', async (request, reply) => {
    const p = page(state.contracts, query(request, 'PageSize'), query(request, 'PageNumber'), state.paging)
    if (!p.ok) return refuse(reply, 400, p.message)
    return okBody(
      p.rows.map((c) => ({
        id: c.id,
        contractName: c.name,
        accountName: state.accounts.find((a) => a.id === c.accountId)?.name ?? null,
        contractType: c.contractType,
        contractBillingPrice: c.services.reduce((sum, s) => sum + s.units * s.unitPrice, 0),
        status: c.isActive ? 'Active' : 'Inactive',
        contractNumber: `C-${c.id}`,
        billingCycle: c.billingCycle,
        startDate: c.startDate,
        endDate: c.endDate,
      })),
      p.total,
    )
  })

  app.get<{ Params: { contractId: string } }>(
    '/v2/finance/contracts/recurringservices/:contractId/services',
    async (request, reply) => {
      if (state.servicesRoute !== 'services')
        return reply
          .code(404)
          .send({ success: false, error: { code: 404, message: 'Not Found' }, result: null })
      const c = recurring(request.params.contractId, reply)
      return c ? okBody(services(c)) : reply
    },
  )

  app.get<{ Params: { contractId: string } }>(
    '/v2/finance/contracts/recurringservices/:contractId',
    async (request, reply) => {
      if (state.servicesRoute !== 'contract')
        return reply
          .code(404)
          .send({ success: false, error: { code: 404, message: 'Not Found' }, result: null })
      const c = recurring(request.params.contractId, reply)
      return c
        ? okBody({ id: c.id, contractName: c.name, accountId: c.accountId, services: services(c) })
        : reply
    },
  )

  app.post<{ Params: { contractId: string } }>(
    '/v2/finance/contracts/recurringservices/:contractId/services',
    async (request, reply) => {
      const c = recurring(request.params.contractId, reply)
      if (!c) return reply
      if (!Array.isArray(request.body))
        return refuse(reply, 400, 'The request body must be a list of services.')
      const changed: BmsServiceLine[] = []
      for (const item of request.body) {
        const serviceId = intOf(input(item, 'ServiceId'))
        const units = intOf(input(item, 'Units'))
        const effectiveDate = String(input(item, 'EffectiveDate') ?? '')
        const catalog = state.catalog.find((s) => s.id === serviceId)
        if (!catalog) return refuse(reply, 400, `Service ${input(item, 'ServiceId')} does not exist.`)
        if (units === null) return refuse(reply, 400, 'The Units field is required.')
        if (Number.isNaN(Date.parse(effectiveDate)))
          return refuse(reply, 400, 'The EffectiveDate field is required.')
        const line = c.services.find((s) => s.serviceId === serviceId)
        if (line) {
          const next = state.serviceUnits === 'add' ? line.units + units : units
          if (next < 0) return refuse(reply, 400, `The units of ${line.serviceName} cannot go below zero.`)
          line.units = next
          line.effectiveDate = effectiveDate
          line.changes.push({ units, effectiveDate })
          changed.push(line)
        } else {
          if (units < 0) return refuse(reply, 400, 'Units must not be negative.')
          const added = {
            id: state.nextId.service++,
            serviceId: catalog.id,
            serviceName: String(input(item, 'ServiceName') ?? catalog.name),
            description: String(input(item, 'ServiceDescription') ?? catalog.name),
            units,
            unitCost: Number(input(item, 'UnitCost') ?? 0),
            unitPrice: Number(input(item, 'UnitPrice') ?? 0),
            effectiveDate,
            sortOrder: c.services.length + 1,
            changes: [{ units, effectiveDate }],
          }
          c.services.push(added)
          changed.push(added)
        }
      }
      const last = services(c).find((s) => s.id === changed[changed.length - 1]?.id) ?? null
      return okBody(last)
    },
  )
}
