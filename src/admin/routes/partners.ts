// Operator API for partners (DESIGN §7).
import Type from 'typebox'
import type { Partner } from '../../db/repositories/partners.js'
import type { App } from '../../http/app-types.js'
import { notFound } from '../../http/errors.js'
import { failures, IdParams } from '../../http/schemas.js'
import { psaKinds } from '../../psa/adapter.js'
import { maskPsaSettings } from '../../psa/settings.js'
import type { Services } from '../../services.js'

export const PsaInput = Type.Object(
  { kind: Type.Enum(psaKinds) },
  { additionalProperties: true, description: 'kind plus the settings of that kind (DESIGN §7)' },
)

export const PsaView = Type.Object(
  { kind: Type.String() },
  { additionalProperties: true, description: 'kind plus its settings, secrets masked' },
)

const Name = Type.String({ minLength: 1, maxLength: 128 })

const PartnerView = Type.Object({
  id: Type.String(),
  name: Type.String(),
  psa: PsaView,
  createdAt: Type.String(),
  updatedAt: Type.String(),
})

const CreatedPartner = Type.Object({
  ...PartnerView.properties,
  apiKey: Type.String({ description: 'shown once' }),
})

export function psaView(psa: Partner['psa']) {
  return { kind: psa.kind, ...maskPsaSettings(psa.settings) }
}

function partnerView(p: Partner) {
  return { id: p.id, name: p.name, psa: psaView(p.psa), createdAt: p.createdAt, updatedAt: p.updatedAt }
}

export function registerAdminPartners(app: App, s: Services): void {
  const base = { onRequest: s.auth.admin }
  const meta = { tags: ['admin'], security: [{ adminToken: [] }] }

  app.post(
    '/api/admin/partners',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'Create a partner with its PSA connection',
        body: Type.Object({ name: Name, psa: PsaInput }),
        response: { 201: CreatedPartner, ...failures(400, 401) },
      },
    },
    async (request, reply) => {
      const { partner, apiKey } = await s.provisioning.createPartner(request.body)
      return reply.code(201).send({ ...partnerView(partner), apiKey })
    },
  )

  app.get(
    '/api/admin/partners',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'List partners',
        response: { 200: Type.Object({ data: Type.Array(PartnerView) }), ...failures(401) },
      },
    },
    async () => ({ data: (await s.store.partners.list()).map(partnerView) }),
  )

  app.get(
    '/api/admin/partners/:id',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'A partner',
        params: IdParams,
        response: { 200: PartnerView, ...failures(401, 404) },
      },
    },
    async (request) => {
      const partner = await s.store.partners.findById(request.params.id)
      if (!partner) throw notFound(`Partner '${request.params.id}'`)
      return partnerView(partner)
    },
  )

  app.patch(
    '/api/admin/partners/:id',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'Change a partner',
        params: IdParams,
        body: Type.Object({ name: Type.Optional(Name), psa: Type.Optional(PsaInput) }),
        response: { 200: PartnerView, ...failures(400, 401, 404) },
      },
    },
    async (request) => partnerView(await s.provisioning.updatePartner(request.params.id, request.body)),
  )
}
