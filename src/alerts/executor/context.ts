// Loads the facts the decision table needs for one alert and decides. Reads only; the decision
// itself stays pure. The synchronous path, the queued job and the webhook strategy's immediate
// answer all decide through `decideAlert`.

import type { AlertFacts, ProductGroups, Ticket } from '../../platform/core/types.js'
import type { Store } from '../../platform/db/store.js'
import type { Integration, ProductGroupSource, Vendor } from '../../tenants/index.js'
import { dedupKey } from '../../tenants/index.js'
import { type Decision, type DecisionContext, decide } from '../domain/decide.js'
import type { MaintenanceFacts } from '../steps/maintenance/maintenance.js'
import { loadStormFacts, type StormReads } from '../steps/storm/context.js'

/** A reservation whose creator died (lease passed) counts as no ticket. */
function live(ticket: Ticket | null, nowIso: string): Ticket | null {
  if (ticket?.status === 'creating' && ticket.leaseUntil !== null && ticket.leaseUntil < nowIso) return null
  return ticket
}

/** Where a decision finds the catalogue this partner may use (static or the vendor's, cached). */
export type ProductGroupLookup = Pick<ProductGroupSource, 'effective'>

/** The reads the decision table needs: the Store, or a cache in front of it (cached-reads.ts). */
export interface ContextReads {
  vendorData: Pick<Store['vendorData'], 'accountExists'>
  rules: Pick<Store['rules'], 'list'>
  tickets: Pick<
    Store['tickets'],
    'findByCorrelation' | 'findByOpenDedupKey' | 'findLastClosedByDedupKey' | 'get'
  >
  mappings: Pick<Store['mappings'], 'forAccounts'>
  /** Maintenance windows (docs/decision-table.md#maintenance); without it no window applies. */
  maintenance?: Pick<Store['maintenance'], 'list' | 'heldFor'>
  /** Storm control (docs/decision-table.md#storm); without it no storm applies. */
  storms?: StormReads['storms']
}

async function loadDecisionContext(
  store: ContextReads,
  integration: Integration,
  catalogue: ProductGroups | null,
  alert: AlertFacts,
  now: Date,
  newCorrelationId: string,
): Promise<DecisionContext> {
  const settings = integration.settings
  const key = dedupKey(settings.deduplication.keyFields, alert)
  const nowIso = now.toISOString()
  const lookUpDedup = settings.deduplication.enabled && alert.incidentStatus === 'OPEN'
  const [accountKnown, rules, byCorrelation, byKey, maintenance] = await Promise.all([
    store.vendorData.accountExists(integration.id, alert.accountId),
    store.rules.list(integration.id),
    alert.correlationId ? store.tickets.findByCorrelation(integration.id, alert.correlationId) : null,
    lookUpDedup ? store.tickets.findByOpenDedupKey(integration.id, key) : null,
    maintenanceFacts(store, integration, alert),
  ])
  const ticket = live(byCorrelation, nowIso)
  const dedupTicket = live(byKey, nowIso)
  const storms = store.storms
  const storm = storms
    ? await loadStormFacts({ storms, tickets: store.tickets }, integration, alert, key, ticket, now)
    : null
  // Only a policy other than refuse acts on a closed ticket of the key (decide.ts, closedTicketPolicy).
  const closedDedupTicket =
    lookUpDedup && !dedupTicket && !ticket && settings.closedTickets.policy !== 'refuse'
      ? await store.tickets.findLastClosedByDedupKey(integration.id, key)
      : null
  const accounts = new Set(
    [alert.accountId, ticket?.accountId, dedupTicket?.accountId, closedDedupTicket?.accountId].filter(
      (a) => a !== undefined,
    ),
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
    closedDedupTicket,
    newCorrelationId,
    now,
    maintenance,
    storm,
  }
}

/**
 * The integration's windows and what is held for the alert's correlationId (decide.ts, maintenance).
 * An integration that never had a window reads neither (docs/performance.md#what-an-alert-pays-for-2026-12-02).
 */
async function maintenanceFacts(
  store: ContextReads,
  integration: Integration,
  alert: AlertFacts,
): Promise<MaintenanceFacts | null> {
  if (!store.maintenance || !integration.maintenanceInUse) return null
  const integrationId = integration.id
  const [windows, held] = await Promise.all([
    store.maintenance.list(integrationId),
    alert.correlationId ? store.maintenance.heldFor(integrationId, alert.correlationId) : null,
  ])
  return windows.length === 0 && !held ? null : { windows, held }
}

/** The decision for an alert on what `reads` return now, under the catalogue this partner may use (row 6). */
export async function decideAlert(
  reads: ContextReads,
  productGroups: ProductGroupLookup,
  vendor: Vendor,
  integration: Integration,
  alert: AlertFacts,
  now: Date,
  newCorrelationId: string,
): Promise<Decision> {
  const { catalogue } = await productGroups.effective(vendor, integration)
  return decide(await loadDecisionContext(reads, integration, catalogue, alert, now, newCorrelationId))
}
