// The account's own routes and look-ups:
//   GET /me                    the token's user
//   GET /settings              account settings; `ticket.problem_types` (names)
//   GET /ticket_problem_types  {ticket_problem_types: [{id, name}], meta} (newer accounts)
//   GET /tickets/settings      {ticket_status_list: [names], ...}
//   GET /customers?query=&page=   {customers, meta}, 25 a page; GET /customers/{id}
import type { FastifyInstance } from 'fastify'
import { fail, idOf, paged } from './answers.js'
import type { SyncroState } from './types.js'

type Query = Record<string, string | undefined>

export function accountRoutes(app: FastifyInstance, state: SyncroState) {
  app.get('/api/v1/me', async () => ({
    user: { id: 77, email: 'api@acme-msp.example', full_name: 'API User', group: 'Admins' },
  }))

  app.get('/api/v1/settings', async () => ({
    business_name: 'Acme Managed Services',
    timezone: 'UTC',
    ticket: {
      ...(state.problemTypesAt === 'endpoint' ? {} : { problem_types: state.problemTypes }),
      default_status: 'New',
    },
    customers: { customer_fields: [] },
  }))

  app.get('/api/v1/ticket_problem_types', async (request, reply) => {
    if (state.problemTypesAt === 'settings') return fail(reply, 404, 'Not found')
    const types = state.problemTypes.map((name, i) => ({
      id: 40 + i,
      name,
      created_at: '2024-01-02T09:00:00.000Z',
      updated_at: '2024-01-02T09:00:00.000Z',
    }))
    return paged(state, 'ticket_problem_types', types, request.query as Query)
  })

  app.get('/api/v1/tickets/settings', async () => ({
    ticket_status_list: state.statuses,
    problem_types: state.problemTypes,
    default_status: 'New',
  }))

  app.get('/api/v1/customers', async (request) => {
    const q = request.query as Query
    const needle = q.query?.toLowerCase()
    const found = needle
      ? state.customers.filter((c) =>
          [c.business_name, c.fullname, c.email].some((v) => v?.toLowerCase().includes(needle)),
        )
      : state.customers
    return paged(state, 'customers', found, q)
  })

  app.get<{ Params: { id: string } }>('/api/v1/customers/:id', async (request, reply) => {
    const c = state.customers.find((x) => x.id === idOf(request.params.id))
    return c ? { customer: c } : fail(reply, 404, 'Record not found')
  })
}
