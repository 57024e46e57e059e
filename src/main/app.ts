// Builds the Fastify app from the services: the hooks every route shares, then each module's routes.
// It never listens; server.ts does. Tests build it and listen on port 0.
import { randomUUID } from 'node:crypto'
import formbody from '@fastify/formbody'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Fastify, { type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify'
import { alertFailureRenderers } from '../alerts/index.js'
import { portalPages } from '../partner-api/index.js'
import type { App } from '../platform/http/app-types.js'
import {
  clientFailure,
  frameworkFailure,
  installErrorHandling,
  maxParamLength,
} from '../platform/http/error-handler.js'
import { installIdempotency } from '../platform/http/idempotency.js'
import { installIngressChecks } from '../platform/http/ingress.js'
import { lazySerializers, lazyValidatorCompiler } from '../platform/http/lazy-compilers.js'
import { registerOpenApi } from '../platform/http/openapi/document.js'
import { FailureBody } from '../platform/http/schemas.js'
import { installUtf8Check } from '../platform/http/utf8.js'
import { vendorIdempotency } from '../tenants/index.js'
import { openApiWebhooks, webhookSchemas } from '../webhooks/index.js'
import type { Services } from './services.js'

export const bodyLimitBytes = 256 * 1024
/** Longer than any id a schema takes (at most 128), so a too-long id gets the schema's 400 naming it. */

/** Paths of fields that must never reach a log line. */
export const redactPaths = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-csrf-token"]',
  'res.headers["set-cookie"]',
  '*.clientSecret',
  '*.client_secret',
  '*.organizationOemToken',
  '*.organization_oem_token',
  '*.apiKey',
  '*.privateKey',
  '*.password',
  '*.secret',
  '*.apiToken',
  '*.webhookSecret',
  '*.inviteToken',
  '*.csrfToken',
]

export async function buildApp(services: Services, logger: FastifyBaseLogger): Promise<App> {
  const app = Fastify({
    loggerInstance: logger,
    bodyLimit: bodyLimitBytes,
    // Request ids only need to be unique; randomUUID is several times cheaper than a UUIDv7.
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength },
    // The router's refusals (bad percent-encoding, an overlong parameter) in the failure envelope.
    frameworkErrors: frameworkFailure(maxParamLength),
    // Requests that are not HTTP (a NUL in a header, headers over 16 KiB), in the envelope too.
    clientErrorHandler: clientFailure,
    return503OnClosing: true,
    // Which proxies' X-Forwarded-For and X-Forwarded-Proto are believed (the sign-in throttle's client
    // address, the session cookie's Secure flag).
    trustProxy: services.config.trustProxy,
    // Fastify's two lines per request at info are the hot path's biggest log cost
    // (docs/decisions/speed/logs.md): a request is logged once it is answered, at debug, or at info when it
    // was refused or failed.
    disableRequestLogging: true,
    // Schemas compile on a route's first use, not all at start (src/platform/http/lazy-compilers.ts).
    schemaController: { compilersFactory: { buildSerializer: lazySerializers } },
  }).withTypeProvider<TypeBoxTypeProvider>()

  app.addHook('onResponse', (request, reply, done) => {
    const line = { req: request, res: reply, responseTime: reply.elapsedTime }
    if (reply.statusCode >= 400) request.log.info(line, 'request completed')
    else request.log.debug(line, 'request completed')
    done()
  })

  app.setValidatorCompiler(lazyValidatorCompiler)
  app.decorateRequest('principal', null)
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id)
    done(null, payload)
  })
  // The webhook strategy previews answers from a short-lived copy of the configuration; a change made
  // through this process's API is seen by its next alert, and by other processes' once the notice reaches
  // them (docs/decisions/scale-out/configuration-notices.md). Only routes that can change configuration get
  // the hook (not alerts, not tokens, not reads, not a PSA's pushes, which change tickets), so the
  // alert path pays nothing and a PSA pushing our own writes back does not empty the caches.
  const clearPreviewCache = (_request: unknown, _reply: unknown, done: () => void) => {
    services.notices.publish({ kind: 'configuration' })
    done()
  }
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat()
    const url = route.url ?? ''
    if (
      methods.some((m) => m !== 'GET' && m !== 'HEAD') &&
      !url.startsWith('/api/oem-alerts-api/') &&
      !url.startsWith('/api/oauth/') &&
      !url.startsWith('/api/psa-push/')
    ) {
      route.onResponse = [...[route.onResponse ?? []].flat(), clearPreviewCache]
    }
  })
  // Fastify answers 400 for any parameter, query or body that fails its schema; every route with
  // such input documents that 400 in the failure shape without each route having to list it.
  app.addHook('onRoute', (route) => {
    const schema = route.schema
    if (!schema?.response || typeof schema.response !== 'object') return
    if ((schema.params || schema.querystring || schema.body) && !('400' in schema.response)) {
      schema.response = { ...schema.response, 400: FailureBody }
    }
  })
  // Every route that takes the partner API key takes the portal's session cookie too
  // (docs/partner-api.md#portal-users-and-sessions): the OpenAPI document says so and lists the 403 a
  // session can get (CSRF, a viewer's change), and a successful request keeps its session from going idle.
  const partnerAuth = services.tenants.auth.partner
  const touchSession = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    // A session that could not be marked seen idles out a minute sooner; the answer stands.
    await services.tenants.auth
      .touchSession(request, reply)
      .catch((err) => request.log.warn({ err }, 'portal session: could not record the request'))
    return payload
  }
  app.addHook('onRoute', (route) => {
    if (![route.onRequest ?? []].flat().includes(partnerAuth)) return
    route.onSend = [...[route.onSend ?? []].flat(), touchSession]
    const schema = route.schema
    if (schema?.security && !schema.security.some((s) => 'partnerSession' in s))
      schema.security = [...schema.security, { partnerSession: [] }]
    if (schema?.response && typeof schema.response === 'object' && !('403' in schema.response))
      schema.response = { ...schema.response, 403: FailureBody }
  })
  // Idempotency-Key on the alert calls and the vendor API's changes (docs/vendor-api.md#idempotency-keys),
  // after the hooks above so that its OpenAPI additions see each route's 400.
  installIdempotency(
    app,
    vendorIdempotency({
      store: services.store,
      clock: services.clock,
      vendors: services.store.vendors,
      psaTimeoutMs: services.config.psaTimeoutMs,
    }),
  )
  // Unmatched GETs outside the API are the partner portal's pages (web/dist), before the 404.
  installErrorHandling(
    app,
    { ...alertFailureRenderers, oauth: services.vendorApi.oauthFailure },
    portalPages(app),
  )
  // No NUL anywhere and no body nested deeper than the limit, before any schema or lookup
  // (docs/decisions/hostile-input/no-nul.md, docs/decisions/hostile-input/nesting-limit.md).
  installIngressChecks(app)
  // JSON bodies that are not UTF-8 are refused, naming the field (docs/decisions/hostile-input/invalid-utf8.md).
  installUtf8Check(app)
  // Bodies are JSON (and form-encoded for the OAuth token endpoint); anything else is a 415.
  app.removeContentTypeParser('text/plain')
  await app.register(formbody)
  // The OpenAPI document at /openapi.json and /docs/json, the reference pages at /docs.
  await registerOpenApi(app, {
    publicUrl: services.config.psaSync.publicUrl,
    webhooks: openApiWebhooks(),
    schemas: webhookSchemas,
  })

  // Where PSAs push to and previews link to when PUBLIC_URL is not set: the address the service listens on.
  app.addHook('onListen', async () => {
    const address = app.server.address()
    if (typeof address !== 'object' || !address) return
    const host = ['0.0.0.0', '::'].includes(address.address) ? '127.0.0.1' : address.address
    services.address.listeningAt(`http://${host.includes(':') ? `[${host}]` : host}:${address.port}`)
  })
  // A worker process serves only health checks and metrics (the ops module's); api and all serve every
  // module's routes.
  for (const register of services.config.role === 'worker' ? services.ops.routes : services.routes)
    register(app)
  return app
}
