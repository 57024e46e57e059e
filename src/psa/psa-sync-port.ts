// What two-way sync asks of a PSA kind (docs/psa/sync.md): read tickets back (never trust a push's
// payload alone), reopen a ticket for the closed-ticket policy `reopen`, and — where the PSA can push —
// register alertbridge's receiving URL with the PSA and verify what arrives there. A kind without a
// push (Syncro), whose push cannot be verified (Kaseya BMS) or whose push an administrator sets up by
// hand (HaloPSA) is still heard: the reconciliation poll reads alertbridge's open tickets back in pages.
import type { NoteCall, PsaCall, PsaResult } from './calls.js'

/**
 * Where a ticket stands in the PSA. merged: another ticket absorbed it (`mergedInto`); deleted: the PSA
 * answers that it does not exist any more (a 404 on a ticket alertbridge created), or marks it deleted.
 */
export type PsaTicketState = 'open' | 'closed' | 'merged' | 'deleted'

export interface PsaTicketRead {
  ticketId: string
  state: PsaTicketState
  /** The PSA's status name as a person sees it ("Closed (resolved)", "Completed"); null when deleted. */
  statusName: string | null
  /** merged: the surviving ticket's id. */
  mergedInto: string | null
  /**
   * A technician has worked the ticket since alertbridge created it: a time entry, a note not written
   * by alertbridge's API user, or a status alertbridge did not set. closeOnlyUntouched leaves such a
   * ticket open on RESOLVED.
   */
  worked: boolean
  /** Who made the last change, as the PSA names them (member, resource, agent), where it says. */
  changedBy: string | null
}

/** Reopen: the note that says why (written with the change), and the status to reopen with (null: the
 * open status a new ticket of the ticket's board or queue gets). */
export interface ReopenRequest {
  note: string
  openStatus: string | null
}

/** Where the PSA pushes to: alertbridge's per-connection URL, the secret the push is signed or
 * authenticated with, and (Autotask) the URL the PSA calls when it deactivates the push. */
export interface PushTarget {
  url: string
  secret: string
  deactivationUrl: string
}

/**
 * registered: alertbridge set the push up through the PSA's API (its id there, to remove it later);
 * manual: the PSA's API cannot, an administrator follows these steps (in the portal).
 */
export type PushRegistration =
  | { mode: 'registered'; registrationId: string; detail: string }
  | { mode: 'manual'; instructions: string[] }

/** One push as received: the raw body (signatures are over its bytes), the headers, the connection's
 * secret, and the time it arrived (a push whose own time is older than five minutes is stale). */
export interface PushRequest {
  headers: Readonly<Record<string, string | string[] | undefined>>
  rawBody: Buffer
  secret: string
  now: Date
}

/**
 * The most ticket ids one push may name (docs/psa/sync.md#where-pushes-arrive): a PSA names one ticket
 * per callout (ConnectWise, Autotask) or a handful per batched delivery (HaloPSA). A verify
 * that finds more stops collecting at one over the cap, and the service answers 413.
 */
export const maxPushTicketIds = 1000

/** ok: the ticket ids the push names (only ids: what changed is read back from the PSA), at most
 * maxPushTicketIds + 1. */
export type PushVerdict = { ok: true; ticketIds: string[] } | { ok: false; reason: string }

export interface PsaPush {
  /** Sets the push up (or again, replacing an earlier one of this URL). */
  register(target: PushTarget, call: PsaCall): Promise<PsaResult<PushRegistration>>
  /** Removes what register made; a registration already gone is not a failure. */
  unregister(registrationId: string, call: PsaCall): Promise<PsaResult<null>>
  /** Checks the push is the PSA's (its signature, where it signs, and its time) and names its tickets. */
  verify(request: PushRequest, call: PsaCall): Promise<PushVerdict>
  /**
   * Only where the PSA deactivates a push itself and calls a URL to say so (Autotask's
   * DeactivationUrl): the registration read back from the PSA. inactive: the PSA holds it switched
   * off; gone: the PSA has no such registration; active: the call was not the PSA's word.
   */
  readRegistration?(registrationId: string, call: PsaCall): Promise<PsaResult<'active' | 'inactive' | 'gone'>>
}

/**
 * A push an earlier version of alertbridge registered and this one no longer takes (Kaseya BMS's
 * webhook: docs/decisions/psa/kaseya-bms-pushes-untrusted.md). Only its removal is left, so that the
 * PSA stops sending pushes that would all be refused.
 */
export interface RetiredPush {
  /** Removes the registration; one already gone is not a failure. */
  unregister(registrationId: string, call: PsaCall): Promise<PsaResult<null>>
}

export interface PsaSyncOperations {
  /** The tickets as the PSA holds them now, one read per id given (in as few calls as the PSA allows). */
  readTickets(ticketIds: readonly string[], call: PsaCall): Promise<PsaResult<PsaTicketRead[]>>
  /** Back to an open status with a note; the marker makes a retry after a lost answer write nothing twice. */
  reopenTicket(ticketId: string, reopen: ReopenRequest, call: NoteCall): Promise<PsaResult<null>>
  /**
   * How many tickets the poll reads back in one `readTickets` (src/psa-sync/poll.ts; 10 where absent): a
   * kind whose read costs a few calls whatever the number of ids (Autotask's queries) reads more at
   * once; one that spends a call per ticket keeps it small, so a round the budget stops loses little.
   */
  readonly readBatch?: number
  /** How the PSA pushes changes; null: it cannot (or its push cannot be verified), the poll alone hears it. */
  readonly push: PsaPush | null
  /**
   * Where push is null for a reason other than the PSA having no push: that reason, one sentence the
   * partner reads as the sync status's `detail` (without it: "<PSA> cannot push ticket changes").
   */
  readonly pollOnlyReason?: string
  /**
   * Where push is null but an earlier version registered one (a psa_sync row still holding its
   * registration id): the register job removes it, one try, and the connection is heard by the poll.
   */
  readonly retiredPush?: RetiredPush
  /**
   * Where the PSA can list what changed since a time in one call (Syncro's since_updated_at), the poll
   * asks this first and reads back only alertbridge's tickets among them.
   */
  changedSince?(since: string, call: PsaCall): Promise<PsaResult<{ ticketIds: string[] }>>
}

/** The read of a ticket the PSA no longer has (a 404, or an id none of its tickets can have). */
export const deletedRead = (ticketId: string): PsaTicketRead => ({
  ticketId,
  state: 'deleted',
  statusName: null,
  mergedInto: null,
  worked: false,
  changedBy: null,
})
