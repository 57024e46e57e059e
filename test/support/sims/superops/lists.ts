// SuperOps' list input as the simulator reads it (docs/psa/superops.md, "Paging"): a condition — a leaf
// `{attribute, operator, value}` on a dotted path (`client.accountId`), or `{joinOperator, operands}`
// where any joinOperator but upper-case AND is taken as OR, as SuperOps does — then `sort`, then
// `page` (1-based) and `pageSize` (at most 100). `listInfo.hasMore` is true while pages remain and null
// on the last one (false only where the tenant is set so). `equals` and `in` are not SuperOps operators.
import { clientError } from './answers.js'

export interface ListInput {
  page?: number | null
  pageSize?: number | null
  condition?: unknown
  sort?: { attribute: string; order?: 'ASC' | 'DESC' | null }[] | null
}

export const MAX_PAGE_SIZE = 100

/** SuperOps' time text (UTC, no zone) of a Date. */
export const superOpsTime = (d: Date = new Date()) => d.toISOString().slice(0, 19)
const timeOf = (v: unknown) => {
  const s = String(v ?? '')
  return Date.parse(/[zZ]|[+-]\d\d:\d\d$/.test(s) ? s : `${s}Z`)
}

function at(item: unknown, path: string): unknown {
  let v: unknown = item
  for (const key of path.split('.'))
    v = v && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined
  return v
}

const text = (v: unknown) => (v === null || v === undefined ? '' : String(v)).toLowerCase()

function leaf(item: unknown, c: { attribute?: unknown; operator?: unknown; value?: unknown }): boolean {
  const v = at(item, String(c.attribute ?? ''))
  const want = c.value
  switch (c.operator) {
    case 'is':
      return text(v) === text(want)
    case 'isNot':
      return text(v) !== text(want)
    case 'contains':
      return text(v).includes(text(want))
    case 'notContains':
      return !text(v).includes(text(want))
    case 'startsWith':
      return text(v).startsWith(text(want))
    case 'endsWith':
      return text(v).endsWith(text(want))
    case 'includes':
      return Array.isArray(want) && want.some((w) => text(w) === text(v))
    case 'notIncludes':
      return Array.isArray(want) && !want.some((w) => text(w) === text(v))
    case 'after':
      return v !== null && v !== undefined && timeOf(v) > timeOf(want)
    case 'before':
      return v !== null && v !== undefined && timeOf(v) < timeOf(want)
    default:
      throw clientError(
        'type_validation_failed',
        { attributes: ['operator'] },
        `Unknown operator ${String(c.operator)}`,
      )
  }
}

export function matches(item: unknown, condition: unknown, depth = 0): boolean {
  if (condition === null || condition === undefined) return true
  if (typeof condition !== 'object' || depth > 8)
    throw clientError('type_validation_failed', { attributes: ['condition'] }, 'Invalid condition')
  const c = condition as { joinOperator?: unknown; operands?: unknown }
  if (Array.isArray(c.operands)) {
    const results = c.operands.map((o) => matches(item, o, depth + 1))
    return c.joinOperator === 'AND' ? results.every(Boolean) : results.some(Boolean)
  }
  return leaf(item, condition as Record<string, unknown>)
}

/** The page asked for, with SuperOps' listInfo. */
export function listed<T>(items: readonly T[], input: ListInput, hasMoreFalse: boolean) {
  const filtered = items.filter((i) => matches(i, input.condition))
  const sorted = [...filtered]
  for (const s of [...(input.sort ?? [])].reverse()) {
    const dir = s.order === 'DESC' ? -1 : 1
    sorted.sort((a, b) => {
      const [x, y] = [at(a, s.attribute), at(b, s.attribute)]
      const [tx, ty] = [timeOf(x), timeOf(y)]
      if (!Number.isNaN(tx) && !Number.isNaN(ty) && /Time$/.test(s.attribute)) return (tx - ty) * dir
      return text(x) < text(y) ? -dir : text(x) > text(y) ? dir : 0
    })
  }
  const page = Math.max(1, input.page ?? 1)
  const pageSize = Math.min(MAX_PAGE_SIZE, Math.max(1, input.pageSize ?? 10))
  const slice = sorted.slice((page - 1) * pageSize, page * pageSize)
  const more = page * pageSize < sorted.length
  return {
    items: slice,
    listInfo: {
      page,
      pageSize,
      totalCount: sorted.length,
      hasMore: more ? true : hasMoreFalse ? false : null,
    },
  }
}
