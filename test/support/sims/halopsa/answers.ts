// What the HaloPSA simulator's routes share: their answer shape, Halo's plain-text refusals, query
// parameters read in any case, and Halo's paging (pageinate=true, page_size at most 100, 1-based
// page_no, answered as {record_count, <key>: [...]}; without pageinate, `count` records or all).
export interface Answer {
  status: number
  /** A string is sent as text/plain, as Halo sends most of its refusals. */
  body: unknown
}

export interface ApiRequest {
  method: string
  /** The path's segments after /api/, lower-cased (Halo's paths ignore case). */
  segments: string[]
  params: URLSearchParams
  body: unknown
}

export const answer = (body: unknown, status = 200): Answer => ({ status, body })
export const refuse = (status: number, message: string): Answer => ({ status, body: message })

/** A query parameter by name, in any case. */
export function param(params: URLSearchParams, name: string): string | null {
  for (const [k, v] of params) if (k.toLowerCase() === name) return v
  return null
}

export const flag = (params: URLSearchParams, name: string) => {
  const v = param(params, name)?.toLowerCase()
  return v === 'true' || v === '1'
}

export function intParam(params: URLSearchParams, name: string): number | null {
  const v = param(params, name)
  return v !== null && /^-?\d+$/.test(v) ? Number(v) : null
}

/** Halo's list answer for `items` under `key`, paged when the request asks. */
export function paged<T>(items: readonly T[], params: URLSearchParams, key: string): Answer {
  if (flag(params, 'pageinate')) {
    const size = Math.min(100, Math.max(1, intParam(params, 'page_size') ?? 50))
    const page = Math.max(1, intParam(params, 'page_no') ?? 1)
    return answer({
      page_no: page,
      page_size: size,
      record_count: items.length,
      [key]: items.slice((page - 1) * size, page * size),
    })
  }
  const count = intParam(params, 'count')
  return answer({ record_count: items.length, [key]: count === null ? items : items.slice(0, count) })
}

/** The body as Halo's POST endpoints take it: an array of records. */
export function records(body: unknown): Record<string, unknown>[] | null {
  if (!Array.isArray(body)) return null
  return body.every((r) => r !== null && typeof r === 'object' && !Array.isArray(r))
    ? (body as Record<string, unknown>[])
    : null
}

/** One posted record back as an object, several as an array (Halo's POST answers). */
export const oneOrMany = <T>(made: T[], status = 200): Answer =>
  answer(made.length === 1 ? made[0] : made, status)

export const num = (v: unknown): number | null =>
  typeof v === 'number' && Number.isFinite(v)
    ? v
    : typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v)
      ? Number(v)
      : null
