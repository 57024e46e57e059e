// The rule tester's plain sentence (docs/partner-api.md#rules): what a dry run's outcome means to a
// service manager, with what to do about it, in the portal's words (its pages and steps), without the
// API's paths, row names or error codes — those stay in the dry run's other fields. Pure.
import type { ErrorCode } from '../../platform/core/errors.js'
import type { RowId } from '../../platform/core/outcome.js'
import type { CatchAllReason, IncidentStatus, IntegrationState } from '../../platform/core/types.js'
import type { Rule } from '../rules/rules.js'

export type DryRunAction = 'create' | 'append' | 'reopen' | 'close' | 'suppress' | 'refuse' | 'fold'

/** A ticket as the sentence names it: by its PSA ticket number where it has one. */
export interface TicketRef {
  correlationId: string
  psaTicketId: string | null
}

/** What the dry run decided, by ids; the names (where known) come in `SummaryNames`. */
export interface DryRunFacts {
  action: DryRunAction
  /** The decision table's row; null when the vendor is disabled (no row runs). */
  row: RowId | null
  error: ErrorCode | null
  alert: {
    accountId: string
    productGroup: string
    alertType: string
    incidentStatus: IncidentStatus
    correlationId: string | null
  }
  integration: { state: IntegrationState; closeOnlyUntouched: boolean }
  matchedRule: Pick<Rule, 'productGroup' | 'alertTypes' | 'action' | 'suppressStatuses'> | null
  /** The ticket the alert would be added to, reopen or close, or that its correlationId names. */
  existingTicket: TicketRef | null
  /** create, catch-all and a new storm ticket: the PSA company and board of the new ticket (ids). */
  psaCompanyId: string | null
  board: string | null
  /** catch-all: why the account's alert goes to the fallback company. */
  catchAll: CatchAllReason | null
  /** replace-closed: the closed ticket the new one replaces. */
  replaces: TicketRef | null
  /** no-mapping-or-rule: rules of the group and type were tried, but their conditions did not hold. */
  conditionsUnmet: boolean
  storm: { step: 'open' | 'follow-up'; ticket: TicketRef | null; closes: boolean } | null
  /** maintenance: the window holding the alert, or holding the alert a RESOLVED drops. */
  maintenance: { kind: 'hold'; window: string; until: string } | { kind: 'drop' } | null
  partnerTest: boolean
}

/** The names of what the facts name by id; missing or null: shown by id. */
export interface SummaryNames {
  account?: string | null
  psaCompany?: string | null
  board?: string | null
}

const quoted = (s: string) => `'${s}'`

/** "Backup: every alert type", as the rules list names a rule. */
export function ruleLabel(rule: Pick<Rule, 'productGroup' | 'alertTypes'>): string {
  return `${rule.productGroup}: ${rule.alertTypes.length ? rule.alertTypes.join(', ') : 'every alert type'}`
}

const ticketName = (t: TicketRef | null): string =>
  t?.psaTicketId ? `ticket ${t.psaTicketId}` : t ? `the ticket ${quoted(t.correlationId)}` : 'its ticket'

/** "12:00 UTC on 2026-11-22" from an instant. */
function when(iso: string): string {
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return iso
  const s = d.toISOString()
  return `${s.slice(11, 16)} UTC on ${s.slice(0, 10)}`
}

const statusWords: Record<IncidentStatus, string> = {
  OPEN: 'new alerts (OPEN)',
  UPDATE: 'updates (UPDATE)',
  RESOLVED: 'resolutions (RESOLVED)',
}

/** The plain sentence for one dry run's outcome. */
export function dryRunSummary(f: DryRunFacts, names: SummaryNames = {}): string {
  const account = names.account ? names.account : `account ${quoted(f.alert.accountId)}`
  const company = names.psaCompany ?? (f.psaCompanyId ? `PSA company ${f.psaCompanyId}` : 'the PSA company')
  const board = names.board
    ? `the ${names.board} board`
    : f.board
      ? `board ${f.board}`
      : "the PSA's default board"
  const rule = f.matchedRule ? `the rule ${quoted(ruleLabel(f.matchedRule))}` : 'the rule'
  const existing = ticketName(f.existingTicket)
  const fail = (why: string, todo?: string) => `This alert would fail: ${why}.${todo ? ` ${todo}.` : ''}`

  switch (f.action) {
    case 'create':
      if (f.row === 'catch-all') {
        const why = f.catchAll === 'unknown' ? 'is not known to the vendor yet' : 'is not mapped yet'
        return `This alert would open a ticket in the catch-all company ${company} on ${board}, because ${account} ${why}. Map the account on the Map accounts step to send its alerts to its own company.`
      }
      if (f.row === 'replace-closed')
        return `This alert would open a new ticket in ${company} on ${board}, linked to the closed ${ticketName(f.replaces)}.`
      return `This alert would open a ticket in ${company} on ${board}.`
    case 'append':
      if (f.row === 'update') return `This update would be added as a note to ${existing}.`
      if (f.existingTicket && f.alert.correlationId === f.existingTicket.correlationId)
        return `This alert would be added as a note to the open ${existing}.`
      return `This alert repeats one that is still open: it would be added as a note to ${existing} instead of opening a new ticket.`
    case 'reopen':
      return `This alert would reopen the closed ${existing} and add itself to it as a note.`
    case 'close': {
      const unless = f.integration.closeOnlyUntouched
        ? ' If a technician has already worked on it, it gets the note and stays open.'
        : ''
      return f.partnerTest || f.row === 'partner-test-close'
        ? `This would close your test ${existing} with a resolution note; the vendor is not told.${unless}`
        : `This alert would close ${existing} with a resolution note.${unless}`
    }
    case 'fold':
      return foldSentence(f, account, company)
    case 'suppress':
      return suppressSentence(f, rule, existing)
    case 'refuse':
      return refuseSentence(f, fail, account, existing)
  }
}

function foldSentence(f: DryRunFacts, account: string, company: string): string {
  const storm = f.storm
  const ticket = ticketName(storm?.ticket ?? f.existingTicket)
  if (storm?.step === 'follow-up')
    return storm.closes
      ? `This alert belongs to an alert storm and resolves its last open alert: it would be added to the storm ${ticket}, which then closes.`
      : `This alert belongs to an alert storm: it would be added to the storm ${ticket} in its next note.`
  if (storm?.ticket)
    return `Alert storm: this alert would be added to the storm ${ticket} of ${account} instead of opening its own ticket.`
  return `Alert storm: this alert would open one storm ticket for ${account} in ${company}, which then collects the storm's alerts instead of one ticket each.`
}

function suppressSentence(f: DryRunFacts, rule: string, existing: string): string {
  switch (f.row) {
    case 'maintenance': {
      const m = f.maintenance
      if (m?.kind === 'hold')
        return `Held: the maintenance window ${quoted(m.window)} holds this alert until ${when(m.until)}; it is then checked against the rules as they stand.`
      if (m?.kind === 'drop')
        return 'Dropped: this alert resolves one that a maintenance window is holding, so neither of them opens a ticket.'
      return 'Suppressed: a maintenance window covers this alert now, so no ticket would be opened.'
    }
    case 'suppressed':
      if (f.matchedRule?.action === 'suppress')
        return `Suppressed: ${rule} drops these alerts, so no ticket would be opened.`
      if (f.matchedRule?.suppressStatuses.includes('OPEN'))
        return `Suppressed: ${rule} ignores ${statusWords.OPEN}, so no ticket would be opened.`
      return "Suppressed: ticket creation is turned off for this integration. Turn it on in the integration's settings."
    case 'status-suppressed':
      return `Suppressed: ${rule} ignores ${statusWords[f.alert.incidentStatus]}, so ${existing} is left as it is.`
    case 'self-healing-off':
      return `Nothing would change: self-healing is off, so ${existing} stays open. Turn self-healing on in the integration's settings to close tickets when their alert resolves.`
    case 'close-left-open':
      return `${existing[0]?.toUpperCase()}${existing.slice(1)} would get a note and stay open: a technician has already worked on it.`
    default:
      return 'Suppressed: no ticket would be opened or changed.'
  }
}

function refuseSentence(
  f: DryRunFacts,
  fail: (why: string, todo?: string) => string,
  account: string,
  existing: string,
): string {
  const { productGroup, alertType } = f.alert
  const kind = `${quoted(productGroup)}: ${quoted(alertType)}`
  switch (f.error) {
    case 'TENANT_DISABLED':
      return fail(
        "the vendor's access has been switched off by the service's operator",
        'Ask them to turn it back on',
      )
    case 'INTEGRATION_NOT_ACTIVE':
      return f.integration.state === 'created'
        ? fail(
            'the integration is still being set up, and the vendor has not started its set-up yet',
            'Once the vendor has, finish the set-up on the Review step',
          )
        : fail('the integration is still being set up', 'Finish the set-up on the Review step')
    case 'ALERTING_DISABLED':
      return fail('alerting is turned off for this integration', "Turn it on in the integration's settings")
    case 'ACCOUNT_UNKNOWN':
      return fail(
        `the vendor has not declared ${account} to alertbridge`,
        'Check the account with the vendor',
      )
    case 'ACCOUNT_NOT_MAPPED':
      return f.row === 'ticket-not-found'
        ? fail(
            `the account of ${existing} is no longer mapped to a PSA company`,
            'Map it on the Map accounts step',
          )
        : fail(`${account} is not mapped to a PSA company`, 'Map it on the Map accounts step')
    case 'NO_RULE':
      return f.conditionsUnmet
        ? fail(
            `no rule for ${kind} has conditions this alert meets`,
            "Add a rule, or widen a rule's conditions, on the Rules page",
          )
        : fail(`no rule covers ${kind}`, 'Add one on the Rules page')
    case 'RULES_DISABLED':
      return fail(`every rule for ${quoted(productGroup)} is turned off`, 'Turn one on on the Rules page')
    case 'CORRELATION_ID_REQUIRED':
      return fail('an update or a resolution must say which ticket it is for (its correlation id)')
    case 'TICKET_NOT_FOUND':
      return fail(`no ticket has the correlation id ${quoted(f.alert.correlationId ?? '')}`)
    case 'RULE_GONE':
      return fail(`the rule that opened ${existing} has been deleted`)
    case 'TICKET_CLOSED':
      if (f.row === 'reopen-refused')
        return fail(
          `${existing} is closed, and this integration does not reopen closed tickets`,
          'Send the alert without a correlation id to open a new ticket',
        )
      if (f.row === 'already-closed') return `Nothing would change: ${existing} is already closed.`
      return fail(`${existing} is already closed`)
    case 'INVALID_ALERT':
      return fail(`${kind} is not in this integration's catalogue of product groups and alert types`)
    default:
      return fail('it cannot be taken as it is', 'The technical detail says why')
  }
}
