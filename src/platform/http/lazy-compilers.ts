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

/** The TypeBox validator compiler (the one the app uses), compiling on first use. */
export const lazyValidatorCompiler: typeof TypeBoxValidatorCompiler = onFirstUse(TypeBoxValidatorCompiler)

type SerializerFactory = ReturnType<typeof SerializerSelector>

/** Fastify's own serializer (fast-json-stringify) for `schemaController`, compiling on first use. */
export const lazySerializers: SerializerFactory = (externalSchemas, options) =>
  onFirstUse(SerializerSelector()(externalSchemas, options))
