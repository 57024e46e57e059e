// Partner API: tickets, the audit trail and its success/failure metrics, scoped to the partner.
import Type from 'typebox'
import {
  CorrelationId,
  EventView,
  eventView,
  getTicket,
  listTickets,
  TicketNames,
  TicketView,
  TicketWithHistory,
  withTicketNames,
} from '../../alerts/index.js'
import type { Clock } from '../../platform/clock.js'
import type { Store } from '../../platform/db/store.js'
import type { App } from '../../platform/http/app-types.js'
import { ApiError, orRefuse } from '../../platform/http/errors.js'
import { callers, operation } from '../../platform/http/openapi/operation-doc.js'
import { decodeCursor, page } from '../../platform/http/pagination.js'
import { Cursor, failures, Instant, isoInstant, Limit, Page } from '../../platform/http/schemas.js'
import { TimeRangeQuery, timeRange } from '../../platform/http/time-range.js'
import type { PsaRegistry } from '../../psa/index.js'
import { type AuthHooks, type PsaLookups, PsaNames, partnerId } from '../../tenants/index.js'

const IntegrationFilter = Type.Optional(Type.String({ maxLength: 64 }))

const PartnerTicketRow = Type.Object({ ...TicketView.properties, ...TicketNames.properties })
const PartnerTicket = Type.Object({
  ...TicketWithHistory.properties,
  ...TicketNames.properties,
  psaTicketUrl: Type.Union([Type.String(), Type.Null()], {
    description:
      "the ticket's page in your PSA's web app, where the PSA has ticket URLs (docs/psa/<kind>.md); null otherwise",
  }),
})
const EventStatus = Type.Union([Type.Literal('success'), Type.Literal('suppressed'), Type.Literal('failed')])

const Counts = Type.Object({ success: Type.Integer(), suppressed: Type.Integer(), failed: Type.Integer() })
const Metrics = Type.Object({
  since: Type.String(),
  until: Type.String(),
  bucket: Type.Union([Type.Literal('hour'), Type.Literal('day')]),
  totals: Type.Object({
    ...Counts.properties,
    total: Type.Integer(),
    tests: Type.Integer({
      description:
        "test alerts' events (docs/partner-api.md#test-alerts), counted apart: in no other count here",
    }),
  }),
  byEvent: Type.Array(Type.Object({ event: Type.String(), status: EventStatus, count: Type.Integer() })),
  series: Type.Array(
    Type.Object({
      start: Type.String(),
      ...Counts.properties,
      events: Type.Record(Type.String(), Type.Integer(), {
        description: 'the bucket’s counts by event name (e.g. Ticket Created)',
      }),
    }),
    { description: 'buckets with events, oldest first; buckets without any are left out' },
  ),
})

export interface PartnerActivityRoutesDeps {
  auth: Pick<AuthHooks, 'partner'>
  store: Store
  clock: Clock
  psa: Pick<PsaRegistry, 'connect'>
  psaConnections: PsaLookups
}

export function registerPartnerActivity(app: App, s: PartnerActivityRoutesDeps): void {
  const base = { onRequest: s.auth.partner }
  const meta = { tags: ['partner'], security: [{ partnerKey: [] }] }
  const psaNames = new PsaNames(s.psaConnections)

  app.get(
    '/api/partner/tickets',
    {
      ...base,
      schema: {
        ...meta,
        summary:
          'Your tickets, newest first; filtered by status, account, product group, alert type, creation time and a search of title and correlationId',
        ...operation({ id: 'listPartnerTickets', description: `Paged with \`cursor\`. ${callers.partner}` }),
        querystring: Type.Object({
          integrationId: IntegrationFilter,
          status: Type.Optional(Type.Union([Type.Literal('open'), Type.Literal('closed')])),
          accountId: Type.Optional(Type.String({ maxLength: 128 })),
          productGroup: Type.Optional(Type.String({ maxLength: 128 })),
          alertType: Type.Optional(Type.String({ maxLength: 128 })),
          ...TimeRangeQuery,
          search: Type.Optional(
            Type.String({
              minLength: 1,
              maxLength: 128,
              description: 'part of the title or the correlationId, case ignored',
            }),
          ),
          cursor: Type.Optional(Cursor),
          limit: Type.Optional(Limit),
        }),
        response: { 200: Page(PartnerTicketRow), ...failures(400, 401) },
      },
    },
    async (request) => {
      const { integrationId, since, until, from, to, ...q } = request.query
      const owner = partnerId(request)
      const scope = { partnerId: owner, ...(integrationId ? { integrationIds: [integrationId] } : {}) }
      const found = orRefuse(
        await listTickets(s.store, scope, {
          ...q,
          ...timeRange({ since, until, from, to }),
          limit: q.limit ?? 50,
        }),
      )
      const partner = found.data.length ? await s.store.partners.findById(owner) : null
      return { ...found, data: await withTicketNames(s.store, psaNames, partner, found.data) }
    },
  )

  app.get(
    '/api/partner/tickets/:correlationId',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'A ticket with its event history',
        ...operation({
          id: 'getPartnerTicket',
          description: `409 when the correlationId names tickets of several integrations: name one with ?integrationId=. ${callers.partner}`,
        }),
        params: Type.Object({ correlationId: CorrelationId }),
        querystring: Type.Object({ integrationId: IntegrationFilter }),
        response: { 200: PartnerTicket, ...failures(400, 401, 404, 409) },
      },
    },
    async (request) => {
      const owner = partnerId(request)
      const ticket = orRefuse(
        await getTicket(
          s.store,
          { partnerId: owner },
          request.params.correlationId,
          request.query.integrationId,
        ),
      )
      const partner = await s.store.partners.findById(owner)
      // Only through the connection the ticket was made in: a partner that moved to another PSA
      // kind has no link into the old one.
      const same = partner && partner.psa.kind === ticket.psaKind
      const connected = same && ticket.psaTicketId ? s.psa.connect(partner.id, partner.psa) : null
      const psaTicketUrl =
        connected?.ok && ticket.psaTicketId ? connected.client.ticketUrl(ticket.psaTicketId) : null
      const named = (await withTicketNames(s.store, psaNames, partner, [ticket]))[0]!
      return { ...named, psaTicketUrl }
    },
  )

  app.get(
    '/api/partner/events',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'The audit trail, newest first',
        ...operation({
          id: 'listPartnerEvents',
          description: `What every alert did, with its stable error code where it failed; filter and page. ${callers.partner}`,
        }),
        querystring: Type.Object({
          integrationId: IntegrationFilter,
          correlationId: Type.Optional(Type.String({ maxLength: 128 })),
          status: Type.Optional(EventStatus),
          event: Type.Optional(Type.String({ maxLength: 64 })),
          since: Type.Optional(Instant('events at or after')),
          until: Type.Optional(Instant('events before')),
          cursor: Type.Optional(Cursor),
          limit: Type.Optional(Limit),
        }),
        response: { 200: Page(EventView), ...failures(400, 401) },
      },
    },
    async (request) => {
      const { cursor, limit = 50, since, until, ...filters } = request.query
      const rows = await s.store.events.list({
        ...filters,
        since: since && isoInstant(since),
        until: until && isoInstant(until),
        partnerId: partnerId(request),
        beforeId: decodeCursor(cursor),
        limit: limit + 1,
      })
      const result = page(rows, limit, (e) => e.messageId)
      return { data: result.data.map(eventView), nextCursor: result.nextCursor }
    },
  )

  app.get(
    '/api/partner/metrics',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'Counts of events by status and name, in hourly or daily buckets (default: last 24 hours)',
        ...operation({
          id: 'getPartnerMetrics',
          description: `For the dashboard's charts. ${callers.partner}`,
        }),
        querystring: Type.Object({
          integrationId: IntegrationFilter,
          since: Type.Optional(Instant('counts from (default: 24 hours before until)')),
          until: Type.Optional(Instant('counts until (default: now)')),
          from: Type.Optional(Instant('the same as since')),
          to: Type.Optional(Instant('the same as until')),
          bucket: Type.Optional(Type.Union([Type.Literal('hour'), Type.Literal('day')])),
        }),
        response: { 200: Metrics, ...failures(400, 401) },
      },
    },
    async (request) => {
      const q = request.query
      const range = timeRange(q)
      const until = range.until ? new Date(range.until) : s.clock()
      const since = range.since ? new Date(range.since) : new Date(until.getTime() - 24 * 3600_000)
      if (since >= until) throw new ApiError('VALIDATION_FAILED', 'since must be before until.')
      const bucket = q.bucket ?? 'hour'
      const rows = await s.store.events.counts({
        partnerId: partnerId(request),
        integrationId: q.integrationId,
        since: since.toISOString(),
        until: until.toISOString(),
        bucketChars: bucket === 'hour' ? 13 : 10,
      })
      const totals = { success: 0, suppressed: 0, failed: 0, total: 0, tests: 0 }
      const byEvent = new Map<
        string,
        { event: string; status: (typeof rows)[number]['status']; count: number }
      >()
      const series = new Map<
        string,
        { start: string; success: number; suppressed: number; failed: number; events: Record<string, number> }
      >()
      for (const r of rows) {
        if (r.test) {
          totals.tests += r.count
          continue
        }
        totals[r.status] += r.count
        totals.total += r.count
        const key = `${r.event}\u0000${r.status}`
        const e = byEvent.get(key) ?? { event: r.event, status: r.status, count: 0 }
        e.count += r.count
        byEvent.set(key, e)
        const start = bucket === 'hour' ? `${r.bucket}:00:00.000Z` : `${r.bucket}T00:00:00.000Z`
        const b = series.get(start) ?? { start, success: 0, suppressed: 0, failed: 0, events: {} }
        b[r.status] += r.count
        b.events[r.event] = (b.events[r.event] ?? 0) + r.count
        series.set(start, b)
      }
      return {
        since: since.toISOString(),
        until: until.toISOString(),
        bucket,
        totals,
        byEvent: [...byEvent.values()].sort((a, b) => b.count - a.count),
        series: [...series.values()],
      }
    },
  )
}
