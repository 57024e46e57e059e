// The vendor's product-group catalogue: accepted as arrays or comma-separated strings
// (docs/contract.md#vendor-api-calls), kept normalised as { group: [types] }.
import type { ProductGroups } from '../../platform/core/types.js'

export type ProductGroupsInput = Record<string, readonly string[] | string>

export function normaliseProductGroups(input: ProductGroupsInput): Record<string, string[]> {
  // Built as entries, not by assignment: a group may be called `__proto__`.
  const out = new Map<string, string[]>()
  for (const [group, types] of Object.entries(input)) {
    const name = group.trim()
    if (!name) continue
    const list = typeof types === 'string' ? types.split(',') : types
    out.set(name, [...new Set(list.map((t) => t.trim()).filter((t) => t.length > 0))])
  }
  return Object.fromEntries(out)
}

/**
 * Product groups given as a list (docs/contract.md#vendor-api-calls), where a group may come twice: one
 * normalised catalogue, names trimmed before they are merged, so ' A' and 'A' are one group with the types
 * of both.
 */
export function productGroupsFromList(
  entries: Iterable<readonly [group: string, types: readonly string[] | string]>,
): Record<string, string[]> {
  const merged = new Map<string, string[]>()
  for (const [group, types] of entries) {
    const name = group.trim()
    const list = typeof types === 'string' ? types.split(',') : types
    merged.set(name, [...(merged.get(name) ?? []), ...list])
  }
  return normaliseProductGroups(Object.fromEntries(merged))
}

export function toProductGroups(groups: Record<string, readonly string[]>): ProductGroups {
  return new Map(Object.entries(groups).map(([g, types]) => [g, new Set(types)]))
}

export type ProductGroupCheck =
  | { ok: true }
  | { ok: false; reason: 'no-catalogue' | 'unknown-group' | 'unknown-type'; detail: string }

/** Whether a product group and these alert types all exist in the catalogue. */
export function checkAgainstProductGroups(
  catalogue: ProductGroups | null,
  productGroup: string,
  ...alertTypes: string[]
): ProductGroupCheck {
  if (catalogue === null || catalogue.size === 0) {
    return {
      ok: false,
      reason: 'no-catalogue',
      detail: 'The vendor has no product-group catalogue yet; the operator or the vendor must set one.',
    }
  }
  const types = catalogue.get(productGroup)
  if (!types) {
    return {
      ok: false,
      reason: 'unknown-group',
      detail: `productGroup '${productGroup}' is not in the catalogue; known groups: ${[...catalogue.keys()].join(', ')}.`,
    }
  }
  const unknown = alertTypes.filter((t) => !types.has(t))
  if (unknown.length > 0) {
    return {
      ok: false,
      reason: 'unknown-type',
      detail: `alertType '${unknown.join("', '")}' is not defined under productGroup '${productGroup}'; known types: ${[...types].join(', ') || '(none)'}.`,
    }
  }
  return { ok: true }
}
