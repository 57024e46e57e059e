// The dry-run tester's explanation of row `storm` (docs/decision-table.md#storm): what storm control
// would do with the alert, and why. Pure.

import type { Ticket } from '../../../platform/core/types.js'
import type { Rule } from '../../rules/rules.js'
import { lastResolved, type StormDecision } from './storm.js'

/** What the dry run answers for row storm; `shown` is how it shows a ticket. */
export interface StormExplanation<E> {
  action: 'fold'
  row: 'storm'
  error: null
  ticket: null
  reason: string
  matchedRule: Rule | null
  existingTicket: E | null
}

export function explainStorm<E>(
  d: StormDecision,
  matchedRule: Rule | null,
  shown: (t: Ticket) => E,
): StormExplanation<E> {
  const base = { action: 'fold', row: 'storm', error: null, ticket: null } as const
  if (d.step === 'follow-up') {
    return {
      ...base,
      reason: d.closes
        ? `${d.why} The alert would be a line of the storm ticket's next batched note, and the answer 200 closed with its correlationId '${d.ticket.correlationId}'. ${lastResolved}`
        : `${d.why} The alert would be a line of the storm ticket's next batched note (at most one a minute).`,
      matchedRule,
      existingTicket: shown(d.ticket),
    }
  }
  const { ticket, rule } = d
  const fold = ticket
    ? `the alert would be a line of the storm ticket's next batched note (at most one a minute), and the answer 200 updated with its correlationId '${ticket.correlationId}'`
    : `a storm ticket would be created for account '${d.mapping.accountId}' in PSA company '${d.mapping.psaCompanyId}' with the alert in its description, and the answer 200 updated with its correlationId`
  return {
    ...base,
    reason: `Storm control: ${d.why} Rule ${rule.id} matches; ${fold}.`,
    matchedRule: rule,
    existingTicket: ticket ? shown(ticket) : null,
  }
}
