// Storm control (docs/decision-table.md#storm): past a cap of new tickets per account (and optionally
// per integration) in a rolling window, a new incident folds into one storm ticket per account and
// window instead of opening a ticket of its own; its later UPDATE and RESOLVED are lines of the storm
// ticket's batched notes. Pure: the context loader counts the recent creates and finds the storm
// ticket and the folded incident; the storm module (its jobs) writes and calls the PSA.

import type { Outcome } from '../../../platform/core/outcome.js'
import type { AccountMapping, IncidentStatus, Ticket } from '../../../platform/core/types.js'
import { defaultStormSettings, type StormSettings } from '../../../tenants/index.js'
import type { DecisionContext } from '../../domain/decision.js'
import { alreadyClosed, closed, rejected, updated } from '../../domain/outcome.js'
import type { Rule } from '../../rules/rules.js'
import { isStormTicket, type StormFacts, type StormFollowUp, type StormOpen } from './facts.js'

export * from './facts.js'

/** Whether the cap is reached: the reason, or null (storm control off, or under every cap). */
export function pastCap(
  settings: StormSettings,
  facts: Pick<StormFacts, 'accountCreates' | 'integrationCreates'>,
  accountId: string,
): string | null {
  if (!settings.enabled) return null
  const w = `in the last ${settings.windowMinutes} minutes`
  if (facts.accountCreates >= settings.maxTicketsPerAccount)
    return `${facts.accountCreates} tickets were created for account '${accountId}' ${w} (cap ${settings.maxTicketsPerAccount}).`
  const perIntegration = settings.maxTicketsPerIntegration
  if (perIntegration !== null && facts.integrationCreates >= perIntegration)
    return `${facts.integrationCreates} tickets were created for this integration ${w} (cap ${perIntegration}).`
  return null
}

/**
 * The settings an OPEN that creates a ticket is counted against once more when its ticket is reserved
 * (docs/decision-table.md#one-storm-ticket): the count the decision read may be overtaken by concurrent
 * creates, so the reservation counts again under the account's lock. Null: storm control is off (no
 * count, no lock), or a test alert (never folded).
 */
export function stormCap(ctx: DecisionContext): StormSettings | null {
  if (ctx.alert.test || !ctx.storm) return null
  const settings = ctx.integration.storm
  return settings?.enabled ? settings : null
}

/** Whether a storm ticket still takes folds: open and its last fold within the window. */
export function takesFolds(t: Ticket, settings: StormSettings, now: Date): boolean {
  if (t.status === 'closed' || t.status === 'closing') return false
  return now.getTime() - Date.parse(t.lastOccurrenceAt) <= settings.windowMinutes * 60_000
}

/**
 * Row `storm` for an OPEN that would create a ticket (docs/decision-table.md#storm): a repeat of an
 * incident still open in a storm folds again; past the cap, a new incident folds into the account's
 * storm ticket (a new one when there is none, or its window has passed). Null: create as usual.
 */
export function stormOpen(ctx: DecisionContext, rule: Rule, mapping: AccountMapping): StormOpen | null {
  const facts = ctx.storm
  // A test alert is never folded: it shows the path a real alert takes.
  if (ctx.alert.test) return null
  const open = facts?.folded?.alert.status === 'open' ? facts.folded : null
  if (open && open.ticket.status !== 'closed') return foldInto(ctx, rule, mapping, open.ticket)
  if (!facts) return null
  const settings = ctx.integration.storm ?? defaultStormSettings()
  const why = pastCap(settings, facts, ctx.alert.accountId)
  if (why === null) return null
  const current = facts.current
  const stays = current && takesFolds(current, settings, ctx.now) ? current : null
  return {
    kind: 'storm',
    step: 'open',
    ticket: stays,
    rule,
    mapping,
    correlationId: stays?.correlationId ?? ctx.newCorrelationId,
    retireTicketId: current && !stays ? current.id : null,
    folded: null,
    dedupKey: ctx.dedupKey,
    why: stays
      ? `${why} The alert folds into the storm ticket of correlationId '${stays.correlationId}'.`
      : `${why} The alert opens the account's storm ticket, which later alerts fold into.`,
  }
}

/** An OPEN whose correlationId names an open storm ticket (or repeats an incident still open in
 * one) folds into it, whatever the cap. */
export function foldInto(ctx: DecisionContext, rule: Rule, mapping: AccountMapping, into: Ticket): StormOpen {
  const open = ctx.storm?.folded
  const again = open && open.alert.status === 'open' && open.ticket.id === into.id ? open.alert : null
  return {
    kind: 'storm',
    step: 'open',
    ticket: into,
    rule,
    mapping,
    correlationId: into.correlationId,
    retireTicketId: null,
    folded: again,
    dedupKey: ctx.dedupKey,
    why: again
      ? `The incident was folded into the storm ticket of correlationId '${into.correlationId}' and is still open.`
      : `The correlationId names the storm ticket '${into.correlationId}': the alert folds into it.`,
  }
}

/**
 * Row `storm` for an UPDATE or RESOLVED: the folded incident it names (or an alert naming the storm
 * ticket itself) becomes a line of the storm ticket's next note. Null: not a storm's.
 */
export function stormFollowUp(ctx: DecisionContext): StormFollowUp | Outcome | null {
  const folded = ctx.storm?.folded ?? null
  const ticket = folded?.ticket ?? (ctx.ticket && isStormTicket(ctx.ticket) ? ctx.ticket : null)
  if (!ticket) return null
  const cid = ctx.alert.correlationId ?? ticket.correlationId
  if (ticket.status === 'closed') {
    return ctx.alert.incidentStatus === 'RESOLVED'
      ? alreadyClosed(cid, 'here')
      : rejected(
          'update-closed',
          'TICKET_CLOSED',
          'The storm ticket is already closed.',
          'Ticket Already Closed',
          cid,
        )
  }
  const closes =
    ctx.alert.incidentStatus === 'RESOLVED' &&
    folded?.alert.status === 'open' &&
    ctx.storm?.openInStorm === 1 &&
    ctx.integration.selfHealing
  return {
    kind: 'storm',
    step: 'follow-up',
    ticket,
    folded: folded?.alert ?? null,
    closes,
    why: folded
      ? `The incident was folded into the storm ticket of correlationId '${ticket.correlationId}'.`
      : `The correlationId names a storm ticket; no open folded incident matches the alert.`,
  }
}

/** Why the last open folded incident's RESOLVED is answered closed. */
export const lastResolved =
  "It was the storm ticket's last open folded incident and self-healing is on: the storm ticket closes with its next batched note."

/** A line of a storm ticket's note: what arrived, in the order it did. */
export function stormLine(
  status: IncidentStatus,
  title: string,
  at: string,
  repeat: boolean,
  correlationId: string | null,
): string {
  const what = status === 'OPEN' ? (repeat ? 'Repeated' : 'New') : status === 'UPDATE' ? 'Update' : 'Resolved'
  const ref = correlationId ? ` [${correlationId}]` : ''
  return `${at.slice(11, 19)}Z ${what}: ${title}${ref}`
}

/** The storm ticket's title (made before the count is known: null) and each note's heading. */
export function stormTitle(count: number | null, vendor: string, account: string): string {
  const n = count === null ? 'alerts' : `${count} alert${count === 1 ? '' : 's'}`
  return `Alert storm: ${n} from ${vendor} for ${account}`
}

/** What a folded alert is answered: 200 updated, with the storm ticket's correlationId. */
export const stormOutcome = (correlationId: string, why: string): Outcome => ({
  ...updated('repeat', correlationId),
  row: 'storm',
  detail: why,
})

/**
 * What the RESOLVED of a storm ticket's last open folded incident is answered, self-healing on: 200
 * closed with the storm ticket's correlationId, as a RESOLVED that closes a ticket (row close); the
 * close itself is the storm ticket's next batched note.
 */
export const stormClosedOutcome = (correlationId: string, why: string): Outcome => ({
  ...closed(correlationId),
  row: 'storm',
  detail: why,
})

/** A batched note: the storm's count so far, then the lines that arrived since the last note. */
export function stormNote(
  count: number,
  open: number,
  vendor: string,
  account: string,
  lines: readonly string[],
): string {
  return [
    `${stormTitle(count, vendor, account)} so far, ${open} still open.`,
    '',
    `Since the last note (${lines.length}):`,
    ...lines,
  ].join('\n')
}

/** Whether the storm ticket closes: self-healing on, and every folded incident resolved. */
export function stormResolved(selfHealing: boolean, open: number, folded: number): boolean {
  return selfHealing && folded > 0 && open === 0
}
