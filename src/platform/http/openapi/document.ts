// The OpenAPI document (docs/vendor-api.md#openapi-document), served at /openapi.json and /docs/json, with
// the reference pages at /docs. @fastify/swagger builds it from the routes' TypeBox schemas; what
// generators need beyond those is added here, centrally: named schemas (components.ts), the operationIds,
// descriptions and examples each route states in its schema with operation({...}) (operation-doc.ts),
// described responses with their headers (responses.ts), the token endpoint's forms (token.ts). The composition
// root passes the parts that live elsewhere (the webhooks section, more named schemas).
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifySchema } from 'fastify'
import type { TSchema } from 'typebox'
import type { App } from '../app-types.js'
import { NamedSchemas, namedSchemas } from './components.js'
import { finishDocument } from './finish.js'
import { registerGuide } from './guide.js'
import type { Json } from './schema-walk.js'
import { vendorDocument } from './vendor-document.js'

export interface OpenApiParts {
  /** PUBLIC_URL: the document's server; without it a relative `/` (the address the document came from). */
  publicUrl: string | null
  /** The `webhooks` section (OpenAPI 3.1): the requests the service sends. */
  webhooks?: Record<string, unknown>
  /** More named schemas (components.schemas), e.g. the bodies the webhooks section refers to. */
  schemas?: Record<string, TSchema>
}

export const securitySchemes = {
  vendorToken: { type: 'http', scheme: 'bearer', description: 'from POST /api/oauth/token' },
  clientBasic: {
    type: 'http',
    scheme: 'basic',
    description:
      'POST /api/oauth/token only: client_id and client_secret, each form-urlencoded, as HTTP Basic (RFC 6749 §2.3.1)',
  },
  partnerKey: { type: 'http', scheme: 'bearer', description: 'the partner API key' },
  adminToken: { type: 'http', scheme: 'bearer', description: 'the operator token' },
  partnerSession: {
    type: 'apiKey',
    in: 'cookie',
    name: 'alertbridge_session',
    description:
      'the partner portal session from POST /api/partner/session; a change also needs the x-csrf-token header',
  },
} as const

const tags = [
  {
    name: 'alerts',
    description: 'Alerts from a vendor become tickets in the partner’s PSA (docs/contract.md).',
  },
  { name: 'vendor', description: 'The vendor’s token, setup and self-service calls (docs/vendor-api.md).' },
  { name: 'partner', description: 'The MSP partner’s API and portal (docs/partner-api.md).' },
  { name: 'admin', description: 'The operator’s API (docs/operations.md).' },
  { name: 'psa push', description: 'Where PSAs push ticket changes (docs/psa/sync.md).' },
  { name: 'ops', description: 'Health, readiness and metrics (docs/operations.md).' },
]

export async function registerOpenApi(app: App, parts: OpenApiParts): Promise<void> {
  const named = new NamedSchemas(namedSchemas, parts.schemas)
  app.addHook('onRoute', (route) => named.see(route.method, route.url, route.schema))
  // Every route is added by now, each with its final schema; the document is built after this.
  app.addHook('onReady', async () => named.resolve())
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'alertbridge',
        version: '0.1.0',
        description:
          'Alert-to-ticket service: the vendor, partner and operator APIs. Every answer carries x-request-id; errors carry a stable code (`error`). Start with the vendor guide at /docs/vendors (credentials to a verified webhook, retries, idempotency, signatures, the event catalogue); the webhooks section lists every event.',
      },
      servers: [
        parts.publicUrl
          ? { url: parts.publicUrl, description: 'this installation (PUBLIC_URL)' }
          : { url: '/', description: 'the address this document was fetched from' },
      ],
      tags,
      components: { securitySchemes, schemas: named.schemas },
      ...(parts.webhooks ? { webhooks: parts.webhooks } : {}),
    } as Record<string, unknown>,
    // Paths as the routes spell them, whatever path PUBLIC_URL has.
    stripBasePath: false,
    transform: ({ schema, url }) => ({ schema: named.refer(schema as Json) as FastifySchema, url }),
    transformObject: (built) =>
      'openapiObject' in built ? (finishDocument(built.openapiObject as Json) as never) : built.swaggerObject,
  })
  await app.register(swaggerUi, { routePrefix: '/docs' })
  // The guides beside the reference: /docs/vendors and every page of docs/ (guide.ts).
  registerGuide(app)
  // The document itself where generators and people look for it first (also at /docs/json).
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger())
  // The vendor's part of it (vendor-document.ts), cut once, on first request, as the whole is built.
  const guide = `${parts.publicUrl?.replace(/\/+$/, '') ?? ''}/docs/vendors.md`
  let vendor: Json | undefined
  app.get('/openapi/vendor.json', { schema: { hide: true } }, async () => {
    vendor ??= vendorDocument(app.swagger() as unknown as Json, guide)
    return vendor
  })
}
