// How the simulated BMS answers: every answer an envelope `{success, error, result[, totalRecords]}`
// at HTTP 200, refusals included (the spec declares only 200); input read without regard to the case
// of its keys, as ASP.NET binds them; lists paged with PageSize/PageNumber.
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { KaseyaBmsState } from './types.js'

export interface ErrorInfo {
  code: number
  message: string
  details: string | null
  stackStrace: null
  subErrors: string[] | null
}

export const okBody = (result: unknown, totalRecords?: number) => ({
  success: true,
  error: null,
  result,
  ...(totalRecords === undefined ? {} : { totalRecords }),
})

export const errorBody = (code: number, message: string, subErrors?: string[], details?: string) => ({
  success: false,
  error: {
    code,
    message,
    details: details ?? null,
    stackStrace: null,
    subErrors: subErrors ?? null,
  } satisfies ErrorInfo,
  result: null,
})

/** A refusal as BMS gives one: HTTP 200, success false. */
export const refuse = (reply: FastifyReply, code: number, message: string, subErrors?: string[]) =>
  reply.code(200).send(errorBody(code, message, subErrors))

/** A body or query field, whatever the case of its key. */
export function input(obj: unknown, name: string): unknown {
  if (!obj || typeof obj !== 'object' || Array.isArray(obj)) return undefined
  const lower = name.toLowerCase()
  const key = Object.keys(obj).find((k) => k.toLowerCase() === lower)
  return key === undefined ? undefined : (obj as Record<string, unknown>)[key]
}

export function intOf(v: unknown): number | null {
  if (typeof v === 'number' && Number.isInteger(v)) return v
  if (typeof v === 'string' && /^-?\d+$/.test(v.trim())) return Number(v)
  return null
}

export const query = (request: FastifyRequest, name: string): string | undefined => {
  const v = input(request.query, name)
  return Array.isArray(v) ? String(v[v.length - 1]) : v === undefined ? undefined : String(v)
}

export type Paged<T> = { ok: true; rows: T[]; total: number } | { ok: false; message: string }

/** One page of `items`, as PageSize and PageNumber (from the query or a search body) ask. */
export function page<T>(
  items: readonly T[],
  size: unknown,
  number: unknown,
  paging: KaseyaBmsState['paging'],
): Paged<T> {
  const s = size === undefined || size === '' ? 50 : intOf(size)
  const n = number === undefined || number === '' ? paging.firstPage : intOf(number)
  if (s === null || s < 1) return { ok: false, message: 'PageSize must be a positive number.' }
  if (n === null || n < 0) return { ok: false, message: 'PageNumber must not be negative.' }
  let index = n - paging.firstPage
  if (index < 0) {
    if (paging.pageZero === 'error') return { ok: false, message: 'PageNumber must be greater than 0.' }
    if (paging.pageZero === 'empty') return { ok: true, rows: [], total: items.length }
    index = 0
  }
  const size_ = Math.min(s, paging.pageSizeMax)
  return { ok: true, rows: items.slice(index * size_, (index + 1) * size_), total: items.length }
}

export const contains = (text: string | null | undefined, part: string | undefined) =>
  part === undefined || part === '' || (text ?? '').toLowerCase().includes(part.toLowerCase())
