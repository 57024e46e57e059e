// The Syncro simulator's data: plain JSON-like values that a test reads and changes through
// `sim.state` (or GET /__sim/state). Field names are Syncro's API names (snake_case).

export interface Customer {
  id: number
  /** null for a customer that is a person (Syncro then shows the person's name). */
  business_name: string | null
  firstname: string | null
  lastname: string | null
  fullname: string | null
  email: string | null
  disabled: boolean
  created_at: string
}

export interface Comment {
  id: number
  ticket_id: number
  subject: string
  body: string
  hidden: boolean
  do_not_email: boolean
  /** The author's name as Syncro shows it (set by the UI; an API caller may send it). */
  tech: string | null
  /** The user who wrote it (a technician in the web app); null for one made through the API. */
  user_id: number | null
  created_at: string
}

/** A ticket timer entry (`ticket_timers` of a ticket): time a technician logged on it. */
export interface TicketTimer {
  id: number
  ticket_id: number
  user_id: number | null
  start_time: string
  end_time: string
  recorded: boolean
  billable: boolean
  notes: string | null
  created_at: string
}

export interface Ticket {
  id: number
  number: number
  subject: string
  customer_id: number
  customer_business_then_name: string
  problem_type: string
  status: string
  priority: string | null
  /** Ticket custom fields: only those the account defines (`ticketCustomFields`) are kept. */
  properties: Record<string, unknown>
  created_at: string
  updated_at: string
  /** Set when the ticket moves to a closing status, cleared when it moves out of one. */
  resolved_at: string | null
  comments: Comment[]
  /** Time logged on the ticket, embedded in `GET /tickets/{id}` as Syncro does. */
  ticket_timers: TicketTimer[]
}

export interface LineItem {
  id: number
  product_id: number | null
  /** The product's name. */
  item: string
  /** The line's description. */
  name: string
  quantity: number
  price_retail: number
  taxable: boolean
}

/** An Invoice Schedule: Syncro's recurring invoice for a customer. */
export interface Schedule {
  id: number
  customer_id: number
  name: string
  frequency: string
  next_run: string
  paused: boolean
  line_items: LineItem[]
}

export interface ApiToken {
  token: string
  name: string
  /** Syncro's per-token permissions, e.g. "Tickets - Create"; 'all' for a token with every one. */
  permissions: string[] | 'all'
}

export interface SyncroState {
  tokens: ApiToken[]
  /** How the Authorization header may carry a token: `Bearer {token}` and/or the raw token. */
  authSchemes: ('bearer' | 'raw')[]
  /**
   * Syncro's limit per client address (180 a minute), counted in a minute that starts with the first
   * call (refused calls count too); beyond it 429 with a Retry-After only when `retryAfterSeconds` is set.
   */
  rate: {
    perMinute: number
    retryAfterSeconds: number | null
    windows: Record<string, { start: number; count: number }>
    /** 429s answered so far (read-only for a test). */
    refused: number
  }
  /** How a 422 words its errors: Rails' `{errors: {field: [..]}}`, `{message: [..]}` or `{error: ".."}`. */
  errorStyle: 'errors' | 'message' | 'error'
  /** Whether list pages carry `meta` (total_pages …); without it a client stops on a short page. */
  withMeta: boolean
  /**
   * The order GET /tickets lists in. Syncro's docs name none and take no sort parameter for tickets:
   * newest first by default, oldest first to check a client that must not rely on it.
   */
  ticketOrder: 'newest' | 'oldest'
  /** Where problem types are listed: GET /settings (ticket.problem_types), GET /ticket_problem_types, or both. */
  problemTypesAt: 'settings' | 'endpoint' | 'both'
  /** Whether GET /schedules lists each schedule's line items (GET /schedules/{id} always does). */
  schedulesListLines: boolean
  customers: Customer[]
  problemTypes: string[]
  statuses: string[]
  /** The statuses that resolve a ticket (set resolved_at): Syncro's built-in Resolved and Invoiced. */
  closingStatuses: string[]
  priorities: string[]
  /** The ticket custom fields the account defines (the `properties` keys it keeps). */
  ticketCustomFields: string[]
  tickets: Ticket[]
  schedules: Schedule[]
  nextId: { ticket: number; number: number; comment: number; timer: number }
}
