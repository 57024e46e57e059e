// Lists as ConnectWise serves them: `conditions`, `orderBy`, `fields`, `page` (1-based) and `pageSize`
// (default 25, at most 1000: a larger size is cut down to the maximum, not refused), a bare JSON array,
// and navigation in the `Link` header: rel="next"/"last" while more pages follow, rel="first"/"prev"
// after page 1; no Link header when everything fits on one page. With the header
// `pagination-type: forward-only` the next link carries `pageId` (the last id seen) instead of `page`.
// Query parameter names are matched without regard to case, as ASP.NET binds them; any other parameter
// (say `externalXRef=…` instead of a condition) is ignored, as ConnectWise ignores it.
import type { FastifyReply, FastifyRequest } from 'fastify'
import { ConditionError, matches, parseConditions } from './conditions.js'
import type { Json } from './render.js'

export interface ListItem {
  id: number
  /** What conditions and orderBy look at (may hold more than the output, e.g. lastUpdated). */
  view: Json
  /** What is sent. */
  out: Json
}

export interface ListOptions {
  knownFields: readonly string[]
  pageSizeMax: number
}

export function cwError(
  reply: FastifyReply,
  status: number,
  code: string,
  message: string,
  errors?: { code: string; message: string; resource: string; field: string }[],
): FastifyReply {
  return reply.code(status).send(errors ? { code, message, errors } : { code, message })
}

/** The query with lower-cased names (ConnectWise accepts pageSize, pagesize, PageSize ...). */
export function queryOf(request: FastifyRequest): Map<string, string> {
  const raw = (request.query ?? {}) as Record<string, string | string[] | undefined>
  const out = new Map<string, string>()
  for (const [k, v] of Object.entries(raw)) {
    const value = Array.isArray(v) ? v[v.length - 1] : v
    if (value !== undefined) out.set(k.toLowerCase(), value)
  }
  return out
}

function positiveInt(v: string | undefined, fallback: number): number | null {
  if (v === undefined || v === '') return fallback
  return /^\d+$/.test(v) && Number(v) >= 1 ? Number(v) : null
}

function project(obj: Json, fields: string[][]): Json {
  const out: Json = {}
  for (const path of fields) {
    let src: unknown = obj
    let dst: Json = out
    for (const [i, key] of path.entries()) {
      if (src === null || typeof src !== 'object') break
      const value = (src as Json)[key]
      if (value === undefined) break
      if (i === path.length - 1) dst[key] = value
      else {
        dst[key] = (dst[key] as Json | undefined) ?? {}
        dst = dst[key] as Json
      }
      src = value
    }
  }
  return out
}

/** Applies conditions; answers 400 and returns null when they do not parse. */
export function filtered(
  request: FastifyRequest,
  reply: FastifyReply,
  items: ListItem[],
  o: ListOptions,
): ListItem[] | null {
  const conditions = queryOf(request).get('conditions')
  if (!conditions?.trim()) return items
  try {
    const cond = parseConditions(conditions, o.knownFields)
    return items.filter((item) => matches(cond, item.view))
  } catch (e) {
    if (!(e instanceof ConditionError)) throw e
    cwError(reply, 400, 'InvalidObject', e.message, [
      { code: 'InvalidField', message: e.message, resource: 'conditions', field: 'conditions' },
    ])
    return null
  }
}

export function sendCount(request: FastifyRequest, reply: FastifyReply, items: ListItem[], o: ListOptions) {
  const list = filtered(request, reply, items, o)
  if (!list) return reply
  return reply.send({ count: list.length })
}

function sorted(
  list: ListItem[],
  orderBy: string | undefined,
  known: readonly string[],
): ListItem[] | string {
  if (!orderBy) return [...list].sort((a, b) => a.id - b.id)
  const keys: { path: string[]; desc: boolean }[] = []
  for (const part of orderBy.split(',')) {
    const [field = '', dir = 'asc'] = part.trim().split(/\s+/)
    if (!known.some((k) => k.toLowerCase() === (field.split('/')[0] ?? '').toLowerCase())) {
      return `Unknown field "${field}" in orderBy.`
    }
    if (!['asc', 'desc'].includes(dir.toLowerCase())) return `Invalid direction "${dir}" in orderBy.`
    keys.push({ path: field.split('/'), desc: dir.toLowerCase() === 'desc' })
  }
  const get = (o: Json, path: string[]) =>
    path.reduce<unknown>((cur, k) => (cur && typeof cur === 'object' ? (cur as Json)[k] : undefined), o)
  return [...list].sort((a, b) => {
    for (const k of keys) {
      const x = get(a.view, k.path)
      const y = get(b.view, k.path)
      if (x === y) continue
      const c =
        x === undefined
          ? -1
          : y === undefined
            ? 1
            : String(x).localeCompare(String(y), 'en', { numeric: true })
      if (c !== 0) return k.desc ? -c : c
    }
    return a.id - b.id
  })
}

export function sendList(request: FastifyRequest, reply: FastifyReply, items: ListItem[], o: ListOptions) {
  const q = queryOf(request)
  const requestedSize = positiveInt(q.get('pagesize'), 25)
  const page = positiveInt(q.get('page'), 1)
  if (requestedSize === null || page === null) {
    return cwError(reply, 400, 'InvalidObject', 'page and pageSize must be positive integers.')
  }
  const pageSize = Math.min(requestedSize, o.pageSizeMax)
  const forwardOnly = String(request.headers['pagination-type'] ?? '').toLowerCase() === 'forward-only'
  if (forwardOnly && q.get('orderby')) {
    return cwError(reply, 400, 'InvalidObject', 'orderBy cannot be used with forward-only pagination.')
  }
  const list = filtered(request, reply, items, o)
  if (!list) return reply
  const ordered = sorted(list, q.get('orderby'), o.knownFields)
  if (typeof ordered === 'string') return cwError(reply, 400, 'InvalidObject', ordered)

  const host = request.headers.host ?? '127.0.0.1'
  const path = request.url.split('?')[0] ?? ''
  const link = (params: Record<string, number>) => {
    const sp = new URLSearchParams()
    for (const [k, v] of Object.entries((request.query ?? {}) as Record<string, string>)) {
      if (!['page', 'pagesize', 'pageid'].includes(k.toLowerCase())) sp.set(k, String(v))
    }
    sp.set('pageSize', String(pageSize))
    for (const [k, v] of Object.entries(params)) sp.set(k, String(v))
    return `${request.protocol}://${host}${path}?${sp.toString()}`
  }

  let slice: ListItem[]
  const links: string[] = []
  if (forwardOnly) {
    const after = positiveInt(q.get('pageid'), 0) ?? 0
    const rest = ordered.filter((i) => i.id > after)
    slice = rest.slice(0, pageSize)
    const last = slice[slice.length - 1]
    if (rest.length > pageSize && last) links.push(`<${link({ pageId: last.id })}>; rel="next"`)
  } else {
    slice = ordered.slice((page - 1) * pageSize, page * pageSize)
    const lastPage = Math.max(1, Math.ceil(ordered.length / pageSize))
    if (page > 1) {
      links.push(
        `<${link({ page: 1 })}>; rel="first"`,
        `<${link({ page: Math.min(page - 1, lastPage) })}>; rel="prev"`,
      )
    }
    if (page < lastPage)
      links.push(`<${link({ page: page + 1 })}>; rel="next"`, `<${link({ page: lastPage })}>; rel="last"`)
  }
  if (links.length) reply.header('link', links.join(', '))

  const fields = q.get('fields')
  const paths = fields
    ? fields
        .split(',')
        .map((f) => f.trim())
        .filter(Boolean)
        .map((f) => f.split('/'))
    : null
  return reply.send(slice.map((i) => (paths ? project(i.out, paths) : i.out)))
}

/** `fields` on a single record. */
export function sendOne(request: FastifyRequest, reply: FastifyReply, out: Json, status = 200) {
  const fields = queryOf(request).get('fields')
  if (!fields) return reply.code(status).send(out)
  return reply.code(status).send(
    project(
      out,
      fields.split(',').map((f) => f.trim().split('/')),
    ),
  )
}
