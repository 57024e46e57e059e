// Operator API for partners (docs/operations.md, "The admin API").
import Type from 'typebox'
import { type Clock, iso } from '../../platform/clock.js'
import type { Store } from '../../platform/db/store.js'
import type { App } from '../../platform/http/app-types.js'
import { notFound, orRefuse } from '../../platform/http/errors.js'
import { callers, operation } from '../../platform/http/openapi/operation-doc.js'
import { decodeKeyCursor, pageByKey } from '../../platform/http/pagination.js'
import { failures, IdParams, KeyCursor, LongLimit, Nullable, Page } from '../../platform/http/schemas.js'
import type { PsaConnections, PsaRegistry } from '../../psa/index.js'
import { PsaInput, PsaView } from '../../psa/index.js'
import type { Partner, Provisioning } from '../../tenants/index.js'
import {
  type AuthHooks,
  actorOf,
  DisabledView,
  disabledView,
  RotationView,
  rotationView,
} from '../../tenants/index.js'

const Name = Type.String({ minLength: 1, maxLength: 128 })

const PartnerView = Type.Object({
  id: Type.String(),
  name: Type.String(),
  psa: PsaView,
  createdAt: Type.String(),
  updatedAt: Type.String(),
  disabled: DisabledView,
  apiKeyRotation: RotationView,
  sandbox: Type.Boolean({
    description:
      "a vendor's test partner (docs/vendor-api.md#self-serve-test-mode): its PSA stays the sandbox",
  }),
  sandboxVendorId: Nullable(Type.String({ description: 'the vendor whose test partner it is' })),
})

const Warning = Type.Optional(
  Type.String({ description: "the PSA connection's test failed: in one sentence, why (it is saved anyway)" }),
)

const SavedPartner = Type.Object({ ...PartnerView.properties, warning: Warning })

const CreatedPartner = Type.Object({
  ...PartnerView.properties,
  apiKey: Type.String({ description: 'shown once' }),
  warning: Warning,
})

function partnerView(psa: PsaRegistry, p: Partner, now: string) {
  return {
    id: p.id,
    name: p.name,
    psa: psa.view(p.psa),
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
    disabled: disabledView(p.disabled),
    apiKeyRotation: rotationView(p.apiKeyRotation, now),
    sandbox: p.sandboxVendorId !== null,
    sandboxVendorId: p.sandboxVendorId,
  }
}

export interface AdminPartnerRoutesDeps {
  auth: Pick<AuthHooks, 'admin'>
  store: Store
  clock: Clock
  provisioning: Pick<Provisioning, 'createPartner' | 'updatePartner'>
  psa: PsaRegistry
  psaConnections: Pick<PsaConnections, 'test'>
}

export function registerAdminPartners(app: App, s: AdminPartnerRoutesDeps): void {
  const base = { onRequest: s.auth.admin }
  const meta = { tags: ['admin'], security: [{ adminToken: [] }] }
  /** A saved PSA connection is tested; a failed test is answered as a warning, not refused. */
  const warning = async (p: Partner) => {
    const test = await s.psaConnections.test(p.id, p.psa)
    return test.ok ? {} : { warning: test.detail }
  }

  app.post(
    '/api/admin/partners',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'Create a partner with its PSA connection',
        ...operation({
          id: 'createPartner',
          description: `Answers the partner API key once. The PSA settings of each kind: docs/psa/README.md. ${callers.operatorChange}`,
          body: { name: 'Best MSP', psa: { kind: 'sandbox' } },
        }),
        body: Type.Object({ name: Name, psa: PsaInput }),
        response: { 201: CreatedPartner, ...failures(400, 401) },
      },
    },
    async (request, reply) => {
      const { partner, apiKey } = orRefuse(await s.provisioning.createPartner(request.body, actorOf(request)))
      return reply
        .code(201)
        .send({ ...partnerView(s.psa, partner, iso(s.clock)), apiKey, ...(await warning(partner)) })
    },
  )

  app.get(
    '/api/admin/partners',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'List partners, in the order they were created, 500 a page unless `limit` says otherwise',
        ...operation({ id: 'listPartners', description: `Paged with \`cursor\`. ${callers.operator}` }),
        querystring: Type.Object({ limit: Type.Optional(LongLimit), cursor: Type.Optional(KeyCursor) }),
        response: { 200: Page(PartnerView), ...failures(400, 401) },
      },
    },
    async (request) => {
      const { limit = 500, cursor } = request.query
      const rows = await s.store.partners.list({ after: decodeKeyCursor(cursor, 2), limit: limit + 1 })
      const { data, nextCursor } = pageByKey(rows, limit, (p) => [p.createdAt, p.id])
      const now = iso(s.clock)
      return { data: data.map((p) => partnerView(s.psa, p, now)), nextCursor }
    },
  )

  app.get(
    '/api/admin/partners/:id',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'A partner',
        ...operation({ id: 'getPartner', description: `PSA secrets masked. ${callers.operator}` }),
        params: IdParams,
        response: { 200: PartnerView, ...failures(401, 404) },
      },
    },
    async (request) => {
      const partner = await s.store.partners.findById(request.params.id)
      if (!partner) throw notFound(`Partner '${request.params.id}'`)
      return partnerView(s.psa, partner, iso(s.clock))
    },
  )

  app.patch(
    '/api/admin/partners/:id',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'Change a partner',
        ...operation({
          id: 'updatePartner',
          description: `Only the fields sent change. ${callers.operatorChange}`,
          body: { name: 'Best MSP Ltd' },
        }),
        params: IdParams,
        body: Type.Object({ name: Type.Optional(Name), psa: Type.Optional(PsaInput) }),
        response: { 200: SavedPartner, ...failures(400, 401, 404) },
      },
    },
    async (request) => {
      const partner = orRefuse(
        await s.provisioning.updatePartner(request.params.id, request.body, actorOf(request)),
      )
      return {
        ...partnerView(s.psa, partner, iso(s.clock)),
        ...(request.body.psa ? await warning(partner) : {}),
      }
    },
  )
}
