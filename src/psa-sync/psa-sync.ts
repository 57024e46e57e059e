// Two-way sync's decision (docs/psa/sync.md): given alertbridge's ticket and the PSA's ticket as read
// back, what changed in the PSA. Pure. A repeated push reads the same ticket again and finds nothing
// new; alertbridge's own writes leave the two agreeing, so they never come back as changes.
import type { Ticket, TicketStatus } from '../platform/core/types.js'

/** The ticket as the PSA holds it (src/psa/psa-sync-port.ts PsaTicketRead, the fields this decision reads). */
export interface PsaSideTicket {
  state: 'open' | 'closed' | 'merged' | 'deleted'
  statusName: string | null
  mergedInto: string | null
  changedBy: string | null
}

export type PsaChange =
  | { kind: 'closed'; statusName: string | null }
  | { kind: 'reopened'; statusName: string | null }
  | { kind: 'merged'; from: string; into: string }
  | { kind: 'deleted' }

/** A ticket in flight (being created or closed by an alert) is left to that alert; the next read decides. */
const settled = (status: TicketStatus) => status === 'open' || status === 'closed'

/**
 * What changed in the PSA since alertbridge last knew the ticket, or null when nothing did. A ticket
 * held (`psaSyncHoldUntil` after `now`: an alert's close or reopen whose answer was lost is being retried)
 * is left to that alert too.
 */
export function psaChange(
  ticket: Pick<Ticket, 'status' | 'psaTicketId' | 'psaDeleted'> & { psaSyncHoldUntil?: string | null },
  read: PsaSideTicket,
  now?: Date,
): PsaChange | null {
  if (!settled(ticket.status) || ticket.psaTicketId === null || ticket.psaDeleted) return null
  if (ticket.psaSyncHoldUntil && now && Date.parse(ticket.psaSyncHoldUntil) > now.getTime()) return null
  switch (read.state) {
    case 'merged':
      return read.mergedInto && read.mergedInto !== ticket.psaTicketId
        ? { kind: 'merged', from: ticket.psaTicketId, into: read.mergedInto }
        : null
    case 'deleted':
      return { kind: 'deleted' }
    case 'closed':
      return ticket.status === 'open' ? { kind: 'closed', statusName: read.statusName } : null
    case 'open':
      return ticket.status === 'closed' ? { kind: 'reopened', statusName: read.statusName } : null
  }
}

/** The sentence the audit event and the vendor's status_update carry. */
export function psaChangeDetail(change: PsaChange, psaName: string, by: string | null): string {
  const who = by ? ` by ${by}` : ''
  switch (change.kind) {
    case 'closed':
      return `The ticket was closed in ${psaName}${who}${change.statusName ? ` (status '${change.statusName}')` : ''}.`
    case 'reopened':
      return `The ticket was reopened in ${psaName}${who}${change.statusName ? ` (status '${change.statusName}')` : ''}.`
    case 'merged':
      return `Ticket ${change.from} was merged into ticket ${change.into} in ${psaName}${who}; later alerts go to ticket ${change.into}.`
    case 'deleted':
      return `The ticket was deleted in ${psaName}${who}; it is closed here, and a later alert follows the closed-ticket policy.`
  }
}
