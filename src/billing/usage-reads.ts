// Reading usage counts, for the vendor (its integration) and the partner (its own integrations):
// the schemas both APIs answer with, and the history with its filters checked.
import Type from 'typebox'
import { page, readCursor } from '../platform/core/cursor.js'
import { done, ok, type Result, refuse } from '../platform/core/result.js'
import type { Store } from '../platform/db/store.js'
import { Cursor, Instant, isoInstant, Limit } from '../platform/http/schemas.js'

export const UsageView = Type.Object({
  id: Type.String(),
  serviceId: Type.String(),
  accountId: Type.String(),
  unitCount: Type.Number(),
  createdAt: Type.String({ description: 'when the count was received' }),
})

/** Query filters of a history; the vendor's per-service history takes serviceId from the path. */
export const HistoryFilters = {
  accountId: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  since: Type.Optional(Instant('counts received at or after')),
  until: Type.Optional(Instant('counts received before')),
  cursor: Type.Optional(Cursor),
  limit: Type.Optional(Limit),
}

export interface HistoryQuery {
  serviceId?: string
  accountId?: string
  since?: string
  until?: string
  cursor?: string
  limit?: number
}

/**
 * One page of the integration's counts, newest first. A filter naming a service or account the
 * vendor never declared is a 404 (a typo would otherwise look like "no usage").
 */
export async function usageHistory(store: Store, integrationId: string, q: HistoryQuery) {
  const beforeId = readCursor(q.cursor)
  if (!beforeId.ok) return beforeId
  const since = q.since === undefined ? undefined : isoInstant(q.since)
  const until = q.until === undefined ? undefined : isoInstant(q.until)
  if (since !== undefined && until !== undefined && since >= until) {
    return refuse('VALIDATION_FAILED', 'since must be before until.')
  }
  const declared = await checkDeclared(store, integrationId, q)
  if (!declared.ok) return declared
  const limit = q.limit ?? 50
  const rows = await store.usage.history(integrationId, {
    serviceId: q.serviceId,
    accountId: q.accountId,
    since,
    until,
    beforeId: beforeId.value,
    limit: limit + 1,
  })
  return ok(page(rows, limit, (u) => u.id))
}

export async function checkDeclared(
  store: Store,
  integrationId: string,
  q: { serviceId?: string; accountId?: string },
): Promise<Result<void>> {
  const [service, account] = await Promise.all([
    q.serviceId === undefined ? true : store.vendorData.findService(integrationId, q.serviceId),
    q.accountId === undefined ? true : store.vendorData.accountExists(integrationId, q.accountId),
  ])
  if (!service) {
    return refuse('NOT_FOUND', `Service '${q.serviceId}' was never declared for this integration.`)
  }
  if (!account) {
    return refuse('ACCOUNT_UNKNOWN', `Account '${q.accountId}' was never declared for this integration.`)
  }
  return done
}
