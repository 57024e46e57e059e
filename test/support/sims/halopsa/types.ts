// The HaloPSA simulator's data: plain JSON-like values a test reads and changes through `sim.state` (or
// GET /__sim/state). Field names are Halo's wire names (lower case, snake_case, as its API answers them).

import type { PushSubscription } from '../push.js'

export interface HaloClientRecord {
  id: number
  name: string
  inactive: boolean
  toplevel_id: number
  main_site_id: number
}

export interface HaloTeam {
  id: number
  name: string
  inactive: boolean
  department_id: number
}

/** Halo's priorities are its SLA policies: each SLA lists the priorities (same priorityid) again. */
export interface HaloPolicy {
  id: string
  slaid: number
  priorityid: number
  name: string
  fixtime: number
  fixunits: string
}

/** TStatus as GET /api/Status answers it; which statuses close a ticket is `closedStatusIds`. */
export interface HaloStatusRecord {
  id: number
  name: string
  shortname: string
  type: number
  sequence: number
  colour: string
}

export interface HaloTicketType {
  id: number
  name: string
  inactive: boolean
  /** Fields this type makes mandatory (Halo's ticket types decide it; e.g. details, category_1). */
  required: string[]
  /** The status a new ticket of this type starts in (RequestType.initial_status in Halo's swagger). */
  initial_status: number
}

export interface HaloOutcome {
  id: number
  outcome: string
}

export interface HaloTicket {
  id: number
  summary: string
  details: string
  client_id: number
  client_name: string
  site_id: number
  tickettype_id: number
  status_id: number
  priority_id: number
  team: string
  agent_id: number
  third_party_id_string: string | null
  hasbeenclosed: boolean
  dateoccurred: string
  dateclosed: string | null
  /** The ticket that absorbed this one (Faults.merged_into_id); absent or 0: not merged. */
  merged_into_id?: number
  /** Hours of time entered on the ticket's actions (Faults.timetaken). */
  timetaken?: number
  last_update?: string
}

export interface HaloAction {
  id: number
  ticket_id: number
  outcome: string
  outcome_id: number
  note: string
  hiddenfromuser: boolean
  sendemail: boolean
  new_status: number | null
  datetime: string
  /** Who wrote it: the agent's name and id, and the API application it came through (if any). */
  who?: string
  who_agentid?: number
  actionby_application_id?: string | null
  /** Hours of time entered (an action is Halo's time entry). */
  timetaken?: number
  /** On the surviving ticket of a merge: the ticket merged into it. */
  merged_from_ticketid?: number
}

/** An agent: the one the API application acts as, or a technician working tickets in Halo's UI. */
export interface HaloAgent {
  id: number
  name: string
}

/**
 * A webhook an administrator set up in Halo (Configuration > Integrations > Webhooks): the payload URL,
 * Basic authentication, and the events that trigger it. `secret` holds `username:password`.
 */
export interface HaloWebhook extends PushSubscription {
  name: string
  username: string
  events: string[]
}

export interface HaloInvoiceLine {
  id: number
  ihid: number
  _itemid: number
  item_code: string
  item_shortdescription: string
  item_longdescription: string
  qty_order: number
  unit_price: number
  recurring_invoice_quantity_type: number
  sequenceid: number
}

export interface HaloRecurringInvoice {
  id: number
  client_id: number
  client_name: string
  name: string
  reference: string
  lines: HaloInvoiceLine[]
}

export interface HaloState {
  /** The API application's credentials, and the tenant the token request must name (null: none). */
  credentials: { clientId: string; clientSecret: string; tenant: string | null }
  /** What GET /api/authinfo answers; null: 404, as an older instance. */
  authInfo: Record<string, unknown> | null
  /** How long a token lasts (a test shortens it to see a token expire mid-run). */
  tokenLifetimeSeconds: number
  /** Tokens handed out and when each expires (epoch ms); a test empties it to revoke them all. */
  tokens: Record<string, number>
  /** The instance's own rate limit (null: none): more requests in the window are answered 429. */
  rateLimit: { requests: number; perSeconds: number } | null
  /** When each counted API request arrived (epoch ms). */
  requestTimes: number[]
  /**
   * GET /api/Tickets lists tickets without third_party_id_string and details (true by default: which
   * columns Halo's list carries is not documented, so a client must read a ticket to see its reference).
   */
  briefTicketLists: boolean
  clients: HaloClientRecord[]
  teams: HaloTeam[]
  priorities: HaloPolicy[]
  statuses: HaloStatusRecord[]
  /** The statuses Halo treats as closed (GET /api/Status?excludeclosed=true leaves them out). */
  closedStatusIds: number[]
  ticketTypes: HaloTicketType[]
  outcomes: HaloOutcome[]
  tickets: HaloTicket[]
  actions: HaloAction[]
  recurringInvoices: HaloRecurringInvoice[]
  /** The agent the API application acts as (GET /api/Agent/me), and the technician of sim.technician. */
  apiAgent: HaloAgent
  technicianAgent: HaloAgent
  webhooks: HaloWebhook[]
  nextId: { ticket: number; action: number; line: number }
}
