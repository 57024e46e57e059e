// Operator API: GET /api/admin/audit, the operator audit log
// (docs/decisions/credentials/operator-audit-log.md): every operator write, and every tenant's rotation of
// its own credentials, newest first, paged like the other lists.
import Type from 'typebox'
import type { Store } from '../../platform/db/store.js'
import type { App } from '../../platform/http/app-types.js'
import { ApiError } from '../../platform/http/errors.js'
import { callers, operation } from '../../platform/http/openapi/operation-doc.js'
import { decodeCursor, page } from '../../platform/http/pagination.js'
import { Cursor, failures, Limit, Nullable, Page } from '../../platform/http/schemas.js'
import type { AuthHooks } from '../../tenants/index.js'
import { actorKinds, auditActions, auditTargetTypes } from '../../tenants/index.js'

const AuditEntryView = Type.Object({
  id: Type.String(),
  at: Type.String(),
  actor: Type.Object({
    kind: Type.Enum(actorKinds),
    id: Type.String({
      description:
        'a stable name of the credential used, never the credential: op_… for the admin token, token:<id> for a vendor access token, partner:<id> for a partner API key',
    }),
    requestId: Nullable(
      Type.String({ description: 'the x-request-id of the request, to find it in the logs' }),
    ),
  }),
  action: Type.Enum(auditActions),
  targetType: Type.Enum(auditTargetTypes),
  targetId: Type.String({ description: "'*' for an action on every vendor's deliveries" }),
  summary: Type.Record(Type.String(), Type.Unknown(), { description: 'what changed, without any secret' }),
})

/** A date-time the schema accepts but Date cannot hold (a leap second) is a 400, not a 500. */
function instant(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined
  const time = Date.parse(value)
  if (Number.isNaN(time))
    throw new ApiError('VALIDATION_FAILED', `${name} is not a date-time this service can compare: ${value}.`)
  return new Date(time).toISOString()
}

export interface AdminAuditRoutesDeps {
  auth: Pick<AuthHooks, 'admin'>
  store: Store
}

export function registerAdminAudit(app: App, s: AdminAuditRoutesDeps): void {
  app.get(
    '/api/admin/audit',
    {
      onRequest: s.auth.admin,
      schema: {
        tags: ['admin'],
        security: [{ adminToken: [] }],
        summary: 'The operator audit log, newest first',
        ...operation({ id: 'listOperatorAudit', description: `Filter and page. ${callers.operator}` }),
        querystring: Type.Object({
          targetType: Type.Optional(Type.Enum(auditTargetTypes)),
          targetId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
          action: Type.Optional(Type.Enum(auditActions)),
          actor: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
          since: Type.Optional(Type.String({ format: 'date-time', description: 'inclusive' })),
          until: Type.Optional(Type.String({ format: 'date-time', description: 'exclusive' })),
          cursor: Type.Optional(Cursor),
          limit: Type.Optional(Limit),
        }),
        response: { 200: Page(AuditEntryView), ...failures(400, 401) },
      },
    },
    async (request) => {
      const { limit = 50, cursor, since, until, ...filters } = request.query
      const from = instant('since', since)
      const to = instant('until', until)
      if (from !== undefined && to !== undefined && from >= to)
        throw new ApiError('VALIDATION_FAILED', 'since must be before until.')
      const rows = await s.store.audit.list({
        ...filters,
        since: from,
        until: to,
        before: decodeCursor(cursor),
        limit: limit + 1,
      })
      return page(rows, limit, (e) => e.id)
    },
  )
}
