// Partner API: the PSA connection and its look-ups for the mapping screens.
import Type from 'typebox'
import type { Store } from '../../platform/db/store.js'
import type { App } from '../../platform/http/app-types.js'
import { notFound, orRefuse } from '../../platform/http/errors.js'
import { callers, operation } from '../../platform/http/openapi/operation-doc.js'
import { Cursor, failures, Page } from '../../platform/http/schemas.js'
import type { PsaConnections, PsaRegistry } from '../../psa/index.js'
import { keepSavedSecrets, lookupKinds, PsaInput, PsaView } from '../../psa/index.js'
import type { PsaSync } from '../../psa-sync/index.js'
import type { Provisioning } from '../../tenants/index.js'
import { type AuthHooks, partnerId } from '../../tenants/index.js'

const Entity = Type.Object({
  id: Type.String(),
  name: Type.String(),
  closed: Type.Optional(Type.Boolean({ description: 'statuses: whether the PSA treats it as closed' })),
})

const Line = Type.Object({
  id: Type.String({ description: 'the line, as PUT …/services/{serviceId}/accounts/{accountId} names it' }),
  productId: Type.Union([Type.String(), Type.Null()], {
    description: 'the product of the PSA catalogue it bills (what PUT …/services/{serviceId} names)',
  }),
  name: Type.String(),
  agreementId: Type.String(),
  agreementName: Type.String(),
  quantity: Type.Union([Type.Number(), Type.Null()], { description: 'its quantity now, where the PSA says' }),
})

const TestResult = Type.Object({
  ok: Type.Boolean(),
  detail: Type.String({ description: 'what was checked, or in one sentence what is wrong' }),
  sync: Type.Optional(
    Type.Object(
      {
        mechanism: Type.Enum(['push', 'manual', 'poll']),
        lastHeardAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
      },
      { description: 'how the PSA’s changes reach alertbridge and when it was last heard (GET …/psa/sync)' },
    ),
  ),
})

const SavedPsa = Type.Object(
  {
    kind: Type.String(),
    warning: Type.Optional(Type.String({ description: 'the connection test failed: why' })),
  },
  { additionalProperties: true, description: 'kind plus its settings, secrets masked' },
)

export interface PartnerPsaRoutesDeps {
  auth: Pick<AuthHooks, 'partner'>
  store: Store
  provisioning: Pick<Provisioning, 'updatePartner'>
  psa: Pick<PsaRegistry, 'secretFieldsOf' | 'view'>
  psaConnections: Pick<PsaConnections, 'test' | 'lookup' | 'billingLines'>
  psaSync: Pick<PsaSync, 'status'>
}

export function registerPartnerPsa(app: App, s: PartnerPsaRoutesDeps): void {
  const base = { onRequest: s.auth.partner }
  const meta = { tags: ['partner'], security: [{ partnerKey: [] }] }

  app.get(
    '/api/partner/psa',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'Your PSA connection (secrets masked)',
        ...operation({
          id: 'getPsaConnection',
          description: `Secrets are never shown again. A vendor's test partner's answer carries \`test: true\` (its PSA stays the sandbox; docs/vendor-api.md#self-serve-test-mode). ${callers.partner}`,
        }),
        response: { 200: PsaView, ...failures(401) },
      },
    },
    async (request) => {
      const partner = await s.store.partners.findById(partnerId(request))
      if (!partner) throw notFound('Partner')
      return { ...s.psa.view(partner.psa), ...(partner.sandboxVendorId ? { test: true } : {}) }
    },
  )

  app.put(
    '/api/partner/psa',
    {
      ...base,
      schema: {
        ...meta,
        summary:
          'Connect your PSA; the connection is tested, and a failed test is answered as a warning. A secret left out, empty or masked keeps the saved one while the kind and host stay the same (a new host needs it again: 400)',
        ...operation({
          id: 'setPsaConnection',
          description: `The settings of each PSA kind: docs/psa/README.md. ${callers.portalAdmin}`,
          body: { kind: 'sandbox' },
        }),
        body: PsaInput,
        response: { 200: SavedPsa, ...failures(400, 401) },
      },
    },
    async (request) => {
      const saved = await s.store.partners.findById(partnerId(request))
      if (!saved) throw notFound('Partner')
      // A secret left empty keeps the saved one, unless the host it goes to changed.
      const psa = orRefuse(keepSavedSecrets(saved.psa, request.body, s.psa.secretFieldsOf(request.body.kind)))
      const partner = orRefuse(await s.provisioning.updatePartner(saved.id, { psa }))
      const test = await s.psaConnections.test(partner.id, partner.psa)
      return { ...s.psa.view(partner.psa), ...(test.ok ? {} : { warning: test.detail }) }
    },
  )

  app.post(
    '/api/partner/psa/test',
    {
      ...base,
      // It changes nothing, so a portal viewer may test too.
      config: { viewerAllowed: true },
      schema: {
        ...meta,
        summary:
          'Test your PSA connection without changing anything: ok, or one sentence saying what is wrong',
        ...operation({ id: 'testPsaConnection', description: `Reads only. ${callers.partner}` }),
        response: { 200: TestResult, ...failures(401) },
      },
    },
    async (request) => {
      const partner = await s.store.partners.findById(partnerId(request))
      if (!partner) throw notFound('Partner')
      const [test, sync] = await Promise.all([
        s.psaConnections.test(partner.id, partner.psa),
        s.psaSync.status(partner.id),
      ])
      return sync ? { ...test, sync: { mechanism: sync.mechanism, lastHeardAt: sync.lastHeardAt } } : test
    },
  )

  app.get(
    '/api/partner/psa/agreements',
    {
      ...base,
      schema: {
        ...meta,
        summary:
          "Billing lines of a PSA company's agreements (ConnectWise agreement additions, Autotask contract services, HaloPSA recurring-invoice lines, Kaseya BMS recurring services, Syncro schedule line items), for mapping services; kept a minute",
        ...operation({
          id: 'listPsaAgreementLines',
          description: `For PUT …/services/{serviceId}/accounts/{accountId}. ${callers.partner}`,
        }),
        querystring: Type.Object({
          companyId: Type.String({ minLength: 1, maxLength: 128, description: 'the PSA company' }),
          refresh: Type.Optional(Type.Boolean({ description: 'read the PSA again' })),
        }),
        response: {
          200: Type.Object({ data: Type.Array(Line) }),
          ...failures(400, 401, 404, 502),
        },
      },
    },
    async (request) => {
      const partner = await s.store.partners.findById(partnerId(request))
      if (!partner) throw notFound('Partner')
      return { data: orRefuse(await s.psaConnections.billingLines(partner.id, partner.psa, request.query)) }
    },
  )

  app.get(
    '/api/partner/psa/:what',
    {
      ...base,
      schema: {
        ...meta,
        summary:
          'Look-ups for the mapping screens: companies, boards (queues), priorities, statuses, types; every page of the PSA, kept 5 minutes',
        ...operation({
          id: 'listPsaLookups',
          description: `For mapping accounts (companies, boards) and writing rules (priorities, statuses, types). ${callers.partner}`,
        }),
        params: Type.Object({ what: Type.Enum(lookupKinds) }),
        querystring: Type.Object({
          board: Type.Optional(
            Type.String({
              minLength: 1,
              maxLength: 128,
              description: 'statuses and types of this board (ConnectWise)',
            }),
          ),
          search: Type.Optional(
            Type.String({ maxLength: 128, description: 'part of the name, or the exact id' }),
          ),
          cursor: Type.Optional(Cursor),
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
          refresh: Type.Optional(
            Type.Boolean({ description: 'read the PSA again instead of the kept list' }),
          ),
        }),
        response: { 200: Page(Entity), ...failures(400, 401, 502) },
      },
    },
    async (request) => {
      const partner = await s.store.partners.findById(partnerId(request))
      if (!partner) throw notFound('Partner')
      const q = request.query
      return orRefuse(
        await s.psaConnections.lookup(partner.id, partner.psa, request.params.what, {
          ...q,
          limit: q.limit ?? 100,
        }),
      )
    },
  )
}
