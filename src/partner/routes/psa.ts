// Partner API: the PSA connection, its look-ups for the mapping screens, and the sandbox PSA's own
// controls (its tickets, closing one "in the PSA", the fault switch).
import Type from 'typebox'
import { PsaInput, PsaView, psaView } from '../../admin/routes/partners.js'
import { type SandboxFault, sandboxFaultModes, sandboxOperations } from '../../db/repositories/sandbox.js'
import type { App } from '../../http/app-types.js'
import { partnerId } from '../../http/auth.js'
import { ApiError, notFound } from '../../http/errors.js'
import { failures, Nullable } from '../../http/schemas.js'
import { lookupKinds } from '../../psa/adapter.js'
import type { Services } from '../../services.js'

const Entity = Type.Object({ id: Type.String(), name: Type.String() })

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

export function registerPartnerPsa(app: App, s: Services): void {
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
    '/api/partner/psa',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'Your PSA connection (secrets masked)',
        response: { 200: PsaView, ...failures(401) },
      },
    },
    async (request) => {
      const partner = await s.store.partners.findById(partnerId(request))
      if (!partner) throw notFound('Partner')
      return psaView(partner.psa)
    },
  )

  app.put(
    '/api/partner/psa',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'Connect your PSA',
        body: PsaInput,
        response: { 200: PsaView, ...failures(400, 401) },
      },
    },
    async (request) =>
      psaView((await s.provisioning.updatePartner(partnerId(request), { psa: request.body })).psa),
  )

  app.get(
    '/api/partner/psa/:what',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'Look-ups for the mapping screens: companies, boards, priorities, statuses',
        params: Type.Object({ what: Type.Enum(lookupKinds) }),
        response: { 200: Type.Object({ data: Type.Array(Entity) }), ...failures(400, 401, 502) },
      },
    },
    async (request) => {
      const conn = await s.store.partners.connection(partnerId(request))
      const adapter = conn && s.psa.get(conn.kind)
      if (!conn || !adapter) throw new ApiError('PSA_ERROR', 'Your PSA kind is not available in this build.')
      const result = await adapter.lookup(conn, request.params.what)
      if (!result.ok) throw new ApiError('PSA_ERROR', `The PSA failed to answer: ${result.failure.message}.`)
      return { data: result.value }
    },
  )

  app.get(
    '/api/partner/sandbox/tickets',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'Tickets in the sandbox PSA, newest first',
        querystring: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })) }),
        response: { 200: Type.Object({ data: Type.Array(SandboxTicketView) }), ...failures(401, 409) },
      },
    },
    async (request) => ({
      data: await s.store.sandbox.list(await sandboxPartner(partnerId(request)), request.query.limit ?? 50),
    }),
  )

  app.patch(
    '/api/partner/sandbox/tickets/:ticketId',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'Change a sandbox ticket as a technician would in the PSA (e.g. close it)',
        params: Type.Object({ ticketId: Type.String({ minLength: 1, maxLength: 64 }) }),
        body: Type.Object({
          status: Type.String({ minLength: 1, maxLength: 64, description: "e.g. 'Closed'" }),
        }),
        response: { 200: SandboxTicketView, ...failures(400, 401, 404, 409) },
      },
    },
    async (request) => {
      const id = await sandboxPartner(partnerId(request))
      const ticket = await s.store.sandbox.find(id, request.params.ticketId)
      if (!ticket) throw notFound(`Sandbox ticket '${request.params.ticketId}'`)
      await s.store.sandbox.setStatus(id, ticket.id, request.body.status, s.clock().toISOString())
      const [changed] = await s.store.sandbox.list(id, 1, ticket.id)
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
      await s.store.sandbox.setFault(id, fault, s.clock().toISOString())
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
        response: { 204: Type.Null(), ...failures(401, 409) },
      },
    },
    async (request, reply) => {
      await s.store.sandbox.setFault(await sandboxPartner(partnerId(request)), null, s.clock().toISOString())
      return reply.code(204).send(null)
    },
  )
}
