// The partner's closed-ticket policy (docs/decision-table.md#closed-ticket-policy): what an alert for a
// closed ticket does. Pure; decide.ts asks it where the table meets a closed ticket.

import type { AccountMapping, Ticket } from '../../platform/core/types.js'
import type { Rule } from '../rules/rules.js'
import type { Decision, DecisionContext } from './decision.js'

/**
 * What an alert for a closed ticket does under the partner's closed-ticket policy
 * (docs/decision-table.md#closed-ticket-policy): null under `refuse` (the caller answers as the table
 * always has); `reopen` within the reopen window of a ticket the PSA still has; otherwise a new ticket
 * (a new correlationId: the old one stays the closed ticket's) that links the closed one.
 */
export function closedTicketPolicy(
  ctx: DecisionContext,
  ticket: Ticket,
  rule: Rule,
  mapping: AccountMapping,
  /** The open ticket that gives the de-duplication key up to a new ticket (decide.ts), if any. */
  retireTicketId: string | null,
): Extract<Decision, { kind: 'reopen' | 'create' }> | null {
  const { policy, reopenWindowMinutes } = ctx.integration.closedTickets
  if (policy === 'refuse') return null
  const reopenable =
    policy === 'reopen' &&
    !ticket.psaDeleted &&
    ticket.psaTicketId !== null &&
    ticket.closedAt !== null &&
    ctx.now.getTime() - Date.parse(ticket.closedAt) <= reopenWindowMinutes * 60_000
  if (reopenable) return { kind: 'reopen', ticket, mapping, rule }
  const opening = ctx.alert.incidentStatus === 'OPEN' && ctx.integration.deduplication.enabled
  return {
    kind: 'create',
    rule,
    mapping,
    correlationId: ctx.newCorrelationId,
    dedupKey: ctx.dedupKey,
    // A follow-up's key is not looked up (no open holder is known), so it holds none.
    dedupOpenKey: opening ? ctx.dedupKey : null,
    retireTicketId,
    replaces: ticket,
  }
}
