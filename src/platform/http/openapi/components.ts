// The named schemas of the OpenAPI document (components.schemas, docs/vendor-api.md#openapi-document).
// A route file states its TypeBox schemas once, inline; this table names some of them by where they
// appear, and every route that uses the same schema (the same object, or one built the same way) gets
// `$ref: '#/components/schemas/<name>'` instead of a copy. Validation never sees any of this: only the
// document's copy of a route schema is rewritten. A page of a named item (`Page(Item)` of
// src/platform/http/schemas.ts) is named `<Item>Page` without a line here.
import type { TSchema } from 'typebox'
import { FailureBody, Page } from '../schemas.js'
import { canonical, isObject, type Json, referring, schemaAt, subschemas } from './schema-walk.js'

export interface NamedAt {
  name: string
  /** The operation, as `METHOD /path` with `{param}` (the document's spelling). */
  at: string
  /** `body`, or the status code of a response. */
  part: string
  /** Below the part: see schemaAt (`data[]`, `|1`, `attemptLog[]`). */
  path?: string
}

/** Named wherever they appear, without a location: the shared schemas of src/platform/http/schemas.ts. */
const shared: Record<string, TSchema> = { Failure: FailureBody }

const synchronous = 'POST /api/oem-alerts-api/alert/sync'
const queued = 'POST /api/oem-alerts-api/alert'

export const namedSchemas: NamedAt[] = [
  // The alert calls
  { name: 'AlertRequest', at: synchronous, part: 'body' },
  { name: 'AlertData', at: synchronous, part: 'body', path: 'data' },
  { name: 'SyncAnswer', at: synchronous, part: '201' },
  { name: 'SyncFailure', at: synchronous, part: '404' },
  { name: 'WebhookAnswer', at: queued, part: '201' },
  { name: 'WebhookFailure', at: queued, part: '404' },
  { name: 'Ticket', at: 'GET /api/oem-alerts-api/alert', part: '200', path: 'data[]' },
  { name: 'TicketWithEvents', at: 'GET /api/oem-alerts-api/alert/{correlationId}', part: '200' },
  // Tokens and the vendor's setup
  { name: 'TokenRequest', at: 'POST /api/oauth/token', part: 'body' },
  { name: 'TokenAnswer', at: 'POST /api/oauth/token', part: '200' },
  { name: 'OAuthFailure', at: 'POST /api/oauth/token', part: '400' },
  { name: 'AccountInput', at: 'POST /api/vendor-api/organization/accounts', part: 'body', path: '|0' },
  { name: 'Account', at: 'GET /api/vendor-api/organization/accounts', part: '200', path: 'data[]' },
  { name: 'ServiceInput', at: 'POST /api/vendor-api/organization/services', part: 'body' },
  { name: 'Service', at: 'GET /api/vendor-api/organization/services', part: '200', path: 'data[]' },
  { name: 'IntegrationStatus', at: 'GET /api/vendor-api/status/mapping', part: '200' },
  { name: 'UsageCount', at: 'POST /api/vendor-api/service/{serviceId}/count', part: '201' },
  { name: 'ProductGroupCatalogue', at: 'GET /api/vendor-api/product-groups', part: '200' },
  { name: 'VendorIntegration', at: 'GET /api/oem-api/integration/list', part: '200', path: 'data[]' },
  { name: 'Rotation', at: 'GET /api/vendor-api/credentials', part: '200', path: 'clientSecret' },
  { name: 'VendorCredentials', at: 'GET /api/vendor-api/credentials', part: '200' },
  { name: 'VendorWebhook', at: 'GET /api/vendor-api/webhook', part: '200' },
  { name: 'VendorIntegrationView', at: 'GET /api/vendor-api/integrations', part: '200', path: 'data[]' },
  // Webhook deliveries (the operator's, the partner's and the vendor's views share the shape)
  { name: 'Delivery', at: 'GET /api/admin/deliveries/{id}', part: '200' },
  { name: 'DeliveryAttempt', at: 'GET /api/admin/deliveries/{id}', part: '200', path: 'attemptLog[]' },
  // The partner's API
  { name: 'Integration', at: 'GET /api/partner/integrations/{id}', part: '200' },
  { name: 'EffectiveProductGroups', at: 'GET /api/partner/integrations/{id}/product-groups', part: '200' },
  { name: 'Rule', at: 'GET /api/partner/integrations/{id}/rules', part: '200', path: 'data[]' },
  { name: 'PortalUser', at: 'GET /api/partner/users', part: '200', path: 'data[]' },
  { name: 'AuditEvent', at: 'GET /api/partner/events', part: '200', path: 'data[]' },
  // The operator's API
  { name: 'Vendor', at: 'GET /api/admin/vendors/{id}', part: '200' },
  { name: 'Partner', at: 'GET /api/admin/partners/{id}', part: '200' },
  { name: 'AdminIntegration', at: 'GET /api/admin/integrations/{id}', part: '200' },
  { name: 'AccessToken', at: 'GET /api/admin/vendors/{id}/tokens', part: '200', path: 'data[]' },
]

const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')

/** `METHOD /path` of a route, in the document's spelling. */
export const operationKey = (method: string, url: string) => `${method.toUpperCase()} ${openApiPath(url)}`

/** The body and response schemas of a route: what the document shows as request and answer content. */
export function contentSchemas(schema: Json | undefined): { part: string; schema: unknown }[] {
  if (!schema) return []
  const parts: { part: string; schema: unknown }[] = []
  if (schema.body !== undefined) parts.push({ part: 'body', schema: schema.body })
  if (isObject(schema.response))
    for (const [code, s] of Object.entries(schema.response)) parts.push({ part: code, schema: s })
  return parts
}

/**
 * The named schemas of one app: fed every route as it is added, resolved once the app is ready (the
 * document is built after that), then used to rewrite each route's schema for the document.
 */
export class NamedSchemas {
  /** components.schemas, filled by resolve(); the swagger options hold this very object. */
  readonly schemas: Record<string, unknown> = {}
  private readonly routes = new Map<string, Json>()
  private readonly byCanonical = new Map<string, string>()

  constructor(
    private readonly table: NamedAt[] = namedSchemas,
    private readonly extra: Record<string, TSchema> = {},
  ) {}

  see(method: string | string[], url: string, schema: unknown): void {
    if (!isObject(schema)) return
    for (const m of [method].flat()) this.routes.set(operationKey(m, url), schema)
  }

  /** Finds each named schema where the table says; a location no route has is skipped. */
  resolve(): void {
    const found: [string, Json][] = Object.entries({ ...shared, ...this.extra }) as [string, Json][]
    for (const entry of this.table) {
      const part = contentSchemas(this.routes.get(entry.at)).find((p) => p.part === entry.part)
      const schema = part && schemaAt(part.schema, entry.path)
      if (schema) found.push([entry.name, schema])
    }
    // A schema with an $id of its own is named by it (TypeBox's way of naming a schema).
    for (const schema of this.routes.values())
      for (const { schema: s } of contentSchemas(schema))
        for (const node of subschemas(s))
          if (typeof node.$id === 'string' && /^[A-Za-z][A-Za-z0-9_]*$/.test(node.$id))
            found.push([node.$id, node])
    const named = new Map<string, Json>()
    for (const [name, schema] of found) {
      // The first name of a schema wins; a name seen again with another schema is left out.
      if (named.has(name) || this.byCanonical.has(canonical(schema))) continue
      named.set(name, schema)
      this.byCanonical.set(canonical(schema), name)
    }
    // The pages some route answers, of a named item.
    const seen = new Set<string>()
    for (const schema of this.routes.values())
      for (const { schema: s } of contentSchemas(schema))
        for (const node of subschemas(s)) seen.add(canonical(node))
    for (const [name, schema] of [...named]) {
      const page = Page(schema as unknown as TSchema)
      if (seen.has(canonical(page)) && !this.byCanonical.has(canonical(page))) {
        named.set(`${name}Page`, page as unknown as Json)
        this.byCanonical.set(canonical(page), `${name}Page`)
      }
    }
    for (const [name, schema] of named) this.schemas[name] = referring(schema, this.nameOf, true)
  }

  /** The document's copy of a route schema: named schemas in its body and answers become references. */
  refer(schema: Json | undefined): Json | undefined {
    if (!schema) return schema
    const copy: Json = { ...schema }
    if (schema.body !== undefined) copy.body = referring(schema.body, this.nameOf)
    if (isObject(schema.response))
      copy.response = Object.fromEntries(
        Object.entries(schema.response).map(([code, s]) => [code, referring(s, this.nameOf)]),
      )
    return copy
  }

  private readonly nameOf = (s: Json): string | undefined => this.byCanonical.get(canonical(s))
}
