// JSON bodies must be UTF-8 (RFC 8259 §8.1). A body with bytes that are not is refused with 400 naming
// the field that holds them (docs/decisions/hostile-input/invalid-utf8.md), instead of being stored
// with U+FFFD replacement characters in their place. Node's `isUtf8` checks the whole body (simdutf) at
// the cost of a memcpy; only a refused body is decoded again to find the field.
import { isUtf8 } from 'node:buffer'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { ApiError } from './errors.js'

const replacement = '\uFFFD'

/** `body/data/title`: where the first string (or field name) holding a replacement character is. */
export function fieldWithReplacement(value: unknown): string | null {
  const stack: { v: unknown; path: string[] }[] = [{ v: value, path: [] }]
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const { v, path } = next
    if (typeof v === 'string') {
      if (v.includes(replacement)) return ['body', ...path].join('/')
      continue
    }
    if (v === null || typeof v !== 'object') continue
    const entries = Array.isArray(v) ? v.map((item, i) => [String(i), item] as const) : Object.entries(v)
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, item] = entries[i]!
      if (key.includes(replacement)) return ['body', ...path].join('/')
      stack.push({ v: item, path: [...path, key] })
    }
  }
  return null
}

/** The refusal of a body that is not UTF-8, naming the field when the rest of it is JSON. */
export function invalidUtf8(raw: Buffer): ApiError {
  let field: string | null = null
  try {
    field = fieldWithReplacement(JSON.parse(raw.toString('utf8')))
  } catch {
    // Not JSON once decoded either: the body as a whole is named.
  }
  return new ApiError(
    'VALIDATION_FAILED',
    `${field ?? 'The body'} is not valid UTF-8; send JSON text encoded as UTF-8.`,
  )
}

/** Replaces the JSON parser with one that refuses bytes that are not UTF-8, then parses as Fastify does. */
export function installUtf8Check(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error')
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer' },
    (request: FastifyRequest, body: Buffer, done: (err: Error | null, body?: unknown) => void) => {
      if (!isUtf8(body)) return done(invalidUtf8(body))
      parseJson(request, body.toString('utf8'), done)
    },
  )
}
