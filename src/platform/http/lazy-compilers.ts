// Each route's validators and response serializers, compiled when the route first needs them rather
// than when the app starts. Fastify compiles every schema of every route at start-up by default:
// with ~150 operations that is most of a start's CPU, although a process serves a few of them (a
// worker serves two; an api process its vendors' and partners' routes). Compiling on first use
// gives the same functions; the first request of a route pays its compile once (milliseconds).
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler'
import { TypeBoxValidatorCompiler } from '@fastify/type-provider-typebox'

/** `compile(route)`, run on the first call of the function it makes and kept. */
function onFirstUse<R, A extends unknown[], T>(compile: (route: R) => (...args: A) => T) {
  return (route: R) => {
    let compiled: ((...args: A) => T) | undefined
    return (...args: A): T => {
      compiled ??= compile(route)
      return compiled(...args)
    }
  }
}

const compileOnFirstUse = onFirstUse(TypeBoxValidatorCompiler)

/** What a plain optional string may say of itself without constraining its value. */
const wordsOnly = new Set(['type', 'description', 'title', 'examples'])
/** What an object schema may say beside its properties without constraining the headers. */
const objectWordsOnly = new Set(['type', 'properties', 'required', 'description'])

/**
 * A headers schema that only names optional strings, with no pattern, length or format (the
 * Idempotency-Key header every keyed route documents): it can refuse nothing, since every header
 * value Node parses is a string, and checking it cost each request a conversion walk of the schema.
 */
export function checksNothing(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null) return false
  const s = schema as { type?: unknown; properties?: unknown; required?: unknown }
  if (s.type !== 'object' || typeof s.properties !== 'object' || s.properties === null) return false
  if (Array.isArray(s.required) && s.required.length > 0) return false
  if (!Object.keys(s).every((k) => objectWordsOnly.has(k))) return false
  return Object.values(s.properties).every(
    (p: unknown) =>
      typeof p === 'object' &&
      p !== null &&
      (p as { type?: unknown }).type === 'string' &&
      Object.keys(p).every((k) => wordsOnly.has(k)),
  )
}

/**
 * The TypeBox validator compiler (the one the app uses), compiling on first use; a headers schema that
 * checks nothing (checksNothing) is not run at all.
 */
export const lazyValidatorCompiler: typeof TypeBoxValidatorCompiler = (route) =>
  route.httpPart === 'headers' && checksNothing(route.schema)
    ? (value: unknown) => ({ value })
    : compileOnFirstUse(route)

type SerializerFactory = ReturnType<typeof SerializerSelector>

/** Fastify's own serializer (fast-json-stringify) for `schemaController`, compiling on first use. */
export const lazySerializers: SerializerFactory = (externalSchemas, options) =>
  onFirstUse(SerializerSelector()(externalSchemas, options))
