// The rule tester's dry run (docs/decisions/portal/dry-run.md): an alert goes through the same decision
// function as a real one (decideAlert: rows 5–18 of docs/decision-table.md on the integration's current
// rules, toggles, mappings, open tickets and catalogue), and the answer says what would happen and why.
// Nothing is written, no PSA is called; the credential checks and rate limit of rows 1–4 do not apply (the
// partner asks, not the vendor). What a PSA would then answer (rows 17 in the PSA, 19, 20) cannot be known
// without calling it. A RESOLVED naming a partner's test ticket is explained as that test's close
// (docs/decision-table.md#partner-test-close): the only RESOLVED that reaches it, since the vendor never
// learns its correlationId.
import { v7 as uuidv7 } from 'uuid'
import type { ErrorCode } from '../../platform/core/errors.js'
import type { RowId } from '../../platform/core/outcome.js'
import type { AlertFacts, Ticket } from '../../platform/core/types.js'
import type { TicketDefaultsValue } from '../../psa/index.js'
import type { Integration, Vendor } from '../../tenants/index.js'
import { disabledDetail } from '../../tenants/index.js'
import type { Decision } from '../domain/decide.js'
import { type ContextReads, decideAlert, type ProductGroupLookup } from '../executor/context.js'
import type { Rule } from '../rules/rules.js'
import { checkRules, type RuleCheck, type RuleChecks } from '../rules/rules.js'
import { catchAllDetail } from '../steps/catch-all/catch-all.js'
import { explainStorm } from '../steps/storm/explain.js'
import { newTicket } from '../tickets/ticket-text.js'
import type { DryRunAction, DryRunFacts, TicketRef } from './summary.js'

/** fold: storm control folds the alert into the account's storm ticket (docs/decision-table.md#storm). */
export type { DryRunAction } from './summary.js'

export interface DryRun {
  action: DryRunAction
  /** The row of the decision table that decided; null when the vendor is disabled (no row runs). */
  row: RowId | null
  /** With refuse: the machine code the vendor would get. */
  error: ErrorCode | null
  reason: string
  /** OPEN: the rule that matches the alert's group and type; UPDATE/RESOLVED: the rule of its ticket. */
  matchedRule: Rule | null
  /** With create: the ticket the PSA would be asked for, the connection's defaults applied. */
  ticket: { board: string | null; priority: string | null; type: string | null; status: string | null } | null
  existingTicket: { correlationId: string; psaTicketId: string | null; status: 'open' | 'closed' } | null
  /** OPEN: the rules of the alert's group and type tried in precedence order, with their conditions
   * (docs/partner-api.md#rule-conditions). */
  ruleChecks?: RuleCheck[]
  /** OPEN: the condition work the decision took of the alert's budget. */
  conditionWork?: RuleChecks['work']
}

const shown = (t: Ticket): NonNullable<DryRun['existingTicket']> => ({
  correlationId: t.correlationId,
  psaTicketId: t.psaTicketId,
  status: t.status === 'closed' ? 'closed' : 'open',
})

/** The answer, and the facts its plain sentence is made of (alerts/dry-run/summary.ts), by ids: the
 * caller looks their names up and makes the sentence. */
export interface DryRunResult {
  run: DryRun
  facts: DryRunFacts
}

export async function dryRun(
  reads: ContextReads,
  productGroups: ProductGroupLookup,
  vendor: Vendor,
  integration: Integration,
  sent: AlertFacts,
  defaults: TicketDefaultsValue,
  now: Date,
): Promise<DryRunResult> {
  const [rules, byCorrelation] = await Promise.all([
    reads.rules.list(integration.id),
    sent.correlationId ? reads.tickets.findByCorrelation(integration.id, sent.correlationId) : null,
  ])
  const testClose = sent.incidentStatus === 'RESOLVED' && byCorrelation?.partnerTest === true
  const alert: AlertFacts = testClose ? { ...sent, test: true, partnerTest: true } : sent
  if (vendor.disabled) {
    // The vendor's alerts are refused before any row of the table (docs/decision-table.md#bad-credentials):
    // 403, nothing recorded.
    const run: DryRun = {
      action: 'refuse',
      row: null,
      error: 'TENANT_DISABLED',
      reason: disabledDetail('vendor', vendor.disabled, 'integration'),
      matchedRule: null,
      ticket: null,
      existingTicket: byCorrelation ? shown(byCorrelation) : null,
    }
    return { run, facts: factsOf(null, run, alert, integration) }
  }
  const decision = await decideAlert(reads, productGroups, vendor, integration, alert, now, uuidv7())
  // OPEN: the rules tried, decided as decideAlert decides (rules.ts); their answer names the matched rule.
  const checks =
    alert.incidentStatus === 'OPEN' ? checkRules(rules, alert.productGroup, alert.alertType, alert) : null
  const last = checks?.tried.at(-1)
  const openRule = last?.holds ? (rules.find((r) => r.id === last.ruleId) ?? null) : null
  const explained = explain(
    decision,
    alert,
    rules,
    byCorrelation,
    defaults,
    integration.settings.closedTickets.closeOnlyUntouched,
    openRule,
  )
  const run: DryRun = checks
    ? { ...explained, ruleChecks: checks.tried, conditionWork: checks.work }
    : explained
  return { run, facts: factsOf(decision, run, alert, integration) }
}

const ref = (t: Ticket): TicketRef => ({ correlationId: t.correlationId, psaTicketId: t.psaTicketId })

/** What the plain sentence needs beyond the answer: the decision's company, catch-all, storm and hold. */
function factsOf(d: Decision | null, run: DryRun, alert: AlertFacts, integration: Integration): DryRunFacts {
  const mapping = d?.kind === 'create' || (d?.kind === 'storm' && d.step === 'open') ? d.mapping : null
  const held = d?.kind === 'done' ? d.maintenance : undefined
  return {
    action: run.action,
    row: run.row,
    error: run.error,
    alert: {
      accountId: alert.accountId,
      productGroup: alert.productGroup,
      alertType: alert.alertType,
      incidentStatus: alert.incidentStatus,
      correlationId: alert.correlationId ?? null,
    },
    integration: {
      state: integration.settings.state,
      closeOnlyUntouched: integration.settings.closedTickets.closeOnlyUntouched,
    },
    matchedRule: run.matchedRule,
    existingTicket: run.existingTicket,
    psaCompanyId: mapping?.psaCompanyId ?? null,
    board: run.ticket?.board ?? mapping?.board ?? null,
    catchAll: d?.kind === 'create' ? (d.catchAll ?? null) : null,
    replaces: d?.kind === 'create' && d.replaces ? ref(d.replaces) : null,
    conditionsUnmet: run.error === 'NO_RULE' && (run.ruleChecks?.length ?? 0) > 0,
    storm:
      d?.kind === 'storm'
        ? {
            step: d.step,
            ticket: d.ticket ? ref(d.ticket) : null,
            closes: d.step === 'follow-up' && d.closes,
          }
        : null,
    maintenance: !held
      ? null
      : held.kind === 'hold'
        ? { kind: 'hold', window: held.windowName, until: held.releaseAt }
        : { kind: 'drop' },
    partnerTest: alert.partnerTest === true,
  }
}

function explain(
  decision: Decision,
  alert: AlertFacts,
  rules: readonly Rule[],
  byCorrelation: Ticket | null,
  defaults: TicketDefaultsValue,
  closeOnlyUntouched: boolean,
  /** OPEN: the rule whose conditions hold, as the rule checks found it. */
  openRule: Rule | null,
): DryRun {
  const ruleOf = (ticket: Ticket | null) => rules.find((r) => r.id === ticket?.ruleId) ?? null
  const matched = (): Rule | null => (alert.incidentStatus === 'OPEN' ? openRule : ruleOf(byCorrelation))
  const base = { error: null, ticket: null }
  switch (decision.kind) {
    case 'create': {
      const { rule, mapping, replaces } = decision
      const t = newTicket(alert, decision, defaults, '')
      const made = `a new ticket would be created for account '${mapping.accountId}' in PSA company '${mapping.psaCompanyId}'`
      const caught = decision.catchAll
        ? `${catchAllDetail(mapping.accountId, decision.catchAll, mapping.psaCompanyId)} Rule ${rule.id} (precedence ${rule.precedence}) matches; ${made}, the vendor's account named at the top of its description.`
        : null
      return {
        ...base,
        action: 'create',
        row: caught ? 'catch-all' : replaces ? 'replace-closed' : 'create',
        reason: caught
          ? caught
          : replaces
            ? `The ticket of correlationId '${replaces.correlationId}' is closed${replaces.psaDeleted ? ' (deleted in the PSA)' : ''}; the closed-ticket policy says ${made}, with a link to the closed one.`
            : `Rule ${rule.id} (precedence ${rule.precedence}) matches; ${made}.`,
        matchedRule: rule,
        ticket: { board: t.board, priority: t.priority, type: t.type, status: t.status },
        existingTicket: null,
      }
    }
    case 'append': {
      const { ticket } = decision
      const cid = ticket.correlationId
      const reason =
        decision.row === 'update'
          ? `The ticket of correlationId '${cid}' is open; the update would be added to it as a note.`
          : alert.correlationId === cid
            ? `The ticket of correlationId '${cid}' is open; the alert would be added to it as a note.`
            : `De-duplication folds the alert into the open ticket of correlationId '${cid}', which has the same key; it would be added to it as a note.`
      return {
        ...base,
        action: 'append',
        row: decision.row,
        reason,
        matchedRule: matched(),
        existingTicket: shown(ticket),
      }
    }
    case 'reopen':
      return {
        ...base,
        action: 'reopen',
        row: 'reopen-closed',
        reason: `The ticket of correlationId '${decision.ticket.correlationId}' is closed, within the reopen window: the closed-ticket policy would reopen it in the PSA with the alert as a note.`,
        matchedRule: decision.rule,
        existingTicket: shown(decision.ticket),
      }
    case 'close': {
      const cid = decision.ticket.correlationId
      const unless = closeOnlyUntouched
        ? ', unless a technician has worked it (closeOnlyUntouched): then it would get a note and stay open'
        : ''
      return {
        ...base,
        action: 'close',
        row: alert.partnerTest ? 'partner-test-close' : 'close',
        reason: alert.partnerTest
          ? `The ticket of correlationId '${cid}' is a partner's test ticket: its close (on request, or after closeAfterMinutes) is a test RESOLVED, which closes it whatever self-healing and the rule's suppressStatuses say. It would get a resolution note and be closed in the PSA${unless}; the vendor is told nothing.`
          : `Self-healing is on: the ticket of correlationId '${cid}' would get a resolution note and be closed in the PSA${unless}.`,
        matchedRule: decision.rule,
        existingTicket: shown(decision.ticket),
      }
    }
    case 'storm':
      return explainStorm(decision, matched(), shown)
    case 'done': {
      const o = decision.outcome
      return {
        ...base,
        action: o.message === 'suppressed' ? 'suppress' : 'refuse',
        row: o.row,
        error: o.error,
        reason: o.detail ?? `The decision table's case '${o.row}' applies.`,
        matchedRule: matched(),
        existingTicket: byCorrelation ? shown(byCorrelation) : null,
      }
    }
  }
}
