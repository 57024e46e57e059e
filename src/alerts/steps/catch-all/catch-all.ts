// The catch-all account (docs/decision-table.md#catch-all): an integration may send the OPEN alerts of an
// account that is not mapped to a PSA company, declared by the vendor or not, to a fallback company (and
// board) instead of refusing them. The ticket says at its top which vendor account it is for, and a
// catch-all ticket remembers the company it went to, so its UPDATE and RESOLVED find it even while the
// account stays unmapped (docs/decisions/alerts/catch-all-account.md). Pure.

import type { Outcome } from '../../../platform/core/outcome.js'
import type {
  AccountMapping,
  CatchAllReason,
  CatchAllSettings,
  Ticket,
} from '../../../platform/core/types.js'
import { catchAllOff } from '../../../tenants/index.js'
import { created } from '../../domain/outcome.js'

/** The mapping an unmapped account's OPEN gets: the fallback company, when the catch-all is on. */
export function catchAllMapping(
  settings: CatchAllSettings | undefined,
  accountId: string,
): AccountMapping | null {
  if (!settings?.enabled || !settings.psaCompanyId) return null
  return { accountId, psaCompanyId: settings.psaCompanyId, board: settings.board }
}

/** A catch-all ticket's follow-ups go where the ticket is, mapped or not (null: not a catch-all ticket). */
export function catchAllTicketMapping(ticket: Ticket): AccountMapping | null {
  return ticket.catchAllCompanyId
    ? { accountId: ticket.accountId, psaCompanyId: ticket.catchAllCompanyId, board: null }
    : null
}

export function catchAllDetail(accountId: string, reason: CatchAllReason, psaCompanyId: string): string {
  const why = reason === 'unknown' ? 'is not declared by the vendor' : 'is not mapped to a PSA company'
  return `accountId '${accountId}' ${why}; the catch-all account sends its ticket to the fallback PSA company '${psaCompanyId}'.`
}

/** The catch-all row's outcome: a ticket was created (201), in the fallback company. */
export const caughtAll = (correlationId: string, detail: string): Outcome => ({
  ...created(correlationId),
  row: 'catch-all',
  detail,
})

/** The lines a catch-all ticket's description starts with: which vendor account it is for. */
export function catchAllHeader(accountId: string, accountName: string | null): string[] {
  return [
    'Catch-all ticket: the account is not mapped to a PSA company.',
    accountName === null
      ? `Vendor account: ${accountId} (not declared by the vendor)`
      : `Vendor account: ${accountName} (id ${accountId})`,
    "Map the account in the integration's accounts: its later alerts then go to its company.",
    '',
  ]
}

/** The note on an open catch-all ticket whose account is now mapped, by whether the PSA moved it. */
export function remappedNote(
  accountId: string,
  accountName: string | null,
  psaCompanyId: string,
  moved: boolean,
): string {
  const who = accountName === null ? `Account ${accountId}` : `Account ${accountName} (id ${accountId})`
  return moved
    ? `${who} is now mapped to PSA company ${psaCompanyId}: this ticket was moved there from the catch-all company.`
    : `${who} is now mapped to PSA company ${psaCompanyId}: its new alerts open tickets there. This ticket stays in the catch-all company and still gets the updates and the resolution of its own alert.`
}

/** Why a settings change would leave the catch-all on without a company to send to; null: it would not. */
export function catchAllProblem(
  current: CatchAllSettings | undefined,
  patch: Partial<CatchAllSettings> | undefined,
): string | null {
  if (!patch) return null
  const next = { ...(current ?? catchAllOff), ...patch }
  return next.enabled && !next.psaCompanyId
    ? 'catchAll.psaCompanyId: the catch-all account needs the PSA company its tickets go to before it is turned on.'
    : null
}
