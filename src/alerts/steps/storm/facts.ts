// What storm control decides on and answers (docs/decision-table.md#storm): the facts the context
// loader reads and the decisions of row `storm`. Types and two tiny helpers only; storm.ts decides.
import type { AccountMapping, Ticket } from '../../../platform/core/types.js'
import type { Rule } from '../../rules/rules.js'

/** The storm ticket's de-duplication key: the tickets table's unique open key keeps one per account. */
export const stormKey = (accountId: string): string => `storm:${accountId}`
export const isStormTicket = (t: Pick<Ticket, 'dedupKey'>): boolean => t.dedupKey.startsWith('storm:')

export type FoldedStatus = 'open' | 'resolved'

/** One incident folded into a storm ticket. */
export interface FoldedAlert {
  id: string
  stormTicketId: string
  /** The vendor's own correlationId, when it sent one with the OPEN. */
  correlationId: string | null
  dedupKey: string
  title: string
  status: FoldedStatus
}

/** What the context loader found for storm control (read only when it is on, or a storm is named). */
export interface StormFacts {
  /** Tickets created for the alert's account within the window (storm tickets not counted). */
  accountCreates: number
  /** The same for the whole integration (counted only with an integration-wide cap). */
  integrationCreates: number
  /** The open storm ticket of the alert's account (it holds the account's storm key), if any. */
  current: Ticket | null
  /** The folded incident the alert continues, and its storm ticket. */
  folded: { alert: FoldedAlert; ticket: Ticket } | null
  /** RESOLVED of an open folded incident: how many of its storm ticket's incidents are open (it too). */
  openInStorm?: number
}

/** Folding an OPEN: into `ticket`, or into a new storm ticket (`ticket` null) that retires an old one. */
export interface StormOpen {
  kind: 'storm'
  step: 'open'
  ticket: Ticket | null
  rule: Rule
  mapping: AccountMapping
  /** The new storm ticket's correlationId. */
  correlationId: string
  /** The account's previous storm ticket whose window has passed: it gives the storm key up. */
  retireTicketId: string | null
  /** The incident this OPEN repeats, if it was folded already. */
  folded: FoldedAlert | null
  /** The alert's de-duplication key: a later alert with it continues the folded incident. */
  dedupKey: string
  why: string
}

/** An UPDATE or RESOLVED of a folded incident (or naming the storm ticket): a line of the next note. */
export interface StormFollowUp {
  kind: 'storm'
  step: 'follow-up'
  ticket: Ticket
  folded: FoldedAlert | null
  /** RESOLVED of the last open folded incident, self-healing on: the storm ticket closes (answered
   * closed; storm.ts lastResolved says why). */
  closes: boolean
  why: string
}

export type StormDecision = StormOpen | StormFollowUp
