// The SuperOps simulator's data: plain JSON-like values a test reads and changes through `sim.state`
// (or GET /__sim/state). Field names are SuperOps' GraphQL names.

export interface Client {
  accountId: string
  name: string
  stage: string
  status: string
}

export interface Person {
  userId: string
  name: string
}

export interface Note {
  noteId: string
  ticketId: string
  addedBy: Person
  addedOn: string
  content: string
  privacyType: 'PRIVATE' | 'PUBLIC'
}

export interface Worklog {
  itemId: string
  ticketId: string
  qty: number
  billDateTime: string
  notes: string | null
  technician: Person
}

export interface Ticket {
  ticketId: string
  displayId: string
  subject: string
  description: string
  status: string
  priority: string | null
  category: string | null
  source: string
  sourceReferenceId: string | null
  client: { accountId: string; name: string }
  techGroup: { groupId: string; name: string } | null
  technician: Person | null
  createdTime: string
  updatedTime: string
  /** Set when the ticket moves to one of the tenant's resolving statuses, cleared when it leaves them. */
  resolutionTime: string | null
}

export interface Contract {
  contractId: string
  name: string
  client: { accountId: string; name: string }
  startDate: string
  chargeItem: { itemId: string; name: string }
  quantity: number
  quantityCalculationType: 'FIXED' | 'DYNAMIC'
  /** Every quantity change, as SuperOps keeps a contract's history. */
  changes: { quantity: number; operation: string; effectiveDate: string | null }[]
}

export interface SuperOpsState {
  /** API tokens and the technician each acts as. */
  tokens: { token: string; user: Person; readOnly?: boolean }[]
  subdomain: string
  rate: {
    perMinute: number
    /** body: HTTP 200 with rate_limit_exceeded, as SuperOps answers; http: a 429. */
    style: 'body' | 'http'
    retryAfterSeconds: number | null
    /** Throttle the next `count` calls whose root fields match `match` (a test's switch). */
    forced: { count: number; match: string | null } | null
    windows: Record<string, { start: number; count: number }>
    refused: number
  }
  /** Field limits (SuperOps publishes none; the simulator's are the adapter's guesses' test). */
  limits: { subject: number; description: number; note: number }
  /** Fields the tenant made mandatory on create (besides the schema's own). */
  mandatoryOnCreate: ('category' | 'techGroup' | 'priority')[]
  /** Whether `hasMore` is ever false (some tenants answer null on the last page). */
  hasMoreFalse: boolean
  clients: Client[]
  statuses: string[]
  /** The statuses that set a ticket's resolutionTime (the tenant's own workflow, not their names). */
  resolvingStatuses: string[]
  priorities: string[]
  categories: string[]
  groups: { groupId: string; name: string }[]
  tickets: Ticket[]
  notes: Note[]
  worklogs: Worklog[]
  contracts: Contract[]
  nextId: { ticket: number; display: number; note: number; worklog: number }
}
