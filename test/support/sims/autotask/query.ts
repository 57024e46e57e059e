// Autotask's query language: `{"filter":[{op,field,value,udf?}|{op:"and"|"or",items:[...]}],
// "IncludeFields":[...],"MaxRecords":N}`. Top-level conditions are ANDed. Field names and the body's own
// keys are case-insensitive, string comparisons too (the database's collation is). An operator Autotask
// does not know is silently ignored, as a real tenant was seen to do with a misspelt "noteExist"; a
// missing filter is a 500 ("Value cannot be null. Parameter name: filters"), an empty one matches nothing.
// Pages are keyset pages over ascending ids; their position travels in the `paging` token of the
// next/previous page URL (`{"pageSize":500,"previousIds":[-1],"nextIds":[725]}`), never the filter.
import { fieldName } from './seed.js'
import type { Entity } from './types.js'

export const MAX_RECORDS = 500
const MAX_OR = 500

export interface Condition {
  op: string
  field?: string
  value?: unknown
  udf?: boolean
  items?: Condition[]
}

export interface Query {
  filter: Condition[]
  includeFields: string[] | null
  maxRecords: number
}

export interface PageToken {
  pageSize: number
  previousIds: number[]
  nextIds: number[]
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; status: number; message: string }

const fail = (message: string, status = 500): { ok: false; status: number; message: string } => ({
  ok: false,
  status,
  message,
})

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** A key of a JSON object, whatever its case. */
export function key(body: Record<string, unknown>, name: string): unknown {
  const k = Object.keys(body).find((k) => k.toLowerCase() === name.toLowerCase())
  return k === undefined ? undefined : body[k]
}

const LEAF_OPS = ['eq', 'noteq', 'gt', 'gte', 'lt', 'lte', 'beginswith', 'endswith', 'contains']
const KNOWN_OPS = [...LEAF_OPS, 'exist', 'notexist', 'in', 'notin', 'and', 'or']

function parseCondition(
  entity: string,
  raw: unknown,
  path: string,
  unqueryable: string[],
): Parsed<Condition | null> {
  if (!isRecord(raw)) return fail(`Invalid filter condition at ${path}.`)
  const op = String(key(raw, 'op') ?? '').toLowerCase()
  if (!KNOWN_OPS.includes(op)) return { ok: true, value: null }
  if (op === 'and' || op === 'or') {
    const items = key(raw, 'items')
    if (!Array.isArray(items)) return fail(`A '${op}' condition needs an 'items' array (${path}).`)
    const parsed: Condition[] = []
    for (const [i, item] of items.entries()) {
      const c = parseCondition(entity, item, `${path}.items[${i}]`, unqueryable)
      if (!c.ok) return c
      if (c.value) parsed.push(c.value)
    }
    return { ok: true, value: { op, items: parsed } }
  }
  const udf = key(raw, 'udf') === true
  const rawField = key(raw, 'field')
  if (typeof rawField !== 'string' || rawField === '') return fail(`Missing field in condition at ${path}.`)
  const field = udf ? rawField : fieldName(entity, rawField)
  if (!field) return fail(`Unable to find field '${rawField}' in the ${entity} entity.`)
  if (!udf && unqueryable.some((n) => n.toLowerCase() === field.toLowerCase()))
    return fail(`The field '${field}' of the ${entity} entity cannot be queried.`)
  const value = key(raw, 'value')
  if ((op === 'in' || op === 'notin') && !Array.isArray(value)) {
    return fail(`The '${op}' operator needs an array value (field ${rawField}).`)
  }
  return { ok: true, value: { op, field, value, udf } }
}

const orCount = (cs: Condition[], inOr = false): number =>
  cs.reduce((n, c) => n + (c.items ? orCount(c.items, c.op === 'or') : inOr ? 1 : 0), 0)

/** The query in a request body (POST) or a `search` parameter (GET). */
export function parseQuery(entity: string, body: unknown, unqueryable: string[] = []): Parsed<Query> {
  const filter = isRecord(body) ? key(body, 'filter') : undefined
  if (filter === undefined || filter === null) return fail('Value cannot be null. Parameter name: filters')
  if (!Array.isArray(filter)) return fail("The 'filter' must be an array of conditions.")
  const conditions: Condition[] = []
  for (const [i, raw] of filter.entries()) {
    const c = parseCondition(entity, raw, `filter[${i}]`, unqueryable)
    if (!c.ok) return c
    if (c.value) conditions.push(c.value)
  }
  if (orCount(conditions) > MAX_OR) {
    return fail("Invalid query syntax. Queries are limited to 500 or fewer 'OR' conditions.")
  }
  const body_ = body as Record<string, unknown>
  const include = key(body_, 'IncludeFields')
  const includeFields = Array.isArray(include) && include.length > 0 ? include.map(String) : null
  const max = Number(key(body_, 'MaxRecords'))
  const maxRecords = Number.isInteger(max) && max > 0 ? Math.min(max, MAX_RECORDS) : MAX_RECORDS
  return { ok: true, value: { filter: conditions, includeFields, maxRecords } }
}

const DATE = /^\d{4}-\d{2}-\d{2}/

/** -1, 0 or 1; null when the two cannot be compared. */
function compare(a: unknown, b: unknown): number | null {
  if (a === null || a === undefined || b === null || b === undefined) return null
  if (typeof a === 'boolean') {
    const bb = typeof b === 'boolean' ? b : String(b).toLowerCase() === 'true' || String(b) === '1'
    return a === bb ? 0 : a ? 1 : -1
  }
  if (typeof a === 'number') {
    const n = Number(b)
    return Number.isNaN(n) ? null : Math.sign(a - n)
  }
  const sa = String(a)
  const sb = String(b)
  if (DATE.test(sa) && DATE.test(sb)) return Math.sign(Date.parse(sa) - Date.parse(sb))
  const la = sa.toLowerCase()
  const lb = sb.toLowerCase()
  return la === lb ? 0 : la < lb ? -1 : 1
}

function fieldValue(item: Entity, c: Condition): unknown {
  if (!c.udf) return item[c.field ?? '']
  const udfs = item.userDefinedFields
  if (!Array.isArray(udfs)) return null
  const found = udfs.find((u) => isRecord(u) && String(u.name).toLowerCase() === c.field?.toLowerCase())
  return isRecord(found) ? found.value : null
}

function matches(item: Entity, c: Condition): boolean {
  if (c.op === 'and') return (c.items ?? []).every((i) => matches(item, i))
  if (c.op === 'or') return (c.items ?? []).some((i) => matches(item, i))
  const v = fieldValue(item, c)
  const s = typeof v === 'string' ? v.toLowerCase() : null
  const t = String(c.value ?? '').toLowerCase()
  const cmp = compare(v, c.value)
  switch (c.op) {
    case 'exist':
      return v !== null && v !== undefined
    case 'notexist':
      return v === null || v === undefined
    case 'eq':
      return c.value === null ? v === null : cmp === 0
    case 'noteq':
      return c.value === null ? v !== null : cmp !== 0
    case 'gt':
      return cmp !== null && cmp > 0
    case 'gte':
      return cmp !== null && cmp >= 0
    case 'lt':
      return cmp !== null && cmp < 0
    case 'lte':
      return cmp !== null && cmp <= 0
    case 'beginswith':
      return s?.startsWith(t) ?? false
    case 'endswith':
      return s?.endsWith(t) ?? false
    case 'contains':
      return s?.includes(t) ?? false
    case 'in':
      return (c.value as unknown[]).some((x) => compare(v, x) === 0)
    case 'notin':
      return !(c.value as unknown[]).some((x) => compare(v, x) === 0)
    default:
      return true
  }
}

/** The items that match every top-level condition, by ascending id; none for an empty filter. */
export function select<T extends object>(items: readonly T[], q: Query): T[] {
  if (q.filter.length === 0) return []
  return items
    .filter((item) => q.filter.every((c) => matches(item as Entity, c)))
    .sort((a, b) => Number((a as Entity).id) - Number((b as Entity).id))
}

/** Only the IncludeFields (any case) of an item; all of it when none are named. */
export function project(entity: string, item: object, includeFields: string[] | null): Entity {
  if (!includeFields) return { ...item }
  const names = includeFields.map((n) => fieldName(entity, n)).filter((n): n is string => !!n)
  return Object.fromEntries(Object.entries(item).filter(([k]) => names.includes(k)))
}

export function parseToken(raw: string | undefined): PageToken | null {
  if (!raw) return null
  try {
    const t: unknown = JSON.parse(raw)
    if (!isRecord(t)) return null
    const ids = (v: unknown) => (Array.isArray(v) ? v.map(Number).filter((n) => !Number.isNaN(n)) : [])
    const pageSize = Number(t.pageSize)
    if (!Number.isInteger(pageSize) || pageSize < 1) return null
    const nextIds = ids(t.nextIds)
    if (nextIds.length === 0) return null
    return { pageSize: Math.min(pageSize, MAX_RECORDS), previousIds: ids(t.previousIds), nextIds }
  } catch {
    return null
  }
}

export interface Page<T> {
  items: T[]
  next: PageToken | null
  previous: PageToken | null
}

/** One page of `items` (ascending ids): the first, or the one a token points at. */
export function pageOf<T extends object>(
  items: readonly T[],
  size: number,
  token: PageToken | null,
): Page<T> {
  const id = (i: number) => Number((items[i] as Entity).id)
  const startId = token?.nextIds[0] ?? -1
  let start = items.findIndex((_, i) => id(i) >= startId)
  if (start < 0) start = items.length
  const end = Math.min(start + size, items.length)
  const previousIds = token?.previousIds ?? []
  return {
    items: items.slice(start, end),
    next:
      end < items.length
        ? { pageSize: size, previousIds: [...previousIds, startId], nextIds: [id(end)] }
        : null,
    previous:
      token && previousIds.length > 0
        ? { pageSize: size, previousIds: previousIds.slice(0, -1), nextIds: [previousIds.at(-1) ?? -1] }
        : null,
  }
}
