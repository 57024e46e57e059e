// What the PSA ticket and its notes say. Plain text: every PSA accepts it.

import type { AlertFacts } from '../../platform/core/types.js'
import type { NewPsaTicket, TicketDefaultsValue } from '../../psa/index.js'
import type { Decision } from '../domain/decide.js'
import { catchAllHeader } from '../steps/catch-all/catch-all.js'

/** The ticket a create asks the PSA for: the account mapping's board, else the rule's, else the
 * connection's default; priority, type and status from the rule, else the connection's defaults. */
export function newTicket(
  alert: AlertFacts,
  d: Extract<Decision, { kind: 'create' }>,
  defaults: TicketDefaultsValue,
  messageId: string,
  /** A catch-all ticket (d.catchAll): the vendor's name for the account; null when never declared. */
  accountName: string | null = null,
  /** The rule's templates rendered (ticket-template.ts): the title, and the description's text above
   * its reference lines. */
  rendered?: { title: string | null; description: string | null },
): NewPsaTicket {
  return {
    companyId: d.mapping.psaCompanyId,
    board: d.mapping.board ?? d.rule.ticket.board ?? defaults.board ?? null,
    priority: d.rule.ticket.priority ?? defaults.priority ?? null,
    type: d.rule.ticket.type ?? defaults.type ?? null,
    status: d.rule.ticket.status ?? defaults.status ?? null,
    summary: rendered?.title ?? alert.title,
    description: [
      // The catch-all account (docs/decision-table.md#catch-all): which vendor account, at the top.
      ...(d.catchAll ? catchAllHeader(alert.accountId, accountName) : []),
      rendered?.description
        ? `${rendered.description}\n\n${references(d.correlationId, messageId)}`
        : ticketDescription(alert, d.correlationId, messageId),
      // The closed-ticket policy `new` (docs/decision-table.md#replace-closed): the ticket it replaces.
      ...(d.replaces
        ? [
            '',
            `Replaces the closed ticket ${d.replaces.psaTicketId ?? ''} (correlation ID ${d.replaces.correlationId}): the alert came back after it was closed${d.replaces.psaDeleted ? ' and deleted in the PSA' : ''}.`,
          ]
        : []),
    ].join('\n'),
  }
}

export function ticketDescription(alert: AlertFacts, correlationId: string, messageId: string): string {
  return [
    alert.summary || alert.title,
    '',
    `Product group: ${alert.productGroup}`,
    `Alert type: ${alert.alertType}`,
    `Account: ${alert.accountId}`,
    references(correlationId, messageId),
  ].join('\n')
}

/** The closing lines a retry looks for, and a PSA adapter keeps when it cuts the text. */
const references = (correlationId: string, messageId: string) =>
  `Correlation ID: ${correlationId}\nMessage ID: ${messageId}`

export function noteText(alert: AlertFacts, messageId: string, occurrence: number | null): string {
  const heading =
    alert.incidentStatus === 'OPEN'
      ? `Repeated alert${occurrence ? ` (occurrence ${occurrence})` : ''}: ${alert.title}`
      : `${alert.incidentStatus === 'RESOLVED' ? 'Resolved' : 'Update'}: ${alert.title}`
  return [heading, '', alert.summary, '', `Message ID: ${messageId}`]
    .filter((l, i) => i !== 2 || l)
    .join('\n')
}
