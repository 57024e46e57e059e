// What the PSA ticket and its notes say. Plain text: every PSA accepts it.
import type { AlertFacts } from '../domain/types.js'

export function ticketDescription(alert: AlertFacts, correlationId: string, messageId: string): string {
  return [
    alert.summary || alert.title,
    '',
    `Product group: ${alert.productGroup}`,
    `Alert type: ${alert.alertType}`,
    `Account: ${alert.accountId}`,
    `Correlation ID: ${correlationId}`,
    `Message ID: ${messageId}`,
  ].join('\n')
}

export function noteText(alert: AlertFacts, messageId: string, occurrence: number | null): string {
  const heading =
    alert.incidentStatus === 'OPEN'
      ? `Repeated alert${occurrence ? ` (occurrence ${occurrence})` : ''}: ${alert.title}`
      : `${alert.incidentStatus === 'RESOLVED' ? 'Resolved' : 'Update'}: ${alert.title}`
  return [heading, '', alert.summary, '', `Message ID: ${messageId}`]
    .filter((l, i) => i !== 2 || l)
    .join('\n')
}
