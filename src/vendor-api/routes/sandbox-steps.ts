// Self-serve test mode, the partner's side (docs/vendor-api.md#self-serve-test-mode): in one of its own
// test integrations the vendor does what the partner would — maps an account, adds a rule, and closes a
// ticket as a technician in the sandbox PSA (two-way sync reads it back at once and sends the webhook).
// Only a test integration of the caller's (404 for any other).
import Type from 'typebox'
import type { PartnerRules } from '../../alerts/index.js'
import type { PartnerSetup } from '../../partner-api/index.js'
import type { Clock } from '../../platform/clock.js'
import type { Store } from '../../platform/db/store.js'
import type { App } from '../../platform/http/app-types.js'
import { ApiError, orRefuse } from '../../platform/http/errors.js'
import { callers, operation } from '../../platform/http/openapi/operation-doc.js'
import { failures, Nullable } from '../../platform/http/schemas.js'
import type { SandboxStore } from '../../psa/index.js'
import type { PsaSync } from '../../psa-sync/index.js'
import { type AuthHooks, vendorPrincipal } from '../../tenants/index.js'
import { findSandbox, sandboxCompanyId } from '../sandbox/sandboxes.js'

const id = (description: string) => Type.String({ minLength: 1, maxLength: 200, description })
const test = Type.Literal(true, { description: 'done in a test integration' })

const MappingBody = Type.Object({
  psaCompanyId: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      description: `the sandbox PSA's company (default ${sandboxCompanyId})`,
    }),
  ),
  board: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
})
const MappingView = Type.Object({
  test,
  accountId: Type.String(),
  psaCompanyId: Type.String(),
  board: Nullable(Type.String()),
})

const RuleBody = Type.Object({
  productGroup: id('a product group of your catalogue'),
  alertTypes: Type.Optional(
    Type.Array(id('an alert type of that group'), { maxItems: 50, uniqueItems: true }),
  ),
  action: Type.Optional(Type.Enum(['ticket', 'suppress'], { description: "default 'ticket'" })),
})
const RuleView = Type.Object({
  test,
  ruleId: Type.String(),
  productGroup: Type.String(),
  alertTypes: Type.Array(Type.String()),
  action: Type.String(),
  precedence: Type.Integer(),
})

const CloseBody = Type.Object({
  status: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      description: "the PSA status the technician sets (default 'Closed')",
    }),
  ),
})
const CloseView = Type.Object({
  test,
  correlationId: Type.String(),
  psaTicketId: Type.String({ description: "the ticket's id in the sandbox PSA" }),
  psaStatus: Type.String(),
})

export interface VendorSandboxStepsDeps {
  auth: Pick<AuthHooks, 'vendor'>
  store: Store
  clock: Clock
  partnerSetup: Pick<PartnerSetup, 'putMapping'>
  partnerRules: Pick<PartnerRules, 'create'>
  sandboxPsa: Pick<SandboxStore, 'setStatus'>
  psaSync: Pick<PsaSync, 'sandboxChanged'>
}

export function registerVendorSandboxSteps(app: App, s: VendorSandboxStepsDeps): void {
  const base = { onRequest: s.auth.vendor }
  const meta = { tags: ['vendor'], security: [{ vendorToken: [] }] }
  const integrationId = Type.String({ minLength: 1, maxLength: 64 })

  app.put(
    '/api/vendor-api/sandbox/:integrationId/accounts/:accountId',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'In a test integration, map an account to a sandbox PSA company as the partner would',
        ...operation({
          id: 'mapVendorSandboxAccount',
          description: `The account must be one you declared (PUT /api/oem-api/integration/accounts); mapping it again replaces its company and board. ${callers.vendor}`,
          body: { psaCompanyId: '100' },
        }),
        params: Type.Object({ integrationId, accountId: id('your account id') }),
        body: MappingBody,
        response: { 200: MappingView, ...failures(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const caller = vendorPrincipal(request)
      const { integration } = orRefuse(await findSandbox(s.store, caller, request.params.integrationId))
      const mapping = orRefuse(
        await s.partnerSetup.putMapping(integration, {
          accountId: request.params.accountId,
          psaCompanyId: request.body.psaCompanyId ?? sandboxCompanyId,
          board: request.body.board ?? null,
        }),
      )
      return { test: true as const, ...mapping }
    },
  )

  app.post(
    '/api/vendor-api/sandbox/:integrationId/rules',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'In a test integration, add a rule as the partner would',
        ...operation({
          id: 'addVendorSandboxRule',
          description: `Checked against your catalogue like a partner's rule; it goes after the rules already there. ${callers.vendor}`,
          body: { productGroup: 'Backup', alertTypes: ['Backup Failed'], action: 'suppress' },
        }),
        params: Type.Object({ integrationId }),
        body: RuleBody,
        response: { 201: RuleView, ...failures(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const caller = vendorPrincipal(request)
      const { integration } = orRefuse(await findSandbox(s.store, caller, request.params.integrationId))
      const rule = orRefuse(await s.partnerRules.create(integration, request.body))
      return reply.code(201).send({
        test: true as const,
        ruleId: rule.id,
        productGroup: rule.productGroup,
        alertTypes: rule.alertTypes,
        action: rule.action,
        precedence: rule.precedence,
      })
    },
  )

  app.post(
    '/api/vendor-api/sandbox/:integrationId/tickets/:correlationId/close',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'In a test integration, close a ticket in the sandbox PSA as a technician would',
        ...operation({
          id: 'closeVendorSandboxTicket',
          description: `Two-way sync reads the change back at once, as after a PSA's push: the ticket is closed in the PSA and your webhook gets 'Ticket Closed In PSA' (docs/psa/sync.md#what-a-change-does). ${callers.vendor}`,
          body: { status: 'Closed' },
        }),
        params: Type.Object({ integrationId, correlationId: id('the correlationId an OPEN answered') }),
        body: Type.Optional(CloseBody),
        response: { 202: CloseView, ...failures(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const { integration, partner } = orRefuse(
        await findSandbox(s.store, vendorPrincipal(request), request.params.integrationId),
      )
      const { correlationId } = request.params
      const ticket = await s.store.tickets.findByCorrelation(integration.id, correlationId)
      if (!ticket)
        throw new ApiError('TICKET_NOT_FOUND', `No ticket has correlationId '${correlationId}' here.`)
      if (ticket.psaTicketId === null)
        throw new ApiError('CONFLICT', 'The ticket is still being created in the PSA; try again shortly.')
      const status = request.body?.status ?? 'Closed'
      const changed = await s.sandboxPsa.setStatus(
        partner.id,
        ticket.psaTicketId,
        status,
        s.clock().toISOString(),
      )
      if (!changed)
        throw new ApiError(
          'CONFLICT',
          `The sandbox ticket '${ticket.psaTicketId}' is gone or already '${status}'.`,
        )
      await s.psaSync.sandboxChanged(partner.id, [ticket.psaTicketId])
      return reply
        .code(202)
        .send({ test: true as const, correlationId, psaTicketId: ticket.psaTicketId, psaStatus: status })
    },
  )
}
