// Partner API: the sandbox PSA's own controls (its tickets, closing one "in the PSA", the fault switch).
import Type from 'typebox'
import type { Clock } from '../../platform/clock.js'
import type { Store } from '../../platform/db/store.js'
import type { App } from '../../platform/http/app-types.js'
import { ApiError, notFound } from '../../platform/http/errors.js'
import { callers, operation } from '../../platform/http/openapi/operation-doc.js'
import { failures, Nullable } from '../../platform/http/schemas.js'
import {
  type SandboxFault,
  type SandboxStore,
  sandboxFaultModes,
  sandboxOperations,
} from '../../psa/index.js'
import { type AuthHooks, partnerId } from '../../tenants/index.js'

const SandboxTicketView = Type.Object({
  id: Type.String(),
  companyId: Type.String(),
  board: Nullable(Type.String()),
  priority: Nullable(Type.String()),
  type: Nullable(Type.String()),
  status: Type.String(),
  summary: Type.String(),
  description: Type.String(),
  notes: Type.Array(Type.Object({ text: Type.String(), at: Type.String() })),
  createdAt: Type.String(),
  updatedAt: Type.String(),
  closedAt: Nullable(Type.String()),
})

const FaultBody = Type.Object({
  mode: Type.Enum(sandboxFaultModes, {
    description: 'error: HTTP 500; timeout: no answer; rate-limited: HTTP 429; defect: the adapter throws',
  }),
  operations: Type.Optional(Type.Array(Type.Enum(sandboxOperations), { uniqueItems: true })),
  count: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 1000, description: 'fail this many calls, then recover' }),
  ),
})
const FaultView = Type.Object({
  mode: Type.String(),
  operations: Type.Array(Type.String()),
  remaining: Nullable(Type.Integer()),
})

export interface PartnerSandboxPsaRoutesDeps {
  auth: Pick<AuthHooks, 'partner'>
  store: Store
  clock: Clock
  sandbox: Pick<SandboxStore, 'find' | 'list' | 'setFault' | 'setStatus'>
}

export function registerPartnerSandboxPsa(app: App, s: PartnerSandboxPsaRoutesDeps): void {
  const base = { onRequest: s.auth.partner }
  const meta = { tags: ['partner'], security: [{ partnerKey: [] }] }

  async function sandboxPartner(id: string): Promise<string> {
    const partner = await s.store.partners.findById(id)
    if (partner?.psa.kind !== 'sandbox') {
      throw new ApiError(
        'CONFLICT',
        'Your PSA connection is not the sandbox; these controls exist only for the sandbox PSA.',
      )
    }
    return partner.id
  }

  app.get(
    '/api/partner/sandbox/tickets',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'Tickets in the sandbox PSA, newest first',
        ...operation({
          id: 'listSandboxTickets',
          description: `Only with the sandbox PSA (409 otherwise). ${callers.partner}`,
        }),
        querystring: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })) }),
        response: { 200: Type.Object({ data: Type.Array(SandboxTicketView) }), ...failures(401, 409) },
      },
    },
    async (request) => ({
      data: await s.sandbox.list(await sandboxPartner(partnerId(request)), request.query.limit ?? 50),
    }),
  )

  app.patch(
    '/api/partner/sandbox/tickets/:ticketId',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'Change a sandbox ticket as a technician would in the PSA (e.g. close it)',
        ...operation({
          id: 'updateSandboxTicket',
          description: `Two-way sync then reports it, as from a real PSA. Only with the sandbox PSA. ${callers.partner}`,
          body: { status: 'Closed' },
        }),
        params: Type.Object({ ticketId: Type.String({ minLength: 1, maxLength: 64 }) }),
        body: Type.Object({
          status: Type.String({ minLength: 1, maxLength: 64, description: "e.g. 'Closed'" }),
        }),
        response: { 200: SandboxTicketView, ...failures(400, 401, 404, 409) },
      },
    },
    async (request) => {
      const id = await sandboxPartner(partnerId(request))
      const ticket = await s.sandbox.find(id, request.params.ticketId)
      if (!ticket) throw notFound(`Sandbox ticket '${request.params.ticketId}'`)
      await s.sandbox.setStatus(id, ticket.id, request.body.status, s.clock().toISOString())
      const [changed] = await s.sandbox.list(id, 1, ticket.id)
      return changed!
    },
  )

  app.put(
    '/api/partner/sandbox/fault',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'Make the sandbox PSA fail (for testing how failures are handled)',
        ...operation({
          id: 'setSandboxFault',
          description: `Only with the sandbox PSA. ${callers.partner}`,
          body: { mode: 'error', operations: ['create'], count: 3 },
        }),
        body: FaultBody,
        response: { 200: FaultView, ...failures(400, 401, 409) },
      },
    },
    async (request) => {
      const id = await sandboxPartner(partnerId(request))
      const fault: SandboxFault = {
        mode: request.body.mode,
        operations: request.body.operations ?? [],
        remaining: request.body.count ?? null,
      }
      await s.sandbox.setFault(id, fault, s.clock().toISOString())
      return fault
    },
  )

  app.delete(
    '/api/partner/sandbox/fault',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'Make the sandbox PSA healthy again',
        ...operation({
          id: 'clearSandboxFault',
          description: `Only with the sandbox PSA. ${callers.partner}`,
        }),
        response: { 204: Type.Null(), ...failures(401, 409) },
      },
    },
    async (request, reply) => {
      await s.sandbox.setFault(await sandboxPartner(partnerId(request)), null, s.clock().toISOString())
      return reply.code(204).send(null)
    },
  )
}
