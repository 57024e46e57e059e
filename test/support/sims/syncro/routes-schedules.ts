// Invoice Schedules (Syncro's recurring invoices) and their line items:
//   GET /schedules?customer_id=&page=   {schedules, meta}; the line items only where the account lists them
//   GET /schedules/{id}                 {schedule} with its line_items
//   PUT /schedules/{id}/line_items/{lineItemId}   the quantity, flat or under line_item /
//                                                 schedule_line_item (the public docs leave the body untyped)
import type { FastifyInstance } from 'fastify'
import { fail, idOf, invalid, paged } from './answers.js'
import type { Schedule, SyncroState } from './types.js'

type Body = Record<string, unknown>
type Query = Record<string, string | undefined>

function quantityIn(b: Body): unknown {
  for (const key of ['line_item', 'schedule_line_item']) {
    const inner = b[key]
    if (inner && typeof inner === 'object' && 'quantity' in inner) return (inner as Body).quantity
  }
  return b.quantity
}

export function scheduleRoutes(app: FastifyInstance, state: SyncroState) {
  const find = (id: string) => state.schedules.find((s) => s.id === idOf(id))
  const listed = (s: Schedule) => {
    if (state.schedulesListLines) return s
    const { line_items: _lines, ...rest } = s
    return rest
  }

  app.get('/api/v1/schedules', async (request) => {
    const q = request.query as Query
    const found = q.customer_id
      ? state.schedules.filter((s) => String(s.customer_id) === q.customer_id)
      : state.schedules
    return paged(state, 'schedules', found.map(listed), q)
  })

  app.get<{ Params: { id: string } }>('/api/v1/schedules/:id', async (request, reply) => {
    const s = find(request.params.id)
    return s ? { schedule: s } : fail(reply, 404, 'Record not found')
  })

  app.put<{ Params: { id: string; lineId: string } }>(
    '/api/v1/schedules/:id/line_items/:lineId',
    async (request, reply) => {
      const s = find(request.params.id)
      if (!s) return fail(reply, 404, 'Record not found')
      const line = s.line_items.find((l) => l.id === idOf(request.params.lineId))
      if (!line) return fail(reply, 404, 'Record not found')
      const raw = quantityIn((request.body ?? {}) as Body)
      const quantity = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw
      if (typeof quantity !== 'number' || !Number.isFinite(quantity) || quantity < 0)
        return invalid(reply, state, { quantity: ['must be a number greater than or equal to 0'] })
      line.quantity = quantity
      return { line_item: line }
    },
  )
}
