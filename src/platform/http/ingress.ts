// Checks every request passes before its schema is checked or anything is looked up: no NUL character
// anywhere (PostgreSQL text cannot hold one and SQLite can, so both refuse it alike) and no body nested
// deeper than a limit (a deeper one would overflow the stack of whatever walks it next: JSON.stringify
// when it is stored, the schema check, a PSA call's body). Path parameters, the query string and the
// parsed body are walked once, iteratively, in a preValidation hook — after a route's authentication,
// before its validation.
import type { FastifyInstance } from 'fastify'
import { ApiError } from './errors.js'

/** The deepest nesting of objects and arrays a request may have; the body itself is level 1. */
export const maxInputDepth = 32

const nul = '\u0000'

/** A JSON Pointer-like name of a place in the request, e.g. `body/data/title`. */
function placeName(part: string, path: readonly (string | number)[]): string {
  const shown = path.map((p) => String(p).replaceAll('~', '~0').replaceAll('/', '~1'))
  const name = [part, ...shown].join('/')
  return name.length > 200 ? `${name.slice(0, 200)}…` : name
}

/** Why a string may not be taken as it is, or null. */
export function nulProblem(name: string, value: string): string | null {
  return value.includes(nul) ? `${name} must not contain the NUL character (U+0000).` : null
}

/**
 * What is wrong with one part of a request (`params`, `querystring`, `body`), or null. The first
 * problem found is named: the field, and the rule it breaks.
 */
export function inputProblem(part: string, value: unknown, maxDepth = maxInputDepth): string | null {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value, path: [] }]
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const { value: v, path } = next
    if (typeof v === 'string') {
      // The place is named only when there is a problem: naming every string cost more than checking it.
      if (v.includes(nul)) return nulProblem(placeName(part, path), v)
      continue
    }
    // A raw body (a PSA's push, kept as bytes for its signature) is not walked: nothing reads it as text
    // but the PSA's verifier.
    if (v === null || typeof v !== 'object' || Buffer.isBuffer(v)) continue
    // An object or array one level below its parent: the part itself is level 1.
    if (path.length + 1 > maxDepth) {
      return `${placeName(part, path)} nests deeper than ${maxDepth} levels of objects and arrays; at most ${maxDepth} are accepted.`
    }
    const entries: [string | number, unknown][] = Array.isArray(v)
      ? v.map((item, i) => [i, item])
      : Object.entries(v)
    // Pushed in reverse, so the first field is looked at first.
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, item] = entries[i]!
      if (typeof key === 'string' && key.includes(nul)) {
        return `${placeName(part, path)} has a field name that contains the NUL character (U+0000); it must not.`
      }
      stack.push({ value: item, path: [...path, key] })
    }
  }
  return null
}

/** Installs the checks for every route of the app. */
export function installIngressChecks(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    for (const [part, value] of [
      ['params', request.params],
      ['querystring', request.query],
      ['body', request.body],
    ] as const) {
      const problem = inputProblem(part, value)
      if (problem) throw new ApiError('VALIDATION_FAILED', problem)
    }
  })
}
