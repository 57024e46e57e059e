// The vendor's product-group catalogue (docs/vendor-api.md, "The product-group catalogue"): set the
// static list, and read what the service holds and, for the token's integration, the list in effect and
// where it came from.
import Type from 'typebox'
import type { Store } from '../../platform/db/store.js'
import type { App } from '../../platform/http/app-types.js'
import { notFound, orRefuse } from '../../platform/http/errors.js'
import { callers, operation } from '../../platform/http/openapi/operation-doc.js'
import { failures, Nullable } from '../../platform/http/schemas.js'
import type { ProductGroupSource, Provisioning } from '../../tenants/index.js'
import {
  type AuthHooks,
  EffectiveProductGroupsView,
  effectiveView,
  ProductGroupList,
  ProductGroupMap,
  type ProductGroupsInput,
  ProductGroupsView,
  productGroupsFromList,
  vendorIntegration,
  vendorPrincipal,
} from '../../tenants/index.js'

const PutBody = Type.Object({
  productGroups: Type.Union([ProductGroupList, ProductGroupMap], {
    description:
      '[{productGroup, alertTypes}] or {group: alertTypes}; alertTypes an array or a comma-separated string',
  }),
})

const StaticView = Type.Object({ productGroups: ProductGroupsView })

const ProductGroupState = Type.Object({
  productGroups: Type.Union([ProductGroupsView, Type.Null()], {
    description: 'the static list the service holds',
  }),
  productGroupsUrl: Nullable(Type.String({ description: 'your endpoint, when the list is dynamic' })),
  effective: Type.Union([EffectiveProductGroupsView, Type.Null()], {
    description: "the list in effect for the token's integration; null for an unbound token",
  }),
})

/** Both accepted shapes as one map; a group named twice in the list form gets the types of both. */
function asMap(
  input: Record<string, string[] | string> | { productGroup: string; alertTypes: string[] | string }[],
): ProductGroupsInput {
  return Array.isArray(input)
    ? productGroupsFromList(input.map((g) => [g.productGroup, g.alertTypes]))
    : input
}

export interface VendorProductGroupRoutesDeps {
  auth: Pick<AuthHooks, 'vendor'>
  store: Store
  productGroups: Pick<ProductGroupSource, 'effective'>
  provisioning: Pick<Provisioning, 'updateVendor'>
}

export function registerVendorProductGroups(app: App, s: VendorProductGroupRoutesDeps): void {
  const common = { onRequest: s.auth.vendor }
  const security = [{ vendorToken: [] }]

  app.put(
    '/api/vendor-api/product-groups',
    {
      ...common,
      schema: {
        tags: ['vendor'],
        summary: 'Set your static product-group catalogue (replaces it)',
        ...operation({
          id: 'setProductGroups',
          description: `Replaces your static catalogue: the product groups and alert types partners write rules for, and alerts name. ${callers.vendor}`,
          body: {
            productGroups: [
              { productGroup: 'Endpoint Security', alertTypes: ['Malware Detected', 'Agent Offline'] },
              { productGroup: 'Backup', alertTypes: 'Backup Failed,Backup Warning' },
            ],
          },
        }),
        security,
        body: PutBody,
        response: { 200: StaticView, ...failures(400, 401, 404) },
      },
    },
    async (request) => {
      const { vendorId } = vendorPrincipal(request)
      const vendor = orRefuse(
        await s.provisioning.updateVendor(vendorId, { productGroups: asMap(request.body.productGroups) }),
      )
      return { productGroups: vendor.productGroups ?? {} }
    },
  )

  app.get(
    '/api/vendor-api/product-groups',
    {
      ...common,
      schema: {
        tags: ['vendor'],
        summary: "Your catalogue: the static list, and the list in effect for the token's integration",
        ...operation({
          id: 'getProductGroups',
          description: `Your static list, your endpoint for a dynamic one, and the list in effect for the bound integration. ${callers.vendor}`,
        }),
        security,
        querystring: Type.Object({
          integrationId: Type.Optional(
            Type.String({ maxLength: 64, description: 'with an unbound token: show this integration' }),
          ),
        }),
        response: { 200: ProductGroupState, ...failures(401, 403, 404) },
      },
    },
    async (request) => {
      const p = vendorPrincipal(request)
      const vendor = await s.store.vendors.findById(p.vendorId)
      if (!vendor) throw notFound(`Vendor '${p.vendorId}'`)
      let effective = null
      if (p.integrationId ?? request.query.integrationId) {
        const integration = orRefuse(await vendorIntegration(s.store, p, request.query.integrationId))
        effective = effectiveView(integration.id, await s.productGroups.effective(vendor, integration))
      }
      return { productGroups: vendor.productGroups, productGroupsUrl: vendor.productGroupsUrl, effective }
    },
  )
}
