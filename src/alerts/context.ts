// Loads the facts the decision table needs for one alert. Reads only; the decision stays pure.
import type { Integration } from '../db/repositories/integrations.js'
import type { Store } from '../db/store.js'
import type { DecisionContext } from '../domain/decide.js'
import { dedupKey } from '../domain/dedup.js'
import type { AlertFacts, Catalogue, Ticket } from '../domain/types.js'

/** A reservation whose creator died (lease passed) counts as no ticket. */
function live(ticket: Ticket | null, nowIso: string): Ticket | null {
  if (ticket?.status === 'creating' && ticket.leaseUntil !== null && ticket.leaseUntil < nowIso) return null
  return ticket
}

export async function loadDecisionContext(
  store: Store,
  integration: Integration,
  catalogue: Catalogue | null,
  alert: AlertFacts,
  now: Date,
  newCorrelationId: string,
): Promise<DecisionContext> {
  const settings = integration.settings
  const key = dedupKey(settings.deduplication.keyFields, alert)
  const nowIso = now.toISOString()
  const lookUpDedup = settings.deduplication.enabled && alert.incidentStatus === 'OPEN'
  const [accountKnown, rules, byCorrelation, byKey] = await Promise.all([
    store.vendorData.accountExists(integration.id, alert.accountId),
    store.rules.list(integration.id),
    alert.correlationId ? store.tickets.findByCorrelation(integration.id, alert.correlationId) : null,
    lookUpDedup ? store.tickets.findByOpenDedupKey(integration.id, key) : null,
  ])
  const ticket = live(byCorrelation, nowIso)
  const dedupTicket = live(byKey, nowIso)
  const accounts = new Set(
    [alert.accountId, ticket?.accountId, dedupTicket?.accountId].filter((a) => a !== undefined),
  )
  const mappings = await store.mappings.forAccounts(integration.id, [...accounts])
  return {
    alert,
    integration: settings,
    catalogue,
    accountKnown,
    mappings,
    rules,
    ticket,
    dedupKey: key,
    dedupTicket,
    newCorrelationId,
    now,
  }
}
