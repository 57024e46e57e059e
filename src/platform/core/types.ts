// The vocabulary of the domain. Plain data, no I/O.

export const incidentStatuses = ['OPEN', 'UPDATE', 'RESOLVED'] as const
export type IncidentStatus = (typeof incidentStatuses)[number]

export const integrationStates = ['created', 'mapping', 'pending', 'connected'] as const
export type IntegrationState = (typeof integrationStates)[number]

export const dedupFields = ['accountId', 'productGroup', 'alertType', 'title'] as const
export type DedupField = (typeof dedupFields)[number]

export interface DedupSettings {
  enabled: boolean
  keyFields: DedupField[]
  /** Minutes since a ticket's last occurrence within which a new OPEN is folded into it; null = no limit. */
  windowMinutes: number | null
}

/**
 * What a later alert does to a ticket that is closed (docs/decision-table.md#closed-ticket-policy):
 * refuse (409, the default), reopen it within `reopenWindowMinutes` of its closing (older, or deleted
 * in the PSA: a new ticket), or open a new one that links the old. closeOnlyUntouched: self-healing
 * leaves a ticket a technician has worked open, with a note.
 */
export interface ClosedTicketSettings {
  policy: ClosedTicketPolicy
  reopenWindowMinutes: number
  closeOnlyUntouched: boolean
}
export const closedTicketPolicies = ['refuse', 'reopen', 'new'] as const
export type ClosedTicketPolicy = (typeof closedTicketPolicies)[number]

/** The catch-all account (docs/decision-table.md#catch-all): off by default; on needs `psaCompanyId`. */
export interface CatchAllSettings {
  enabled: boolean
  psaCompanyId: string | null
  board: string | null
}

/** Why an OPEN went to the catch-all: its account is declared but not mapped, or never declared. */
export type CatchAllReason = 'not-mapped' | 'unknown'

export interface AccountMapping {
  accountId: string
  psaCompanyId: string
  board: string | null
}

/** creating: reserved, PSA ticket not yet made; closing: a close is in flight. */
export type TicketStatus = 'creating' | 'open' | 'closing' | 'closed'

export interface Ticket {
  id: string
  correlationId: string
  status: TicketStatus
  accountId: string
  productGroup: string
  alertType: string
  title: string
  ruleId: string
  psaKind: string
  psaTicketId: string | null
  dedupKey: string
  occurrenceCount: number
  leaseUntil: string | null
  lastOccurrenceAt: string
  createdAt: string
  /** When it was closed (here or in the PSA), and by whom; null while open. */
  closedAt: string | null
  closedBy: TicketCloser | null
  /** The PSA's status name as last read, and whether the PSA deleted the ticket (docs/psa/sync.md). */
  psaStatus: string | null
  psaDeleted: boolean
  /** A catch-all ticket (docs/decision-table.md#catch-all): the fallback company it went to. */
  catchAllCompanyId?: string | null
  /** A partner's test ticket (docs/partner-api.md#test-alerts): the vendor hears nothing of it. */
  partnerTest?: boolean
  /** A note line has waited for a batched note on it (its RESOLVED looks for lines still waiting). */
  batchedLines?: boolean
}

/** alertbridge: a RESOLVED alert closed it; psa: someone in the PSA did (or deleted it). */
export type TicketCloser = 'alertbridge' | 'psa'

/** Product group name → its alert types. */
export type ProductGroups = ReadonlyMap<string, ReadonlySet<string>>

export interface AlertFacts {
  incidentStatus: IncidentStatus
  correlationId: string | undefined
  title: string
  summary: string
  accountId: string
  productGroup: string
  alertType: string
  /** A test alert (docs/vendor-api.md#test-tenancies-and-test-alerts): its OPEN folds only into test tickets, and
   * its event and status_update say test. */
  test?: boolean
  /** A partner's test alert (docs/partner-api.md#test-alerts): test too, but the vendor is told nothing of
   * it, and its RESOLVED closes the test ticket whatever self-healing and the rule's statuses say. */
  partnerTest?: boolean
  /** The fields of `data` beyond the contract's (rule conditions may look at them). */
  extras?: Readonly<Record<string, unknown>>
}

export type EventStatus = 'success' | 'suppressed' | 'failed'
export interface TicketRecord extends Ticket {
  integrationId: string
  partnerId: string
  updatedAt: string
  /** The PSA ticket this one was merged away from, and the closed ticket a `new` policy replaced. */
  mergedFrom: string | null
  replacesTicketId: string | null
}
