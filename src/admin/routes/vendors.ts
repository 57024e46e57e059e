// Operator API for vendors (docs/operations.md, "The admin API"): POST, GET (list and one), PATCH.
import Type from 'typebox'
import { type Clock, iso } from '../../platform/clock.js'
import type { Store } from '../../platform/db/store.js'
import type { App } from '../../platform/http/app-types.js'
import { notFound, orRefuse } from '../../platform/http/errors.js'
import { callers, operation } from '../../platform/http/openapi/operation-doc.js'
import { decodeKeyCursor, pageByKey } from '../../platform/http/pagination.js'
import { failures, IdParams, KeyCursor, LongLimit, Nullable, Page } from '../../platform/http/schemas.js'
import type { Provisioning, Vendor } from '../../tenants/index.js'
import {
  type AuthHooks,
  actorOf,
  DisabledView,
  disabledView,
  OutboundUrl,
  ProductGroupMap,
  ProductGroupsMapping,
  RotationView,
  rotationView,
  WebhookAuthHeader,
} from '../../tenants/index.js'

const Url = OutboundUrl
const AuthHeader = WebhookAuthHeader

const VendorFields = {
  webhookUrl: Type.Optional(Nullable(Url)),
  webhookAuthHeader: Type.Optional(Nullable(AuthHeader)),
  productGroups: Type.Optional(Nullable(ProductGroupMap)),
  productGroupsUrl: Type.Optional(Nullable(Url)),
  productGroupsMapping: Type.Optional(Nullable(ProductGroupsMapping)),
  rateLimitPerMinute: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 1_000_000 }))),
}

const CreateVendor = Type.Object({ name: Type.String({ minLength: 1, maxLength: 128 }), ...VendorFields })
const PatchVendor = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  ...VendorFields,
  webhookEnabled: Type.Optional(
    Type.Boolean({
      description: 'true: a paused or disabled webhook endpoint is active again; false: pause it',
    }),
  ),
})

const VendorView = Type.Object({
  id: Type.String(),
  name: Type.String(),
  clientId: Type.String(),
  webhookUrl: Nullable(Type.String()),
  hasWebhookAuthHeader: Type.Boolean(),
  webhookState: Type.Enum(['active', 'paused', 'disabled'], {
    description: 'disabled after a 410 answer; paused after 5 days of failures or by the operator',
  }),
  webhookStateReason: Nullable(Type.String()),
  webhookFailingSince: Nullable(Type.String({ description: 'first failure of the current failing run' })),
  productGroups: Nullable(Type.Record(Type.String(), Type.Array(Type.String()))),
  productGroupsUrl: Nullable(Type.String()),
  productGroupsMapping: Nullable(ProductGroupsMapping),
  rateLimitPerMinute: Nullable(Type.Integer()),
  createdAt: Type.String(),
  updatedAt: Type.String(),
  disabled: DisabledView,
  clientSecretRotation: RotationView,
  webhookSecretRotation: RotationView,
})

const CreatedVendor = Type.Object({
  ...VendorView.properties,
  clientSecret: Type.String({ description: 'shown once' }),
  webhookSecret: Type.String({ description: 'Standard Webhooks signing secret (whsec_…), shown once' }),
})

function vendorView(v: Vendor, now: string) {
  return {
    id: v.id,
    name: v.name,
    clientId: v.clientId,
    webhookUrl: v.webhookUrl,
    hasWebhookAuthHeader: v.hasWebhookAuthHeader,
    webhookState: v.webhookState,
    webhookStateReason: v.webhookStateReason,
    webhookFailingSince: v.webhookFailingSince,
    productGroups: v.productGroups,
    productGroupsUrl: v.productGroupsUrl,
    productGroupsMapping: v.productGroupsMapping,
    rateLimitPerMinute: v.rateLimitPerMinute,
    createdAt: v.createdAt,
    updatedAt: v.updatedAt,
    disabled: disabledView(v.disabled),
    clientSecretRotation: rotationView(v.clientSecret, now),
    webhookSecretRotation: rotationView(v.webhookSecretRotation, now),
  }
}

export interface AdminVendorRoutesDeps {
  auth: Pick<AuthHooks, 'admin'>
  store: Store
  clock: Clock
  provisioning: Pick<Provisioning, 'createVendor' | 'updateVendor'>
}

export function registerAdminVendors(app: App, s: AdminVendorRoutesDeps): void {
  const base = { onRequest: s.auth.admin }
  const meta = { tags: ['admin'], security: [{ adminToken: [] }] }

  app.post(
    '/api/admin/vendors',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'Create a vendor',
        ...operation({
          id: 'createVendor',
          description: `Answers clientId, clientSecret and webhookSecret once: hand them to the vendor. ${callers.operatorChange}`,
          body: {
            name: 'Acme Security',
            webhookUrl: 'https://vendor.example.com/alertbridge/webhook',
            productGroups: { 'Endpoint Security': ['Malware Detected', 'Agent Offline'] },
          },
        }),
        body: CreateVendor,
        response: { 201: CreatedVendor, ...failures(400, 401) },
      },
    },
    async (request, reply) => {
      const { vendor, clientSecret, webhookSecret } = orRefuse(
        await s.provisioning.createVendor(request.body, actorOf(request)),
      )
      return reply.code(201).send({ ...vendorView(vendor, iso(s.clock)), clientSecret, webhookSecret })
    },
  )

  app.get(
    '/api/admin/vendors',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'List vendors, in the order they were created, 500 a page unless `limit` says otherwise',
        ...operation({ id: 'listVendors', description: `Paged with \`cursor\`. ${callers.operator}` }),
        querystring: Type.Object({ limit: Type.Optional(LongLimit), cursor: Type.Optional(KeyCursor) }),
        response: { 200: Page(VendorView), ...failures(400, 401) },
      },
    },
    async (request) => {
      const { limit = 500, cursor } = request.query
      const rows = await s.store.vendors.list({ after: decodeKeyCursor(cursor, 2), limit: limit + 1 })
      const { data, nextCursor } = pageByKey(rows, limit, (v) => [v.createdAt, v.id])
      const now = iso(s.clock)
      return { data: data.map((v) => vendorView(v, now)), nextCursor }
    },
  )

  app.get(
    '/api/admin/vendors/:id',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'A vendor',
        ...operation({ id: 'getVendor', description: `No secret is shown again. ${callers.operator}` }),
        params: IdParams,
        response: { 200: VendorView, ...failures(401, 404) },
      },
    },
    async (request) => {
      const vendor = await s.store.vendors.findById(request.params.id)
      if (!vendor) throw notFound(`Vendor '${request.params.id}'`)
      return vendorView(vendor, iso(s.clock))
    },
  )

  app.patch(
    '/api/admin/vendors/:id',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'Change a vendor',
        ...operation({
          id: 'updateVendor',
          description: `Only the fields sent change; a webhook URL is checked before it is kept. ${callers.operatorChange}`,
          body: { webhookUrl: 'https://vendor.example.com/alertbridge/webhook' },
        }),
        params: IdParams,
        body: PatchVendor,
        response: { 200: VendorView, ...failures(400, 401, 404) },
      },
    },
    async (request) =>
      vendorView(
        orRefuse(await s.provisioning.updateVendor(request.params.id, request.body, actorOf(request))),
        iso(s.clock),
      ),
  )
}
