// The composition root: builds the Fastify app from the services and the explicit route list.
// It never listens; server.ts does. Tests build it and listen on port 0.
import formbody from '@fastify/formbody'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import { type TypeBoxTypeProvider, TypeBoxValidatorCompiler } from '@fastify/type-provider-typebox'
import Fastify, { type FastifyBaseLogger } from 'fastify'
import { v7 as uuidv7 } from 'uuid'
import type { App } from './http/app-types.js'
import { installErrorHandling } from './http/error-handler.js'
import { FailureBody } from './http/schemas.js'
import { routes } from './routes.js'
import type { Services } from './services.js'

export const bodyLimitBytes = 256 * 1024

/** Paths of fields that must never reach a log line. */
export const redactPaths = [
  'req.headers.authorization',
  'req.headers.cookie',
  '*.clientSecret',
  '*.client_secret',
  '*.organizationOemToken',
  '*.organization_oem_token',
  '*.apiKey',
  '*.privateKey',
  '*.password',
  '*.webhookSecret',
]

export async function buildApp(services: Services, logger: FastifyBaseLogger): Promise<App> {
  const app = Fastify({
    loggerInstance: logger,
    bodyLimit: bodyLimitBytes,
    genReqId: () => uuidv7(),
    requestIdHeader: false,
    routerOptions: { ignoreTrailingSlash: true },
    return503OnClosing: true,
  }).withTypeProvider<TypeBoxTypeProvider>()

  app.setValidatorCompiler(TypeBoxValidatorCompiler)
  app.decorateRequest('principal', null)
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id)
  })
  installErrorHandling(app)
  // Bodies are JSON (and form-encoded for the OAuth token endpoint); anything else is a 415.
  app.removeContentTypeParser('text/plain')
  app.addSchema(FailureBody)

  await app.register(formbody)
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'alertbridge',
        version: '0.1.0',
        description: 'Alert-to-ticket service: the vendor, partner and operator APIs.',
      },
      components: {
        securitySchemes: {
          vendorToken: { type: 'http', scheme: 'bearer', description: 'from POST /api/oauth/token' },
          partnerKey: { type: 'http', scheme: 'bearer', description: 'the partner API key' },
          adminToken: { type: 'http', scheme: 'bearer', description: 'the operator token' },
        },
      },
    },
  })
  await app.register(swaggerUi, { routePrefix: '/docs' })

  for (const register of routes) register(app, services)
  return app
}
