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

/** A value still to look at: where it is (its parent's place and its key), and how deep. */
interface Place {
  value: unknown
  parent: Place | null
  key: string | number
  /** Objects and arrays above it; the part itself is at 0. */
  depth: number
}

/**
 * A JSON Pointer-like name of a place in the request, e.g. `body/data/title`. Built only when there is
 * a problem: each value keeps its parent, not a copy of its whole path (copying every value's path
 * cost more than checking it).
 */
function placeName(part: string, place: Place): string {
  const path: (string | number)[] = []
  for (let p: Place | null = place; p?.parent; p = p.parent) path.push(p.key)
  const shown = path.reverse().map((p) => String(p).replaceAll('~', '~0').replaceAll('/', '~1'))
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
  const stack: Place[] = [{ value, parent: null, key: '', depth: 0 }]
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const v = next.value
    if (typeof v === 'string') {
      if (v.includes(nul)) return nulProblem(placeName(part, next), v)
      continue
    }
    // A raw body (a PSA's push, kept as bytes for its signature) is not walked: nothing reads it as text
    // but the PSA's verifier.
    if (v === null || typeof v !== 'object' || Buffer.isBuffer(v)) continue
    // An object or array one level below its parent: the part itself is level 1.
    if (next.depth + 1 > maxDepth) {
      return `${placeName(part, next)} nests deeper than ${maxDepth} levels of objects and arrays; at most ${maxDepth} are accepted.`
    }
    const depth = next.depth + 1
    // Pushed in reverse, so the first field is looked at first.
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], parent: next, key: i, depth })
      continue
    }
    const keys = Object.keys(v)
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i]!
      if (key.includes(nul)) {
        return `${placeName(part, next)} has a field name that contains the NUL character (U+0000); it must not.`
      }
      stack.push({ value: (v as Record<string, unknown>)[key], parent: next, key, depth })
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
