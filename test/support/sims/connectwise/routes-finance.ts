// /finance/agreements and their additions, the billing lines usage counts set (docs/psa/connectwise.md,
// "Usage push"): agreements listed with conditions (company/id=N) and paging, each agreement's
// additions likewise, one addition read by id, added with POST (`product` and `billCustomer`
// required), and changed with PATCH, a JSON-Patch array like the tickets'
// ([{"op":"replace","path":"quantity","value":42}]).
// A cancelled agreement keeps its additions on the list (cancelledFlag true, agreementStatus
// "Cancelled"); a cancelled addition carries its cancelledDate. Changing an addition of a cancelled
// agreement is refused with 400 (an inferred rule: ConnectWise does not bill a cancelled agreement).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { contextOf, type FieldError, idParam, invalidObject, type RouteDeps } from './deps.js'
import { cwError, type ListItem, sendCount, sendList, sendOne } from './paging.js'
import { compact, companyRef, cwNow, type Json, type RenderContext } from './render.js'
import type { CwAddition, CwAgreement } from './types.js'

const AGREEMENT_FIELDS = [
  'id',
  'name',
  'type',
  'company',
  'startDate',
  'noEndingDateFlag',
  'cancelledFlag',
  'dateCancelled',
  'agreementStatus',
  'billAmount',
  '_info',
] as const
const ADDITION_FIELDS = [
  'id',
  'product',
  'quantity',
  'lessIncluded',
  'unitPrice',
  'unitCost',
  'billCustomer',
  'effectiveDate',
  'cancelledDate',
  'taxableFlag',
  'invoiceDescription',
  'agreementId',
  'description',
  'billedQuantity',
  'uom',
  'extPrice',
  'extCost',
  'agreementStatus',
  '_info',
] as const
const BILL_CUSTOMER = ['Billable', 'DoNotBill', 'NoCharge'] as const

const additionCancelled = (a: CwAddition) =>
  a.cancelledDate !== null && Date.parse(a.cancelledDate) <= Date.now()

function renderAgreement(ctx: RenderContext, g: CwAgreement): Json {
  const company = ctx.state.companies.find((c) => c.id === g.companyId)
  const self = `${ctx.base}/finance/agreements/${g.id}`
  return compact({
    id: g.id,
    name: g.name,
    type: { id: 3, name: g.typeName, _info: { type_href: `${ctx.base}/finance/agreements/types/3` } },
    company: company ? companyRef(ctx, company) : { id: g.companyId },
    startDate: g.startDate,
    noEndingDateFlag: true,
    cancelledFlag: g.cancelledFlag,
    dateCancelled: g.dateCancelled,
    agreementStatus: g.cancelledFlag ? 'Cancelled' : 'Active',
    billAmount: 0,
    _info: { lastUpdated: '2024-01-15T12:00:00Z', updatedBy: 'admin1', additions_href: `${self}/additions` },
  })
}

function renderAddition(ctx: RenderContext, g: CwAgreement, a: CwAddition): Json {
  const product = ctx.state.products.find((p) => p.id === a.productId)
  const billed = a.billCustomer === 'Billable' ? Math.max(0, a.quantity - a.lessIncluded) : 0
  return compact({
    id: a.id,
    product: {
      id: a.productId,
      identifier: product?.identifier,
      _info: { product_href: `${ctx.base}/procurement/catalog/${a.productId}` },
    },
    quantity: a.quantity,
    lessIncluded: a.lessIncluded,
    unitPrice: a.unitPrice,
    unitCost: a.unitCost,
    billCustomer: a.billCustomer,
    effectiveDate: a.effectiveDate,
    cancelledDate: a.cancelledDate,
    taxableFlag: true,
    invoiceDescription: a.invoiceDescription,
    agreementId: g.id,
    description: product?.description,
    billedQuantity: billed,
    uom: 'Each',
    extPrice: Math.round(billed * a.unitPrice * 100) / 100,
    extCost: Math.round(billed * a.unitCost * 100) / 100,
    agreementStatus: g.cancelledFlag || additionCancelled(a) ? 'Cancelled' : 'Active',
    _info: { lastUpdated: a.lastUpdated, updatedBy: ctx.state.memberIdentifier },
  })
}

type Params = { Params: { id: string; sub: string } }

/** What a body may set on an addition, checked; `errors` lists what is wrong, in ConnectWise's words. */
function additionChanges(fields: Record<string, unknown>, errors: FieldError[]): Partial<CwAddition> {
  const out: Partial<CwAddition> = {}
  const err = (code: string, message: string, field: string) =>
    errors.push({ code, message, resource: 'addition', field })
  for (const [raw, value] of Object.entries(fields)) {
    const field = ADDITION_FIELDS.find((f) => f.toLowerCase() === raw.toLowerCase()) ?? raw
    if (['quantity', 'lessIncluded', 'unitPrice', 'unitCost'].includes(field)) {
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
        err('InvalidField', `The field ${field} must be a number, zero or more.`, field)
      else Object.assign(out, { [field]: value })
    } else if (field === 'billCustomer') {
      if (!BILL_CUSTOMER.includes(value as (typeof BILL_CUSTOMER)[number]))
        err('InvalidField', `The field billCustomer must be one of ${BILL_CUSTOMER.join(', ')}.`, field)
      else out.billCustomer = value as CwAddition['billCustomer']
    } else if (field === 'effectiveDate' || field === 'cancelledDate') {
      if (value !== null && (typeof value !== 'string' || Number.isNaN(Date.parse(value))))
        err('InvalidField', `The field ${field} must be a date.`, field)
      else out[field] = value === null ? null : new Date(value).toISOString().replace(/\.\d{3}Z$/, 'Z')
    } else if (field === 'invoiceDescription') {
      out.invoiceDescription = value === null ? null : String(value)
    } else if (field !== 'product' && field !== 'id' && field !== 'agreementId' && field !== '_info') {
      err('InvalidField', `The field ${raw} cannot be set.`, raw)
    }
  }
  return out
}

export function financeRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const { state } = deps
  const agreementOf = (request: FastifyRequest<Params>, reply: FastifyReply) => {
    const g = state.agreements.find((x) => x.id === idParam(request.params.id))
    if (!g) cwError(reply, 404, 'NotFound', `Agreement ${request.params.id} not found`)
    return g ?? null
  }
  const agreementItems = (ctx: RenderContext): ListItem[] =>
    state.agreements.map((g) => ({ id: g.id, out: renderAgreement(ctx, g), view: renderAgreement(ctx, g) }))
  const additionItems = (ctx: RenderContext, g: CwAgreement): ListItem[] =>
    g.additions.map((a) => {
      const out = renderAddition(ctx, g, a)
      return { id: a.id, out, view: out }
    })
  const agreementOptions = { knownFields: AGREEMENT_FIELDS, pageSizeMax: deps.pageSizeMax }
  const additionOptions = { knownFields: ADDITION_FIELDS, pageSizeMax: deps.pageSizeMax }

  app.get('/finance/agreements', async (request, reply) =>
    sendList(request, reply, agreementItems(contextOf(request, state)), agreementOptions),
  )
  app.get('/finance/agreements/count', async (request, reply) =>
    sendCount(request, reply, agreementItems(contextOf(request, state)), agreementOptions),
  )
  app.get<Params>('/finance/agreements/:id', async (request, reply) => {
    const g = agreementOf(request, reply)
    return g ? sendOne(request, reply, renderAgreement(contextOf(request, state), g)) : reply
  })
  app.get<Params>('/finance/agreements/:id/additions', async (request, reply) => {
    const g = agreementOf(request, reply)
    return g ? sendList(request, reply, additionItems(contextOf(request, state), g), additionOptions) : reply
  })
  app.get<Params>('/finance/agreements/:id/additions/count', async (request, reply) => {
    const g = agreementOf(request, reply)
    return g ? sendCount(request, reply, additionItems(contextOf(request, state), g), additionOptions) : reply
  })
  app.get<Params>('/finance/agreements/:id/additions/:sub', async (request, reply) => {
    const g = agreementOf(request, reply)
    if (!g) return reply
    const a = g.additions.find((x) => x.id === idParam(request.params.sub))
    if (!a) return cwError(reply, 404, 'NotFound', `Agreement addition ${request.params.sub} not found`)
    return sendOne(request, reply, renderAddition(contextOf(request, state), g, a))
  })

  app.post<Params>('/finance/agreements/:id/additions', async (request, reply) => {
    const g = agreementOf(request, reply)
    if (!g) return reply
    const body = request.body
    const errors: FieldError[] = []
    const err = (code: string, message: string, field: string) =>
      errors.push({ code, message, resource: 'addition', field })
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      err('InvalidField', 'The body must be an addition object.', 'body')
      return reply.code(400).send(invalidObject('addition', errors))
    }
    const b = body as Record<string, unknown>
    const ref = (b.product ?? null) as { id?: unknown; identifier?: unknown } | null
    const product = state.products.find(
      (p) => p.id === ref?.id || (typeof ref?.identifier === 'string' && p.identifier === ref.identifier),
    )
    if (!ref) err('MissingRequiredField', 'The field product is required.', 'product')
    else if (!product) err('InvalidField', 'The product was not found in the catalog.', 'product')
    if (b.billCustomer === undefined)
      err('MissingRequiredField', 'The field billCustomer is required.', 'billCustomer')
    if (g.cancelledFlag) err('InvalidField', 'The agreement is cancelled.', 'agreement')
    const changes = additionChanges(b, errors)
    if (errors.length || !product) return reply.code(400).send(invalidObject('addition', errors))
    const a: CwAddition = {
      id: state.nextAdditionId++,
      productId: product.id,
      quantity: 1,
      lessIncluded: 0,
      unitPrice: 0,
      unitCost: 0,
      billCustomer: 'Billable',
      effectiveDate: cwNow(),
      cancelledDate: null,
      invoiceDescription: null,
      ...changes,
      lastUpdated: cwNow(),
    }
    g.additions.push(a)
    return reply.code(201).send(renderAddition(contextOf(request, state), g, a))
  })

  app.patch<Params>('/finance/agreements/:id/additions/:sub', async (request, reply) => {
    const g = agreementOf(request, reply)
    if (!g) return reply
    const a = g.additions.find((x) => x.id === idParam(request.params.sub))
    if (!a) return cwError(reply, 404, 'NotFound', `Agreement addition ${request.params.sub} not found`)
    const errors: FieldError[] = []
    const err = (message: string, field: string) =>
      errors.push({ code: 'InvalidField', message, resource: 'addition', field })
    const fields: Record<string, unknown> = {}
    if (!Array.isArray(request.body)) {
      err(
        'The PATCH body must be an array of operations like [{"op":"replace","path":"quantity","value":5}].',
        'body',
      )
    } else {
      for (const [i, raw] of request.body.entries()) {
        const op = (raw ?? {}) as Record<string, unknown>
        const path = String(op.path ?? '').replace(/^\//, '')
        if (!['replace', 'add'].includes(String(op.op ?? '').toLowerCase()))
          err(`Operation ${i}: op must be replace or add.`, 'op')
        else if (!path || path.includes('/'))
          err(`Operation ${i}: the path "${String(op.path)}" cannot be patched.`, path || 'path')
        else if (!('value' in op)) err(`Operation ${i}: a value is required.`, path)
        else fields[path] = op.value
      }
    }
    const changes = additionChanges(fields, errors)
    if (g.cancelledFlag) err('The agreement is cancelled: its additions cannot change.', 'agreement')
    if (errors.length) return reply.code(400).send(invalidObject('addition', errors))
    Object.assign(a, changes, { lastUpdated: cwNow() })
    return reply.send(renderAddition(contextOf(request, state), g, a))
  })
}
