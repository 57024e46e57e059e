// What the OpenAPI document says about an operation beyond its route's schema (docs/vendor-api.md#openapi-document):
// each route states it in its own schema, `...operation({ id, description, … })`, beside its summary;
// finish.ts takes it out of the document's copy and writes the operationId, the description and the
// examples. test/ops/openapi.test.ts fails for an API route without a description.

export interface OperationDoc {
  /** The operationId: camelCase, unique in the document (what a generated client names the call). */
  id: string
  /** What the call does beyond its summary: when to use it, what it changes, what to watch for. */
  description?: string
  /** An example request body (JSON), when one made from the schema would say too little. */
  body?: unknown
  /** Examples of answers, by status code. */
  answers?: Record<string, unknown>
  /** Descriptions of responses that say more than the status's own. */
  responses?: Record<string, string>
}

/** The route schema's key @fastify/swagger copies into the operation (an `x-` key), where finish.ts finds it. */
export const operationKey = 'x-operation'

declare module 'fastify' {
  interface FastifySchema {
    [operationKey]?: OperationDoc
  }
}

/** The route schema's fields that document its operation: spread them into the schema. */
export function operation(doc: OperationDoc): { [operationKey]: OperationDoc } {
  return { [operationKey]: doc }
}

/** Who may call an operation, by audience (the security schemes of document.ts), as its description ends. */
export const callers = {
  vendor: 'Bearer token from POST /api/oauth/token.',
  partner: 'Partner API key, or the portal session (a change also sends x-csrf-token).',
  portalAdmin: 'Portal admins only (a viewer gets 403); or the partner API key.',
  operator: 'Operator token (ADMIN_TOKEN).',
  operatorChange:
    'Operator token (ADMIN_TOKEN); the change is in the operator audit log (GET /api/admin/audit).',
} as const

/** The operationId of an operation without a doc: method and path in camelCase (`getPartnerUsersById`). */
export function derivedOperationId(method: string, path: string): string {
  const words = path
    .replace(/^\/api\//, '/')
    .split('/')
    .filter(Boolean)
    .flatMap((segment) => {
      const param = /^\{(.+)\}$/.exec(segment)
      return param ? ['by', ...param[1]!.split(/[^A-Za-z0-9]+/)] : segment.split(/[^A-Za-z0-9]+/)
    })
    .filter(Boolean)
  const camel = (w: string) => w[0]!.toUpperCase() + w.slice(1)
  return method.toLowerCase() + words.map(camel).join('')
}
