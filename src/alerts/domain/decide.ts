// The decision table (docs/decision-table.md), rows 5–18: given what is known about an alert and its
// integration, what should happen. Pure: the caller loads the facts, an executor carries the
// decision out (PSA calls, rows, events). Rows 1–4 (invalid-request, bad-credentials, rate-limited,
// unknown-integration) are answered at the HTTP edge before any fact is loaded; already-closed in the
// PSA, psa-failed and internal-error depend on the PSA call and are built with outcome.ts.

import type { Outcome } from '../../platform/core/outcome.js'
import type { AlertFacts } from '../../platform/core/types.js'
import { checkAgainstProductGroups, inactiveDetail, isActive, withinWindow } from '../../tenants/index.js'
import { matchRule } from '../rules/rules.js'
import { catchAllMapping, catchAllTicketMapping } from '../steps/catch-all/catch-all.js'
import { maintenanceOnFollowUp, maintenanceOnOpen } from '../steps/maintenance/row.js'
import { foldInto, isStormTicket, stormCap, stormFollowUp, stormOpen } from '../steps/storm/storm.js'
import { closedTicketPolicy } from './closed-tickets.js'
import type { Decision, DecisionContext } from './decision.js'
import { alreadyClosed, rejected, suppressed } from './outcome.js'

export type { Decision, DecisionContext } from './decision.js'

const done = (outcome: Outcome): Decision => ({ kind: 'done', outcome })

export function decide(ctx: DecisionContext): Decision {
  const { alert, integration } = ctx
  const cid = alert.correlationId ?? null

  // integration-not-active: the integration must be active and alerting on.
  if (!isActive(integration.state)) {
    return done(
      rejected(
        'integration-not-active',
        'INTEGRATION_NOT_ACTIVE',
        inactiveDetail(integration.state),
        'Alerting Disabled',
        cid,
      ),
    )
  }
  if (!integration.alertsEnabled) {
    return done(
      rejected(
        'integration-not-active',
        'ALERTING_DISABLED',
        'Alerting is turned off for this integration; the partner turns it on (alertsEnabled).',
        'Alerting Disabled',
        cid,
      ),
    )
  }

  // not-in-catalogue: the catalogue the partner may use.
  const check = checkAgainstProductGroups(ctx.catalogue, alert.productGroup, alert.alertType)
  if (!check.ok)
    return done(rejected('not-in-catalogue', 'INVALID_ALERT', check.detail, 'Invalid Alert', cid))

  return alert.incidentStatus === 'OPEN' ? decideOpen(ctx) : decideFollowUp(ctx)
}

function decideOpen(ctx: DecisionContext): Decision {
  const { alert, integration } = ctx
  const cid = alert.correlationId ?? null
  const failCreate = (error: Parameters<typeof rejected>[1], detail: string) =>
    done(rejected('no-mapping-or-rule', error, detail, 'Failed To Create Ticket', cid))

  // no-mapping-or-rule: account known and mapped, a rule for the group; catch-all: else the fallback
  // company, when the integration has one (catch-all.ts).
  const mapped = ctx.accountKnown ? ctx.mappings.get(alert.accountId) : undefined
  const caught = mapped ? null : catchAllMapping(integration.catchAll, alert.accountId)
  if (!ctx.accountKnown && !caught) {
    return failCreate(
      'ACCOUNT_UNKNOWN',
      `accountId '${alert.accountId}' is unknown: create it first (POST /api/vendor-api/organization/accounts).`,
    )
  }
  const mapping = mapped ?? caught
  if (!mapping) {
    return failCreate(
      'ACCOUNT_NOT_MAPPED',
      `accountId '${alert.accountId}' is not mapped to a PSA company; the partner maps it in the integration's accounts.`,
    )
  }
  const match = matchRule(ctx.rules, alert.productGroup, alert.alertType, alert)
  if (match.kind === 'no-rule') {
    return failCreate(
      'NO_RULE',
      match.unmet
        ? `No rule for productGroup '${alert.productGroup}' and alertType '${alert.alertType}' has conditions this alert meets (${match.unmet} tried${match.unchecked ? `; the conditions of ${match.unchecked} were not all checked, the alert's condition work having reached its limit` : ''}); the partner adds or widens one.`
        : `No rule covers productGroup '${alert.productGroup}' and alertType '${alert.alertType}'; the partner adds one.`,
    )
  }
  if (match.kind === 'all-disabled') {
    return failCreate('RULES_DISABLED', `Every rule for productGroup '${alert.productGroup}' is turned off.`)
  }
  const { rule } = match

  // maintenance: an active window in scope suppresses or holds a new OPEN (not a repeat of an open ticket).
  const windowed =
    ctx.ticket && ctx.ticket.status !== 'closed'
      ? null
      : maintenanceOnOpen(ctx.maintenance, alert, cid ?? ctx.newCorrelationId, ctx.now)
  if (windowed) return { kind: 'done', ...windowed }

  // suppressed.
  const suppressWhy =
    rule.action === 'suppress'
      ? `Rule ${rule.id} suppresses productGroup '${alert.productGroup}'.`
      : rule.suppressStatuses.includes('OPEN')
        ? `Rule ${rule.id} suppresses incidentStatus OPEN.`
        : !integration.ticketCreation
          ? 'Ticket creation is turned off for this integration.'
          : null
  if (suppressWhy)
    return done(suppressed('suppressed', 'Failed To Create Ticket', suppressWhy, cid ?? ctx.newCorrelationId))

  // repeat, reopen-refused: an existing ticket by correlationId, then by dedup key.
  const ticket = ctx.ticket
  if (ticket && ticket.status !== 'closed') {
    // storm: an OPEN naming a storm ticket folds into it (storm.ts).
    if (isStormTicket(ticket)) return foldInto(ctx, rule, mapping, ticket)
    return { kind: 'append', row: 'repeat', ticket, mapping: ctx.mappings.get(ticket.accountId) ?? mapping }
  }
  const dedup = integration.deduplication
  const holder = dedup.enabled ? ctx.dedupTicket : null
  if (
    !ticket &&
    holder &&
    holder.status !== 'closed' &&
    withinWindow(holder.lastOccurrenceAt, dedup.windowMinutes, ctx.now)
  ) {
    return {
      kind: 'append',
      row: 'repeat',
      ticket: holder,
      mapping: ctx.mappings.get(holder.accountId) ?? mapping,
    }
  }
  // An open ticket holding the key whose window has passed gives the key up to a new ticket.
  const retireTicketId = holder && holder.status !== 'closed' ? holder.id : null
  if (ticket) {
    const onClosed = closedTicketPolicy(ctx, ticket, rule, mapping, retireTicketId)
    if (onClosed) return onClosed
    return done(
      rejected(
        'reopen-refused',
        'TICKET_CLOSED',
        `The ticket of correlationId '${ticket.correlationId}' is closed; send OPEN without a correlationId (or with a new one) to open a new ticket.`,
        'Failed To Create Ticket',
        ticket.correlationId,
      ),
    )
  }

  // A de-duplicated OPEN whose ticket is closed: the closed-ticket policy says whether it reopens
  // that ticket or opens a new one that links it.
  const closedHolder = ctx.closedDedupTicket ?? null
  if (closedHolder && withinWindow(closedHolder.lastOccurrenceAt, dedup.windowMinutes, ctx.now)) {
    const onClosed = closedTicketPolicy(ctx, closedHolder, rule, mapping, retireTicketId)
    if (onClosed) return onClosed
  }

  // storm: past the cap of new tickets, the OPEN folds into the account's storm ticket (storm.ts).
  const storm = stormOpen(ctx, rule, mapping)
  if (storm) return storm
  const cap = stormCap(ctx)

  // create.
  return {
    kind: 'create',
    rule,
    mapping,
    correlationId: alert.correlationId ?? ctx.newCorrelationId,
    dedupKey: ctx.dedupKey,
    dedupOpenKey: dedup.enabled ? ctx.dedupKey : null,
    retireTicketId,
    replaces: null,
    ...(caught ? { catchAll: ctx.accountKnown ? ('not-mapped' as const) : ('unknown' as const) } : {}),
    ...(cap ? { stormCap: cap } : {}),
  }
}

/** Where a correlationId sent inside `data` belongs (src/alerts/intake/misplaced.ts), or ''. The extras
 * are the vendor's own fields of `data`, already bounded in size; a few are looked at. */
function misplacedCorrelationId(extras: AlertFacts['extras']): string {
  const key = Object.keys(extras ?? {})
    .slice(0, 200)
    .find((k) => k.toLowerCase() === 'correlationid')
  return key === undefined
    ? ''
    : ` It was sent inside data (body/data/${key}); send it at the top level, as body/correlationId.`
}

function decideFollowUp(ctx: DecisionContext): Decision {
  const { alert, integration, ticket } = ctx
  const cid = alert.correlationId ?? null

  // missing-correlation-id.
  if (!alert.correlationId) {
    return done(
      rejected(
        'missing-correlation-id',
        'CORRELATION_ID_REQUIRED',
        `incidentStatus ${alert.incidentStatus} needs the correlationId returned when the ticket was created.${misplacedCorrelationId(alert.extras)}`,
        'Invalid Alert',
        null,
      ),
    )
  }

  // storm: an UPDATE or RESOLVED of a folded incident is a line of its storm ticket's note (storm.ts).
  const storm = stormFollowUp(ctx)
  if (storm) return 'kind' in storm ? storm : done(storm)

  // maintenance: no ticket yet, but an alert of this correlationId is held (maintenance.ts).
  const heldBack = ticket ? null : maintenanceOnFollowUp(ctx.maintenance, alert, alert.correlationId)
  if (heldBack) return { kind: 'done', ...heldBack }

  // ticket-not-found.
  if (!ticket) {
    return done(
      rejected(
        'ticket-not-found',
        'TICKET_NOT_FOUND',
        `No ticket has correlationId '${alert.correlationId}'.`,
        'Ticket Not Found',
        cid,
      ),
    )
  }
  const rule = ctx.rules.find((r) => r.id === ticket.ruleId)
  if (!rule) {
    return done(
      rejected(
        'ticket-not-found',
        'RULE_GONE',
        `The rule that created the ticket of correlationId '${ticket.correlationId}' was deleted.`,
        'Ticket Not Found',
        cid,
      ),
    )
  }
  const mapping = ctx.mappings.get(ticket.accountId) ?? catchAllTicketMapping(ticket)
  if (!mapping) {
    return done(
      rejected(
        'ticket-not-found',
        'ACCOUNT_NOT_MAPPED',
        `accountId '${ticket.accountId}' of the ticket is no longer mapped to a PSA company.`,
        'Ticket Not Found',
        cid,
      ),
    )
  }

  // status-suppressed (ours): the ticket's rule suppresses this incidentStatus; a partner's test
  // ticket closes whatever it says (docs/decision-table.md#partner-test-close).
  const testClose = alert.partnerTest === true && alert.incidentStatus === 'RESOLVED'
  if (rule.suppressStatuses.includes(alert.incidentStatus) && !testClose) {
    return done(
      suppressed(
        'status-suppressed',
        'Alert Suppressed',
        `Rule ${rule.id} suppresses incidentStatus ${alert.incidentStatus}.`,
        cid,
      ),
    )
  }

  if (alert.incidentStatus === 'UPDATE') {
    // update, update-closed.
    if (ticket.status === 'closed') {
      // A follow-up's key is not looked up (no open holder is known), so a new ticket retires none.
      const onClosed = closedTicketPolicy(ctx, ticket, rule, mapping, null)
      if (onClosed) return onClosed
      return done(
        rejected(
          'update-closed',
          'TICKET_CLOSED',
          'The ticket is already closed.',
          'Ticket Already Closed',
          cid,
        ),
      )
    }
    return { kind: 'append', row: 'update', ticket, mapping }
  }

  // self-healing-off, already-closed, close (RESOLVED).
  if (!integration.selfHealing && !testClose) {
    return done(
      suppressed(
        'self-healing-off',
        'Self-Healing Disabled',
        'Self-healing is turned off; the ticket was left untouched.',
        cid,
      ),
    )
  }
  if (ticket.status === 'closed') return done(alreadyClosed(ticket.correlationId, 'here'))
  return { kind: 'close', ticket, mapping, rule }
}
