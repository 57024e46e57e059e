// Request and response schemas of the catalogue, shared by the operator's, the vendor's and the
// partner's routes.
import Type from 'typebox'
import type { EffectiveProductGroups } from './source.js'

const Name = Type.String({ minLength: 1, maxLength: 128 })
const TypeList = Type.Union([
  Type.Array(Name, { maxItems: 500 }),
  Type.String({ maxLength: 20000, description: 'comma-separated' }),
])

/** `{group: [types] | "a,b"}`. */
export const ProductGroupMap = Type.Record(Name, TypeList, {
  description: 'product group → alert types, as an array or a comma-separated string',
})

/** The contract's shape, `[{productGroup, alertTypes}]` (docs/contract.md#vendor-api-calls). */
export const ProductGroupList = Type.Array(Type.Object({ productGroup: Name, alertTypes: TypeList }), {
  maxItems: 1000,
  description: 'One entry per product group',
})

/** The normalised catalogue the service holds. */
export const ProductGroupsView = Type.Record(Type.String(), Type.Array(Type.String()))

/** The catalogue one integration may use now, and where it came from. */
export const EffectiveProductGroupsView = Type.Object({
  integrationId: Type.String(),
  source: Type.Enum(['static', 'dynamic', 'dynamic-stale', 'static-fallback'], {
    description:
      "static: the vendor's list; dynamic: the vendor endpoint's answer for this partner (cached 15 min); dynamic-stale: its last good answer, a newer one could not be had; static-fallback: no answer yet, the vendor's list",
  }),
  productGroups: Type.Union([ProductGroupsView, Type.Null()]),
  fetchedAt: Type.Union([Type.String(), Type.Null()]),
  reason: Type.Union([Type.String({ description: 'why the list is not a fresh dynamic one' }), Type.Null()]),
})

export function effectiveView(integrationId: string, c: EffectiveProductGroups) {
  return {
    integrationId,
    source: c.source,
    productGroups: c.groups,
    fetchedAt: c.fetchedAt,
    reason: c.reason,
  }
}

const FieldName = (description: string) => Type.String({ pattern: '^[A-Za-z0-9_$-]{1,64}$', description })
export const ProductGroupsMapping = Type.Object(
  {
    groupsPath: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z0-9_$-]{1,64}(\\.[A-Za-z0-9_$-]{1,64}){0,7}$',
        description: 'dotted path to the array of groups; default productGroups',
      }),
    ),
    groupField: Type.Optional(FieldName("a group's name; default productGroup")),
    typesField: Type.Optional(
      FieldName("a group's alert types (array or comma-separated string); default alertTypes"),
    ),
    typeNameField: Type.Optional(FieldName('when the alert types are objects: their name field')),
  },
  {
    additionalProperties: false,
    description:
      'How to read a differently shaped answer of productGroupsUrl; null: the default shape {productGroups:[{productGroup, alertTypes}]}',
  },
)
