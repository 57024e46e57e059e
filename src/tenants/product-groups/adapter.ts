// Reads a vendor's GET /product-groups answer (docs/contract.md#vendor-endpoints). The default is the
// contract's shape, `{productGroups: [{productGroup, alertTypes: [...]}]}`; a vendor whose endpoint answers
// in another shape gets a small mapping in its configuration saying where the groups, names and types are.
// Pure: no I/O.

import type { ProductGroupsMapping } from '../vendor.js'
import { productGroupsFromList } from './product-groups.js'

export const specMapping: Required<Omit<ProductGroupsMapping, 'typeNameField'>> = {
  groupsPath: 'productGroups',
  groupField: 'productGroup',
  typesField: 'alertTypes',
}

export type AnswerReading = { ok: true; groups: Record<string, string[]> } | { ok: false; reason: string }

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

function at(value: unknown, path: string): unknown {
  let here = value
  for (const key of path.split('.')) {
    if (!isRecord(here) || !Object.hasOwn(here, key)) return undefined
    here = here[key]
  }
  return here
}

/** Limits on what a vendor answer may hold, so a broken endpoint cannot fill memory. */
const maxGroups = 1000
const maxTypesPerGroup = 1000
const maxNameLength = 128

/** The normalised catalogue ({group: [types]}) in a vendor's answer, or why it cannot be read. */
export function readProductGroupAnswer(body: unknown, mapping: ProductGroupsMapping | null): AnswerReading {
  const m = { ...specMapping, ...mapping }
  const groups = at(body, m.groupsPath)
  if (!Array.isArray(groups)) return { ok: false, reason: `'${m.groupsPath}' is not an array` }
  if (groups.length > maxGroups) return { ok: false, reason: `more than ${maxGroups} product groups` }
  const entries: [string, string[]][] = []
  for (const [i, group] of groups.entries()) {
    const name = isRecord(group) ? group[m.groupField] : undefined
    if (typeof name !== 'string' || name.trim() === '' || name.length > maxNameLength) {
      return { ok: false, reason: `${m.groupsPath}[${i}].${m.groupField} is not a product-group name` }
    }
    const raw = (group as Record<string, unknown>)[m.typesField]
    const types = readTypes(raw, m.typeNameField)
    if (types === null) {
      return {
        ok: false,
        reason: `${m.groupsPath}[${i}].${m.typesField} is not a list of alert types${m.typeNameField ? ` (objects with '${m.typeNameField}')` : ''}`,
      }
    }
    entries.push([name, types])
  }
  return { ok: true, groups: productGroupsFromList(entries) }
}

function readTypes(raw: unknown, nameField: string | undefined): string[] | null {
  const list = typeof raw === 'string' ? raw.split(',') : raw
  if (!Array.isArray(list) || list.length > maxTypesPerGroup) return null
  const types: string[] = []
  for (const t of list) {
    const name = nameField !== undefined && isRecord(t) ? t[nameField] : t
    if (typeof name !== 'string' || name.length > maxNameLength) return null
    types.push(name)
  }
  return types
}
