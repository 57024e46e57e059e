// The Kaseya BMS simulator's data: plain values a test reads and changes through `sim.state` (or
// GET /__sim/state). Names follow BMS's DTOs in camelCase, as BMS writes them on the wire.

import type { PushSubscription } from '../push.js'

export type LookupRole = 'ticketTypes' | 'sources' | 'noteTypes'

/**
 * What tells the PSAs on the Kaseya v2 engine apart in the simulator: Kaseya BMS (its OpenAPI) and
 * Pulseway PSA (server.ts of each folder). The routes, the log-in, paging and limits are the same.
 */
export interface SimFlavour {
  /** 'Kaseya BMS', 'Pulseway PSA'. */
  name: string
  /** The create's required fields; others are given the tenant's defaults when left out. */
  requiredCreate: readonly string[]
  /** Tickets answer `customFields` as a JSON string (Pulseway), or not at all (BMS). */
  customFieldsAsString: boolean
  /** Whether /v2/admin/webhooks exists and pushes (BMS), or not (Pulseway: none published). */
  webhooks: boolean
  /** Whether GET …/tickets/{id}/activities exists (BMS), or only …/notes and …/timelogs (Pulseway). */
  activities: boolean
  /** Notes name their writer by name and e-mail only (Pulseway), or by BMS user id where a person wrote them. */
  notesByName: boolean
}

export interface BmsLookupRow {
  id: number
  name: string
  isDefault: boolean
  isActive: boolean
}

export interface BmsStatusRow {
  id: number
  name: string
  /** The basic status the status belongs to; `completedTypeIds` says which of them complete a ticket. */
  typeId: number
  statusOrder: number
  isSystemStatus: number
  isActive: boolean
  color: string
}

export interface BmsLocation {
  id: number
  name: string
  isMain: boolean
}

export interface BmsAccount {
  id: number
  name: string | null
  accountCode: string
  isActive: boolean
  locations: BmsLocation[]
}

export interface BmsNote {
  id: number
  details: string
  isInternal: boolean
  typeId: number
  noteDate: string
  createdOn: string
  /** Who wrote it (BMS's user id and name); missing: the API user. */
  createdBy?: number
  createdByName?: string
}

/** A time entry (TicketTimeEntryOutputDto), as a technician logs it. */
export interface BmsTimeLog {
  id: number
  startDate: string
  timespent: number
  notes: string
  userId: number
  employeeName: string
  createdOn: string
}

/** A BMS user who acts on tickets: the API user alertbridge signs in as, or a technician in the app. */
export interface BmsUser {
  id: number
  name: string
}

/** A webhook as POST /v2/admin/webhooks stores it (WebhookConfigurationInputDto), with its push state. */
export interface BmsWebhook extends PushSubscription {
  name: string
  contentType: number
  sendAllEvents: boolean
  events: number[]
  createdOn: string
}

export interface BmsTicket {
  id: number
  ticketNumber: string
  title: string
  details: string
  accountId: number
  locationId: number
  statusId: number
  priorityId: number
  typeId: number
  sourceId: number
  queueId: number | null
  openDate: string
  completedDate: string | null
  createdOn: string
  notes: BmsNote[]
  /** Who created it and who changed it last (BMS's user ids; missing: the API user). */
  createdBy?: number
  modifiedBy?: number
  modifiedOn?: string
  timelogs?: BmsTimeLog[]
  /** Related tickets' ids (a merge relates the merged ticket and its absorber). */
  related?: number[]
  /** The tenant's custom fields (cf_{id}: value), where the flavour has them. */
  customFields?: Record<string, string | null>
}

export interface BmsServiceChange {
  units: number
  effectiveDate: string
}

export interface BmsServiceLine {
  id: number
  serviceId: number
  serviceName: string
  description: string
  units: number
  unitCost: number
  unitPrice: number
  effectiveDate: string
  sortOrder: number
  /** Every change of units, as sent. */
  changes: BmsServiceChange[]
}

export interface BmsContract {
  id: number
  name: string
  accountId: number
  contractType: 'Recurring Services' | 'Block Hours' | 'Time and Materials'
  isActive: boolean
  isDefault: boolean
  billingCycle: string
  startDate: string
  endDate: string | null
  services: BmsServiceLine[]
}

export interface BmsSession {
  accessToken: string
  refreshToken: string
  accessExpiresAt: number
  refreshExpiresAt: number
}

export interface KaseyaBmsState {
  flavour: SimFlavour
  credentials: { tenant: string; username: string; password: string }
  tokenLifetimeSeconds: number
  refreshLifetimeSeconds: number
  /** Live sessions by access token; delete one (or `revokeRefresh`) to make BMS forget it. */
  sessions: Record<string, BmsSession>
  paging: {
    /** Where PageNumber starts. */
    firstPage: 0 | 1
    /** With pages from 1, what PageNumber=0 gets: page 1 (as ASP.NET clamping would), nothing, or a refusal. */
    pageZero: 'first' | 'empty' | 'error'
    pageSizeMax: number
  }
  limit: {
    /** Requests per hour per endpoint (the route, whatever the method). */
    perEndpointPerHour: number
    /** Whether a 429 carries Retry-After. */
    retryAfter: boolean
    /** When each counted call arrived, by endpoint. */
    calls: Record<string, number[]>
  }
  /** Whether POST …/services adds the Units sent to a service's, or sets them. */
  serviceUnits: 'add' | 'set'
  /** Where a contract's recurring services are read: …/{contractId}/services, or the contract itself. */
  servicesRoute: 'services' | 'contract'
  accounts: BmsAccount[]
  queues: { id: number; name: string; isActive: boolean }[]
  priorities: { id: number; name: string; color: string; isDefault: boolean }[]
  statuses: BmsStatusRow[]
  /** The basic statuses (typeId) that complete a ticket. */
  completedTypeIds: number[]
  /** The status a resolve without StatusId uses. */
  defaultCompletedStatusId: number
  /** What BMS holds for a ticket's type and source and a note's type, whatever its look-up answers. */
  lists: Record<LookupRole, BmsLookupRow[]>
  /**
   * The name under which /v2/system/lookup/{tableName} answers each list (BMS does not publish them);
   * null: no name answers (the list is still there: ids of it are taken).
   */
  tableNames: Record<LookupRole, string | null>
  /** What /v2/system/lookup answers for a name it does not have: a refusal, or an empty list. */
  unknownTable: 'refuse' | 'empty'
  /** How Filter.Title and Filter.Details match (BMS does not publish it): text inside, or the start. */
  textFilter: 'contains' | 'startsWith'
  /** What the ticket list does with a Sort (BMS publishes no syntax; ticket-sort.ts). */
  sort: 'applied' | 'ignored' | 'refused'
  /** The longest Title and the longest Details, note Details or resolve Comment BMS takes (BMS does
   * not publish them; docs/psa/kaseya-bms.md). */
  limits: { title: number; text: number }
  tickets: BmsTicket[]
  contracts: BmsContract[]
  catalog: { id: number; name: string }[]
  nextId: { ticket: number; note: number; service: number; webhook: number; timelog: number }
  /** The API user (userinfo's userId) and the technician who works tickets in BMS's app. */
  users: { api: BmsUser; technician: BmsUser }
  /** The webhooks registered through /v2/admin/webhooks, and the events they may subscribe to. */
  webhooks: BmsWebhook[]
  webhookEvents: { id: number; name: string; categoryId: number; categoryName: string }[]
}
