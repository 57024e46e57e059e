// What the decision table (decide.ts) is given and what it answers: the facts of one alert, and the
// decision an executor carries out. Types only.

import type { Outcome } from '../../platform/core/outcome.js'
import type {
  AccountMapping,
  AlertFacts,
  CatchAllReason,
  ProductGroups,
  Ticket,
} from '../../platform/core/types.js'
import type { IntegrationSettings, StormSettings } from '../../tenants/index.js'
import type { Rule } from '../rules/rules.js'
import type { MaintenanceAction, MaintenanceFacts } from '../steps/maintenance/maintenance.js'
import type { StormDecision, StormFacts } from '../steps/storm/facts.js'

export interface DecisionContext {
  alert: AlertFacts
  integration: IntegrationSettings
  catalogue: ProductGroups | null
  /** Whether the vendor has declared the alert's accountId (docs/contract.md#vendor-api-calls). */
  accountKnown: boolean
  /** Account mappings for the alert's account and, on UPDATE/RESOLVED, the ticket's account. */
  mappings: ReadonlyMap<string, AccountMapping>
  rules: readonly Rule[]
  /** The ticket named by alert.correlationId, if any. */
  ticket: Ticket | null
  /** The alert's dedup key under the integration's settings. */
  dedupKey: string
  /** The open ticket that holds dedupKey, if any (only looked up when de-duplication is on). */
  dedupTicket: Ticket | null
  /**
   * The latest closed ticket of dedupKey, looked up only for an OPEN when de-duplication is on, no
   * open ticket holds the key and the closed-ticket policy is not `refuse`.
   */
  closedDedupTicket?: Ticket | null
  /** The correlationId a new ticket (or a suppressed OPEN) gets when the vendor sent none. */
  newCorrelationId: string
  now: Date
  /** Storm control's facts (storm.ts): loaded while it is on, or when the alert names a storm. */
  storm?: StormFacts | null
  /** Maintenance windows of the integration and what is held for the correlationId (maintenance.ts). */
  maintenance?: MaintenanceFacts | null
}

export type Decision =
  /** `maintenance`: besides recording the outcome, hold the alert or drop those held (maintenance.ts). */
  | { kind: 'done'; outcome: Outcome; maintenance?: MaintenanceAction }
  | {
      kind: 'create'
      rule: Rule
      mapping: AccountMapping
      /** The vendor's own correlationId, or the new one of the context. */
      correlationId: string
      dedupKey: string
      /** Set when de-duplication is on: the key this ticket holds while open. */
      dedupOpenKey: string | null
      /** An open ticket holding the same key whose window has passed: it gives the key up. */
      retireTicketId: string | null
      /** The closed ticket this one replaces (closed-ticket policy `new`): its description links it. */
      replaces: Ticket | null
      /** Set when the account is not mapped and the ticket goes to the catch-all company (catch-all.ts). */
      catchAll?: CatchAllReason
      /** Storm control is on: the reservation counts the recent creates again, under a lock (storm.ts). */
      stormCap?: StormSettings
    }
  | { kind: 'append'; row: 'repeat' | 'update'; ticket: Ticket; mapping: AccountMapping }
  /** Closed-ticket policy `reopen`: the closed ticket goes back to open with the alert as a note. */
  | { kind: 'reopen'; ticket: Ticket; mapping: AccountMapping; rule: Rule }
  | { kind: 'close'; ticket: Ticket; mapping: AccountMapping; rule: Rule }
  /** Storm control: the alert folds into (or opens) the account's storm ticket (storm.ts). */
  | StormDecision
