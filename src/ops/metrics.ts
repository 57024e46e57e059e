// Prometheus metrics in the text exposition format. No authentication (like the health checks):
// keep the port off the public internet, and no label carries a tenant id.

import type { Registry } from 'prom-client'
import Type from 'typebox'
import type { App } from '../platform/http/app-types.js'
import { operation } from '../platform/http/openapi/operation-doc.js'

export function registerMetrics(app: App, s: { metrics: Registry }): void {
  app.get(
    '/metrics',
    {
      schema: {
        tags: ['ops'],
        summary: 'Prometheus metrics (text exposition format)',
        ...operation({
          id: 'getMetrics',
          description: 'For Prometheus (docs/operations.md#metrics); no auth: expose it to the scraper only.',
        }),
        produces: ['text/plain'],
        response: { 200: Type.String({ description: 'Prometheus text exposition format 0.0.4' }) },
      },
    },
    async (_request, reply) => {
      const body = await s.metrics.metrics()
      return reply.type(s.metrics.contentType).send(body)
    },
  )
}
