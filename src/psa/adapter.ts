// One interface for every PSA (PsaOperations). Adapters answer with values, never throw for a PSA's
// own failures: an exception out of an adapter is a defect, a PsaFailure is the PSA failing
// (docs/psa/README.md, "Adapters answer with values").

import type { NoteCall, PsaCall, PsaFailure, PsaResult, TicketCall } from './calls.js'
import type { PsaSyncOperations } from './psa-sync-port.js'
import type { PsaKind } from './stored.js'

export type { NoteCall, PsaCall, PsaFailure, PsaFailureKind, PsaResult, TicketCall } from './calls.js'

/** A partner's connection to one PSA: its settings, already checked against their kind's schema. */
export interface PsaConnection<S> {
  partnerId: string
  kind: PsaKind
  settings: S
}

/** A create: the ticket is tagged with `ref` in a field the PSA can search, and when an earlier attempt
 * may have made it (a retry, a crash, a lost answer) the adapter first looks for that tag and adopts
 * the ticket. `ref` is the correlationId, qualified by the integration where the vendor chose it
 * (vendors' ids are unique per integration only). */
export interface CreateCall extends TicketCall {
  ref: string
  adopt: boolean
}

/**
 * A close: when an earlier attempt may have closed the ticket (its answer was lost), a ticket found
 * closed is that attempt's doing, not a technician's; and a resolution note that carries `marker` is
 * that attempt's too, so it is not written again.
 */
export type CloseCall = NoteCall

/** How to close: the note that says why (written first, as the resolution), and the status a rule or
 * the connection names (null: the status the PSA itself treats as closed). */
export interface CloseRequest {
  note: string
  closedStatus: string | null
}

export interface NewPsaTicket {
  companyId: string
  board: string | null
  priority: string | null
  type: string | null
  status: string | null
  summary: string
  description: string
}

export const lookupKinds = [
  'companies',
  'boards',
  'priorities',
  'statuses',
  'types',
  'sources',
  'noteTypes',
  'categories',
] as const
export type LookupKind = (typeof lookupKinds)[number]

/** Where a look-up applies: statuses and types belong to a board in some PSAs (ConnectWise). */
export interface LookupScope {
  board?: string
}

export interface PsaEntity {
  id: string
  name: string
  /** Statuses: whether the PSA treats the status as closed. */
  closed?: boolean
}

/**
 * A billing line of a company's agreement or contract in the PSA: a ConnectWise agreement addition,
 * an Autotask contract service, a HaloPSA recurring-invoice line, a Kaseya BMS recurring service, a
 * Syncro invoice-schedule line item. A vendor's usage count for a mapped service sets its quantity.
 */
export interface BillingLine {
  /** The line as the adapter addresses it again (it may join the agreement's and the line's ids). */
  id: string
  /** The product or service of the PSA's catalogue the line bills (a mapping for every account names
   * it, and each account's line is found by it), where the PSA has one. */
  productId: string | null
  /** The line's name or description as the PSA shows it. */
  name: string
  agreementId: string
  agreementName: string
  /** The line's current quantity, where the PSA says. */
  quantity: number | null
}

/** A push of one usage count. */
export interface UsageCall extends PsaCall {
  /** When the vendor sent the count (ISO 8601): the date of the change where the PSA dates it. */
  effectiveDate: string
}

/**
 * What a PSA does on one partner's connection: every operation, declared here once (two-way sync's in
 * psa-sync-port.ts). A kind's adapter makes these for a connection (PsaAdapter); the registry hands them
 * out (PsaRegistry.connect).
 */
export interface PsaOperations extends PsaSyncOperations {
  /**
   * The connection check (each kind's connection-check.ts): the connection and the credentials work,
   * without changing anything in the PSA; the failure says in one sentence what is wrong.
   */
  test(call: PsaCall): Promise<PsaResult<{ detail: string }>>
  createTicket(
    ticket: NewPsaTicket,
    call: CreateCall,
  ): Promise<PsaResult<{ ticketId: string; adopted: boolean }>>
  appendNote(ticketId: string, note: string, call: NoteCall): Promise<PsaResult<null>>
  /** alreadyClosed: the PSA had the ticket closed before this call (docs/psa/README.md, "Adapters
   * answer with values"). */
  closeTicket(
    ticketId: string,
    close: CloseRequest,
    call: CloseCall,
  ): Promise<PsaResult<{ alreadyClosed: boolean }>>
  /**
   * Moves the ticket to another company (and board, where given): a catch-all ticket whose account got
   * mapped (docs/decision-table.md#catch-all). Absent where the adapter cannot; the ticket then gets a
   * note instead.
   */
  moveTicket?(
    ticketId: string,
    to: { companyId: string; board: string | null },
    call: TicketCall,
  ): Promise<PsaResult<null>>
  /**
   * How full the connection's fullest request budget is, 0 to 1 (ConnectionLimiter.share); absent
   * where the PSA counts nothing (the sandbox). Near 1, notes are batched so creates and closes go
   * first (docs/psa/README.md, "Near the limit").
   */
  budgetShare?(): Promise<number>
  /** Every entry of the list, through every page the PSA has. */
  lookup(what: LookupKind, scope: LookupScope, call: PsaCall): Promise<PsaResult<PsaEntity[]>>
  /** The ticket's page in the PSA's own web app, for a person to open; null where the PSA has no
   * ticket URL this adapter can build (it never calls the PSA for it). */
  ticketUrl(ticketId: string): string | null
  /** Every billing line of the company's agreements (every page), for the usage mapping screen. A PSA
   * whose API cannot change billing quantities answers a non-retryable failure that says so. */
  billingLines(companyId: string, call: PsaCall): Promise<PsaResult<BillingLine[]>>
  /** Sets the line's quantity to `quantity` (an absolute count, never added to what is there); answers
   * the quantity the line had before, where the PSA says. */
  setQuantity(
    lineId: string,
    quantity: number,
    call: UsageCall,
  ): Promise<PsaResult<{ previous: number | null }>>
}

/** A kind's adapter: its operations on one connection, whose settings are already of the kind's shape. */
export type PsaAdapter<S> = (conn: PsaConnection<S>) => PsaOperations

export const ok = <T>(value: T): PsaResult<T> => ({ ok: true, value })
export const fail = <T>(failure: PsaFailure): PsaResult<T> => ({ ok: false, failure })

/** The failure of a call whose signal fired before it was made (or while it waited). */
export const givenUp = (signal: AbortSignal): PsaFailure => ({
  kind: 'timeout',
  retryable: true,
  message:
    signal.reason instanceof Error && signal.reason.name !== 'TimeoutError'
      ? `the call was given up: ${signal.reason.message}`
      : 'no answer within the time budget',
})
