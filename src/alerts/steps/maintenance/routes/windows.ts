// Partner API: an integration's maintenance windows (docs/partner-api.md#maintenance-windows), and the
// occurrences of every window in a time range (the dashboard's timeline).
import Type from 'typebox'
import type { Clock } from '../../../../platform/clock.js'
import type { Result } from '../../../../platform/core/result.js'
import type { Store } from '../../../../platform/db/store.js'
import type { App } from '../../../../platform/http/app-types.js'
import { orRefuse } from '../../../../platform/http/errors.js'
import { failures, IdParams } from '../../../../platform/http/schemas.js'
import { timeRange } from '../../../../platform/http/time-range.js'
import type { JobProducer } from '../../../../platform/queue/port.js'
import { type AuthHooks, partnerId } from '../../../../tenants/auth.js'
import type { Integration } from '../../../../tenants/integrations/integration.js'
import { MaintenanceJobs } from '../jobs.js'
import { maxOccurrences, Occurrences, OccurrencesQuery, WindowInput, WindowView } from '../schema.js'
import { MaintenanceWindows } from '../service.js'

const WindowParams = Type.Object({
  id: IdParams.properties.id,
  windowId: Type.String({ minLength: 1, maxLength: 64 }),
})

export interface MaintenanceWindowRoutesDeps {
  auth: Pick<AuthHooks, 'partner'>
  store: Store
  clock: Clock
  queue: JobProducer
  /** The partner's own integration, or INTEGRATION_NOT_FOUND (partner-api's PartnerSetup). */
  partnerSetup: { integration(partnerId: string, integrationId: string): Promise<Result<Integration>> }
}

export function registerMaintenanceWindows(app: App, s: MaintenanceWindowRoutesDeps): void {
  const windows = new MaintenanceWindows(s.store, s.clock, new MaintenanceJobs(s.queue, s.clock))
  const base = { onRequest: s.auth.partner }
  const meta = { tags: ['partner'], security: [{ partnerKey: [] }] }
  const path = '/api/partner/integrations/:id/maintenance-windows'
  const integrationOf = async (request: { params: { id: string } } & Parameters<typeof partnerId>[0]) =>
    orRefuse(await s.partnerSetup.integration(partnerId(request), request.params.id))

  app.get(
    path,
    {
      ...base,
      schema: {
        ...meta,
        summary: 'Maintenance windows, each with activeNow and nextStart',
        params: IdParams,
        response: { 200: Type.Object({ data: Type.Array(WindowView) }), ...failures(401, 404) },
      },
    },
    async (request) => ({ data: await windows.list(await integrationOf(request)) }),
  )

  app.post(
    path,
    {
      ...base,
      schema: {
        ...meta,
        summary: 'Add a maintenance window',
        params: IdParams,
        body: WindowInput,
        response: { 201: WindowView, ...failures(400, 401, 404, 409) },
      },
    },
    async (request, reply) => {
      const integration = await integrationOf(request)
      return reply.code(201).send(orRefuse(await windows.create(integration, request.body)))
    },
  )

  app.get(
    `${path}/:windowId`,
    {
      ...base,
      schema: {
        ...meta,
        summary: 'One maintenance window',
        params: WindowParams,
        response: { 200: WindowView, ...failures(401, 404) },
      },
    },
    async (request) => orRefuse(await windows.get(await integrationOf(request), request.params.windowId)),
  )

  app.put(
    `${path}/:windowId`,
    {
      ...base,
      schema: {
        ...meta,
        summary: 'Replace a maintenance window',
        params: WindowParams,
        body: WindowInput,
        response: { 200: WindowView, ...failures(400, 401, 404) },
      },
    },
    async (request) =>
      orRefuse(await windows.replace(await integrationOf(request), request.params.windowId, request.body)),
  )

  app.get(
    '/api/partner/maintenance-occurrences',
    {
      ...base,
      schema: {
        ...meta,
        summary: `The occurrences of your maintenance windows that overlap a range (default: the last 24 hours), at most ${maxOccurrences}`,
        querystring: OccurrencesQuery,
        response: { 200: Occurrences, ...failures(400, 401) },
      },
    },
    async (request) => {
      const { integrationId, limit = maxOccurrences, ...q } = request.query
      const range = timeRange(q)
      return orRefuse(
        await windows.occurrences(partnerId(request), {
          ...(integrationId !== undefined ? { integrationId } : {}),
          ...range,
          limit,
        }),
      )
    },
  )

  app.delete(
    `${path}/:windowId`,
    {
      ...base,
      schema: {
        ...meta,
        summary: 'Delete a maintenance window (what it holds is released at once)',
        params: WindowParams,
        response: { 204: Type.Null(), ...failures(401, 404) },
      },
    },
    async (request, reply) => {
      orRefuse(await windows.delete(await integrationOf(request), request.params.windowId))
      return reply.code(204).send(null)
    },
  )
}
