// How Kaseya BMS and Pulseway PSA answer (docs/psa/kaseya-bms.md, docs/psa/pulseway-psa.md): every answer is an envelope
// `{success, error: {code, message, details, subErrors}, result, totalRecords?}`, and the spec declares
// HTTP 200 for all of them, so a refusal is `success: false` at HTTP 200. Real clients read camelCase
// keys while the spec names them PascalCase: every field is read whatever its casing.
import type { PsaFailure } from '../adapter.js'

type Obj = Record<string, unknown>

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v)

/** A field of an answer object, whatever the casing of its key (accessToken, AccessToken). */
export function field(o: unknown, name: string): unknown {
  if (!isObj(o)) return undefined
  if (name in o) return o[name]
  const lower = name.toLowerCase()
  const key = Object.keys(o).find((k) => k.toLowerCase() === lower)
  return key === undefined ? undefined : o[key]
}

export function num(o: unknown, name: string): number | null {
  const v = field(o, name)
  if (typeof v === 'number' && Number.isFinite(v)) return v
  if (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v.trim())) return Number(v)
  return null
}

export function str(o: unknown, name: string): string | null {
  const v = field(o, name)
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null
}

export function bool(o: unknown, name: string): boolean | null {
  const v = field(o, name)
  if (typeof v === 'boolean') return v
  if (v === 1 || v === 0) return v === 1
  return null
}

/** The rows of a list answer (a `result` that is not a list has none). */
export function rows(result: unknown): unknown[] {
  return Array.isArray(result) ? result : []
}

export interface Envelope {
  /** null: the body is no envelope (a server that answers the bare result). */
  success: boolean | null
  result: unknown
  error: unknown
  totalRecords: number | null
}

export function envelope(body: unknown): Envelope {
  const success = field(body, 'success')
  if (typeof success !== 'boolean') return { success: null, result: body, error: null, totalRecords: null }
  return {
    success,
    result: field(body, 'result'),
    error: field(body, 'error'),
    totalRecords: num(body, 'totalRecords'),
  }
}

/** The PSA's own words in an error: its message, details and sub-errors; null when it has none. */
export function v2ErrorText(body: unknown): string | null {
  const error = field(body, 'error') ?? body
  const parts: string[] = []
  const add = (t: unknown) => {
    if (typeof t === 'string' && t.trim() !== '' && !parts.includes(t.trim())) parts.push(t.trim())
  }
  if (typeof error === 'string') add(error)
  add(field(error, 'message'))
  add(field(error, 'details'))
  const subs = field(error, 'subErrors')
  if (Array.isArray(subs)) for (const s of subs) add(isObj(s) ? (field(s, 'message') ?? null) : s)
  // ASP.NET's own validation answer (a body the envelope filter did not wrap).
  const errors = field(body, 'errors')
  if (isObj(errors)) for (const list of Object.values(errors)) if (Array.isArray(list)) list.forEach(add)
  if (parts.length === 0) add(field(body, 'title'))
  // error_description: an OAuth-style answer of the token endpoint.
  if (parts.length === 0) add(field(body, 'error_description'))
  return parts.length > 0 ? parts.join(': ') : null
}

/**
 * What a `success: false` answer means. Its code, where BMS gives one, reads like an HTTP status; its
 * text is all there is otherwise. Anything not recognisably about the token, a permission, a missing
 * record or a limit is BMS refusing the request: not retried.
 */
export function refusal(error: unknown, status: number, psa: string): PsaFailure {
  const message = v2ErrorText({ error }) ?? `${psa} refused the request (success: false, no message)`
  const code = num(error, 'code')
  const base = { message, status }
  if (
    code === 401 ||
    /\b(access )?token\b.*\b(invalid|expired)\b|unauthori[sz]ed|not authenticated/i.test(message)
  )
    return { kind: 'auth', retryable: false, ...base }
  if (code === 429 || /rate limit|too many requests|throttl|calls per hour/i.test(message))
    return { kind: 'rate-limited', retryable: true, retryAfterMs: 60_000, ...base }
  if (code === 403 || /\bpermission|access (is )?denied|forbidden/i.test(message))
    return { kind: 'forbidden', retryable: false, ...base }
  if (code === 404 || /\bnot found\b|does not exist/i.test(message))
    return { kind: 'not-found', retryable: false, ...base }
  return { kind: 'rejected', retryable: false, ...base }
}
