// What the context loader (alerts/executor/context.ts) reads for storm control (docs/decision-table.md#storm):
// while it is on, an OPEN's recent creates (per account, and per integration with that cap) and the
// account's open storm ticket; for any alert, the folded incident it continues (by the vendor's own
// correlationId, or on the storm ticket's correlationId by the alert's de-duplication key), and for a
// RESOLVED of an open one how many of its storm ticket's incidents are open. Reads only.

import type { AlertFacts, Ticket } from '../../../platform/core/types.js'
import type { Store } from '../../../platform/db/store.js'
import type { Integration } from '../../../tenants/index.js'
import { type FoldedAlert, isStormTicket, type StormFacts, stormKey } from './storm.js'

export interface StormReads {
  storms: Pick<Store['storms'], 'recentCreates' | 'foldedByCorrelation' | 'openFoldedByKey' | 'counts'>
  tickets: Pick<Store['tickets'], 'findByOpenDedupKey' | 'get'>
}

export async function loadStormFacts(
  reads: StormReads,
  integration: Integration,
  alert: AlertFacts,
  key: string,
  byCorrelation: Ticket | null,
  now: Date,
): Promise<StormFacts | null> {
  const settings = integration.settings.storm
  const named = byCorrelation && isStormTicket(byCorrelation) ? byCorrelation : null
  let folded: StormFacts['folded'] = null
  const into = (alert: FoldedAlert | null, ticket: Ticket | null) =>
    alert && ticket ? { alert, ticket } : null
  if (named) {
    folded = into(await reads.storms.openFoldedByKey(named.id, key), named)
  } else if (!byCorrelation && alert.correlationId) {
    const a = await reads.storms.foldedByCorrelation(integration.id, alert.correlationId)
    folded = a ? into(a, await reads.tickets.get(a.stormTicketId)) : null
  }
  if (!settings?.enabled || alert.incidentStatus !== 'OPEN') {
    if (!folded) return null
    const facts: StormFacts = { accountCreates: 0, integrationCreates: 0, current: null, folded }
    if (alert.incidentStatus !== 'RESOLVED' || folded.alert.status !== 'open') return facts
    return { ...facts, openInStorm: (await reads.storms.counts(folded.ticket.id)).open }
  }
  const since = new Date(now.getTime() - settings.windowMinutes * 60_000).toISOString()
  const [accountCreates, integrationCreates, current] = await Promise.all([
    reads.storms.recentCreates(integration.id, alert.accountId, since),
    settings.maxTicketsPerIntegration === null ? 0 : reads.storms.recentCreates(integration.id, null, since),
    reads.tickets.findByOpenDedupKey(integration.id, stormKey(alert.accountId)),
  ])
  if (!folded && !alert.correlationId && current?.status === 'open')
    folded = into(await reads.storms.openFoldedByKey(current.id, key), current)
  return { accountCreates, integrationCreates, current, folded }
}
