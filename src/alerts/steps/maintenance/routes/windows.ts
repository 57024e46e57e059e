// Partner API: an integration's maintenance windows (docs/partner-api.md#maintenance-windows), and the
// occurrences of every window in a time range (the dashboard's timeline).
import Type from 'typebox'
import type { Clock } from '../../../../platform/clock.js'
import type { Store } from '../../../../platform/db/store.js'
import type { App } from '../../../../platform/http/app-types.js'
import { orRefuse } from '../../../../platform/http/errors.js'
import { callers, operation } from '../../../../platform/http/openapi/operation-doc.js'
import { failures, IdParams } from '../../../../platform/http/schemas.js'
import { timeRange } from '../../../../platform/http/time-range.js'
import type { JobProducer } from '../../../../platform/queue/port.js'
import { type AuthHooks, type PartnerIntegrations, partnerId } from '../../../../tenants/index.js'
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
  partnerIntegrations: Pick<PartnerIntegrations, 'integration'>
}

export function registerMaintenanceWindows(app: App, s: MaintenanceWindowRoutesDeps): void {
  const windows = new MaintenanceWindows(s.store, s.clock, new MaintenanceJobs(s.queue, s.clock))
  const base = { onRequest: s.auth.partner }
  const meta = { tags: ['partner'], security: [{ partnerKey: [] }] }
  const path = '/api/partner/integrations/:id/maintenance-windows'
  const integrationOf = async (request: { params: { id: string } } & Parameters<typeof partnerId>[0]) =>
    orRefuse(await s.partnerIntegrations.integration(partnerId(request), request.params.id))

  app.get(
    path,
    {
      ...base,
      schema: {
        ...meta,
        summary: 'Maintenance windows, each with activeNow and nextStart',
        ...operation({
          id: 'listMaintenanceWindows',
          description: `Each window with activeNow, activeUntil, nextStart and how many alerts it holds. ${callers.partner}`,
        }),
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
        ...operation({
          id: 'createMaintenanceWindow',
          description: `One-off (startsAt, endsAt) or recurring (an RFC 5545 RRULE in an IANA time zone, a local startTime and a duration); mode suppress or hold; optionally scoped to accounts, product groups and alert types. ${callers.partner}`,
          body: {
            name: 'Sunday patching',
            mode: 'hold',
            recurrence: {
              rrule: 'FREQ=WEEKLY;BYDAY=SU',
              timeZone: 'Europe/Berlin',
              startTime: '01:00',
              durationMinutes: 240,
            },
          },
        }),
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
        ...operation({
          id: 'getMaintenanceWindow',
          description: `The window with activeNow and nextStart. ${callers.partner}`,
        }),
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
        ...operation({
          id: 'replaceMaintenanceWindow',
          description: `Replaces the definition; held alerts the window no longer holds are released. ${callers.partner}`,
          body: {
            name: 'Firewall swap',
            mode: 'suppress',
            startsAt: '2026-12-05T22:00:00Z',
            endsAt: '2026-12-06T02:00:00Z',
            scope: { accountIds: ['acme-001'] },
          },
        }),
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
        ...operation({
          id: 'listMaintenanceOccurrences',
          description: `For the dashboard's timeline: each occurrence (one-off, or a recurrence expanded in its time zone) of the windows of your integrations, or of integrationId, that overlaps since–until (at most 93 days), in start order; truncated when more than limit overlap. ${callers.partner}`,
        }),
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
        ...operation({
          id: 'deleteMaintenanceWindow',
          description: `The alerts it holds are released at once, through the rules. ${callers.partner}`,
        }),
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
