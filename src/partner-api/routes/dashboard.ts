// What the portal's overview and dashboard read that the other partner routes do not answer (issue
// 13): every integration with its vendor and its last 24 hours in counts, and the most frequent
// causes of failure with a few examples each. Both are reads of the audit trail, scoped to the partner.
import Type, { type Static } from 'typebox'
import type { Clock } from '../../platform/clock.js'
import type { EventStatus } from '../../platform/core/types.js'
import type { Store } from '../../platform/db/store.js'
import type { App } from '../../platform/http/app-types.js'
import { callers, operation } from '../../platform/http/openapi/operation-doc.js'
import { decodeKeyCursor, pageByKey } from '../../platform/http/pagination.js'
import { failures, KeyCursor, LongLimit, Nullable } from '../../platform/http/schemas.js'
import { TimeRangeQuery, timeRange } from '../../platform/http/time-range.js'
import { type AuthHooks, IntegrationView, integrationView, partnerId } from '../../tenants/index.js'

const Last24h = Type.Object({
  created: Type.Integer({ description: 'Ticket Created' }),
  appended: Type.Integer({ description: 'Ticket Updated (an alert added to an open ticket)' }),
  closed: Type.Integer({ description: 'Ticket Closed' }),
  suppressed: Type.Integer({ description: 'every event with status suppressed' }),
  failed: Type.Integer({ description: 'every event with status failed' }),
  tests: Type.Integer({
    description:
      "test alerts' events (docs/partner-api.md#test-alerts), counted apart: in no other count here",
  }),
})
type Last24h = Static<typeof Last24h>

const OverviewItem = Type.Object({
  ...IntegrationView.properties,
  vendorName: Type.String(),
  last24h: Last24h,
})

const Overview = Type.Object({
  since: Type.String({ description: 'the counts are of events at or after this time' }),
  until: Type.String(),
  data: Type.Array(OverviewItem),
  nextCursor: Nullable(Type.String()),
})

const Example = Type.Object({
  messageId: Type.String(),
  integrationId: Type.String(),
  correlationId: Nullable(
    Type.String({ description: 'open the ticket with GET /api/partner/tickets/{correlationId}' }),
  ),
  detail: Nullable(Type.String()),
  createdAt: Type.String(),
})

const FailureCauses = Type.Object({
  since: Type.String(),
  until: Type.String(),
  data: Type.Array(
    Type.Object({
      event: Type.String({ description: 'e.g. Failed To Create Ticket' }),
      error: Nullable(
        Type.String({
          description: 'the machine code, e.g. ACCOUNT_NOT_MAPPED; null on events older than it',
        }),
      ),
      count: Type.Integer(),
      lastSeenAt: Type.String(),
      detail: Nullable(Type.String({ description: 'the detail of the newest such failure' })),
      examples: Type.Array(Example, { description: 'the newest few, newest first' }),
    }),
  ),
})

const dayMs = 24 * 3600_000
const examplesPerCause = 3

function tally(rows: { event: string; status: EventStatus; test: boolean; count: number }[]): Last24h {
  const t = { created: 0, appended: 0, closed: 0, suppressed: 0, failed: 0, tests: 0 }
  for (const r of rows) {
    if (r.test) t.tests += r.count
    else if (r.status === 'failed') t.failed += r.count
    else if (r.status === 'suppressed') t.suppressed += r.count
    else if (r.event === 'Ticket Created') t.created += r.count
    else if (r.event === 'Ticket Updated') t.appended += r.count
    else if (r.event === 'Ticket Closed') t.closed += r.count
  }
  return t
}

export interface PartnerDashboardRoutesDeps {
  auth: Pick<AuthHooks, 'partner'>
  store: Store
  clock: Clock
}

export function registerPartnerDashboard(app: App, s: PartnerDashboardRoutesDeps): void {
  const base = { onRequest: s.auth.partner }
  const meta = { tags: ['partner'], security: [{ partnerKey: [] }] }

  app.get(
    '/api/partner/overview',
    {
      ...base,
      schema: {
        ...meta,
        summary:
          'Your integrations with their vendor’s name and the last 24 hours in counts (created, appended, closed, suppressed, failed), paged like GET /api/partner/integrations',
        ...operation({
          id: 'getPartnerOverview',
          description: `For the dashboard's list. ${callers.partner}`,
        }),
        querystring: Type.Object({ limit: Type.Optional(LongLimit), cursor: Type.Optional(KeyCursor) }),
        response: { 200: Overview, ...failures(400, 401) },
      },
    },
    async (request) => {
      const { limit = 500, cursor } = request.query
      const partner = partnerId(request)
      const rows = await s.store.integrations.list(
        { partnerId: partner },
        { after: decodeKeyCursor(cursor, 2), limit: limit + 1 },
      )
      const { data, nextCursor } = pageByKey(rows, limit, (i) => [i.createdAt, i.id])
      // Up to and including now: `until` is exclusive.
      const until = new Date(s.clock().getTime() + 1)
      const since = new Date(until.getTime() - dayMs)
      const [names, counts] = await Promise.all([
        s.store.vendors.names([...new Set(data.map((i) => i.vendorId))]),
        s.store.events.countsByIntegration(
          partner,
          data.map((i) => i.id),
          since.toISOString(),
          until.toISOString(),
        ),
      ])
      return {
        since: since.toISOString(),
        until: until.toISOString(),
        data: data.map((i) => ({
          ...integrationView(i),
          vendorName: names.get(i.vendorId) ?? '',
          last24h: tally(counts.filter((c) => c.integrationId === i.id)),
        })),
        nextCursor,
      }
    },
  )

  app.get(
    '/api/partner/failures',
    {
      ...base,
      schema: {
        ...meta,
        summary:
          'The most frequent causes of failure (event name and machine code) with counts and the newest examples (default: the last 24 hours)',
        ...operation({
          id: 'listPartnerFailures',
          description: `Grouped by cause, with what to do about each. ${callers.partner}`,
        }),
        querystring: Type.Object({
          integrationId: Type.Optional(Type.String({ maxLength: 64 })),
          ...TimeRangeQuery,
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 10, description: 'causes' })),
        }),
        response: { 200: FailureCauses, ...failures(400, 401) },
      },
    },
    async (request) => {
      const { integrationId, limit = 10, ...q } = request.query
      const range = timeRange(q)
      // By default up to and including now (`until` is exclusive).
      const until = range.until ?? new Date(s.clock().getTime() + 1).toISOString()
      const since = range.since ?? new Date(Date.parse(until) - dayMs).toISOString()
      const scope = { partnerId: partnerId(request), integrationId, since, until }
      if (since >= until) return { since, until, data: [] }
      const causes = await s.store.events.failureCauses(scope, limit)
      const data = await Promise.all(
        causes.map(async (c) => {
          const examples = await s.store.events.failureExamples(
            { ...scope, event: c.event, error: c.error },
            examplesPerCause,
          )
          return {
            ...c,
            detail: examples[0]?.detail ?? null,
            examples: examples.map((e) => ({
              messageId: e.messageId,
              integrationId: e.integrationId,
              correlationId: e.correlationId,
              detail: e.detail,
              createdAt: e.createdAt,
            })),
          }
        }),
      )
      return { since, until, data }
    },
  )
}
