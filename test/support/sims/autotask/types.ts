// The Autotask simulator's data: plain JSON-like values that a test reads and changes through
// `sim.state` (or GET /__sim/state). Field names are Autotask's REST names (camelCase, `companyID`).

export interface PicklistValue {
  /** Autotask sends picklist values as strings ("5"); the entity fields themselves hold numbers. */
  value: string
  label: string
  isDefaultValue: boolean
  sortOrder: number
  /** The parent picklist value ("" when none), e.g. a sub-issue type's issue type. */
  parentValue: string
  isActive: boolean
  isSystem: boolean
}

export interface UserDefinedField {
  name: string
  value: string | null
}

export interface Ticket {
  id: number
  ticketNumber: string
  companyID: number
  title: string
  description: string | null
  status: number
  priority: number
  queueID: number | null
  issueType: number | null
  subIssueType: number | null
  source: number | null
  ticketType: number | null
  ticketCategory: number | null
  externalID: string | null
  resolution: string | null
  contactID: number | null
  /** A location of the ticket's company (seeded tickets have none). */
  companyLocationID?: number | null
  assignedResourceID: number | null
  assignedResourceRoleID: number | null
  dueDateTime: string | null
  createDate: string
  lastActivityDate: string
  completedDate: string | null
  completedByResourceID: number | null
  /** The resource who last changed the ticket (its notes and time entries count), as Autotask records it. */
  lastActivityResourceID: number | null
  /** 1 a resource, 2 a contact (who made the last change). */
  lastActivityPersonType: number | null
  userDefinedFields: UserDefinedField[]
}

export interface TicketNote {
  id: number
  ticketID: number
  title: string | null
  description: string
  noteType: number
  publish: number
  createDateTime: string
  lastActivityDate: string
  creatorResourceID: number | null
  createdByContactID: number | null
}

export interface Company {
  id: number
  companyName: string
  companyNumber: string | null
  companyType: number
  isActive: boolean
  phone: string | null
  city: string | null
  createDate: string
  lastActivityDate: string
}

/** A contract; only Recurring Service contracts (contractType 7) have services and units. */
export interface Contract {
  id: number
  companyID: number
  contractName: string
  contractNumber: string | null
  contractType: number
  /** 1 Active, 0 Inactive. */
  status: number
  startDate: string
  endDate: string
  description: string | null
}

/** A service of the catalogue (Services entity), billed per unit on contracts. */
export interface Service {
  id: number
  name: string
  description: string | null
  invoiceDescription: string | null
  unitPrice: number
  unitCost: number
  isActive: boolean
}

/** A service on a contract. Its units are not here: they live per period in ContractServiceUnits. */
export interface ContractService {
  id: number
  contractID: number
  serviceID: number
  unitPrice: number
  unitCost: number
  adjustedPrice: number
  invoiceDescription: string | null
  internalDescription: string | null
  quoteItemID: number | null
}

/** The units of one contract service in one billing period (read-only; adjustments change them). */
export interface ContractServiceUnit {
  id: number
  contractID: number
  contractServiceID: number
  serviceID: number
  startDate: string
  endDate: string
  units: number
  price: number
  cost: number
  approveAndPostDate: string | null
}

/** A unit change as posted (Autotask keeps no readable record: this is the simulator's log of them). */
export interface ContractServiceAdjustment {
  id: number
  contractID: number
  contractServiceID: number
  serviceID: number
  effectiveDate: string
  unitChange: number
  adjustedUnitPrice: number | null
  adjustedUnitCost: number | null
  allowRepeatService: boolean | null
  quoteItemID: number | null
}

/** A resource (a technician, or the API user itself). */
export interface Resource {
  id: number
  userName: string
  email: string
  firstName: string
  lastName: string
  isActive: boolean
}

export interface TimeEntry {
  id: number
  ticketID: number
  resourceID: number
  dateWorked: string
  hoursWorked: number
  summaryNotes: string | null
  createDateTime: string
}

/** A ticket webhook as created through TicketWebhooks (its isActive follows the simulator's deliveries). */
export interface TicketWebhook {
  id: number
  name: string
  webhookUrl: string
  deactivationUrl: string
  secretKey: string
  isActive: boolean
  isReady: boolean
  isSubscribedToCreateEvents: boolean
  isSubscribedToUpdateEvents: boolean
  isSubscribedToDeleteEvents: boolean
  notificationEmailAddress: string | null
  sendThresholdExceededNotification: boolean
  ownerResourceID: number
  webhookGUID: string
}

export interface TicketWebhookField {
  id: number
  webhookID: number
  fieldID: number
  isSubscribedField: boolean
  isDisplayAlwaysField: boolean
}

export interface TicketWebhookExcludedResource {
  id: number
  webhookID: number
  resourceID: number
}

export interface AutotaskState {
  /** The API user's credentials; any call with other values is refused. */
  credentials: { username: string; secret: string; integrationCode: string }
  /** What ZoneInformation answers as `url` (the REST root, ending in "ATServicesRest/"). */
  zoneUrl: string
  /**
   * When true, an API call whose root (the path up to and including "ATServicesRest/") is not the path
   * of `zoneUrl` answers 401, as a zone that moved does; set `zoneUrl` to e.g. `${sim.url}/zone2/ATServicesRest/`
   * (the simulator serves the API under any prefix) and this flag, and only a client that looks the zone
   * up again reaches the API.
   */
  movedZone: boolean
  /** Entities (e.g. "Tickets", "TicketNotes") the API user may not use: 403. */
  deny: string[]
  /** Requests in flight per (ApiIntegrationCode × object endpoint) before one more gets 429. */
  threadLimit: number
  /** Requests in flight now, by "integrationCode|endpoint" (read-only for a test). */
  inFlight: Record<string, number>
  usage: {
    externalRequestThreshold: number
    requestThresholdTimeframe: number
    /** Added to the calls counted in the last 60 minutes (a test presets usage with it). */
    presetCount: number
    /** When each counted call arrived (epoch ms); pruned to the last 60 minutes. */
    requestTimes: number[]
  }
  /** This tenant's own rules (Autotask lets each tenant require more than the API does). */
  rules: {
    /** Tickets need a queueID (or assignedResourceID + assignedResourceRoleID): 500 without. */
    requireQueue: boolean
    /** The "Require titles on ticket notes" ticket-category setting. */
    requireNoteTitle: boolean
    /** Tickets need a ticketCategory (the field information then marks it required). */
    requireCategory: boolean
    /**
     * Field lengths of this tenant where they differ from the seeded ones, by "Entity.field" (e.g.
     * "Tickets.title": 100): served in entityInformation/fields and enforced on writes alike.
     */
    lengths: Record<string, number>
    /** Fields, by "Entity.field", that the field information marks not queryable: a filter on one is refused. */
    unqueryable: string[]
  }
  tickets: Ticket[]
  /** Notes by ticket id. */
  notes: Record<string, TicketNote[]>
  companies: Company[]
  /** Picklists by entity ("Tickets", "TicketNotes") and field name. */
  picklists: Record<string, Record<string, PicklistValue[]>>
  contracts: Contract[]
  services: Service[]
  contractServices: ContractService[]
  /** One entry per contract service and billing period (the simulator seeds last, this and next month). */
  contractServiceUnits: ContractServiceUnit[]
  /** Every adjustment posted, in order. */
  adjustments: ContractServiceAdjustment[]
  nextId: { ticket: number; note: number; adjustment: number; time: number; webhook: number; child: number }
  /** The tenant's resources: the API user's own and technicians (sync-seed.ts). */
  resources: Resource[]
  timeEntries: TimeEntry[]
  ticketWebhooks: TicketWebhook[]
  ticketWebhookFields: TicketWebhookField[]
  ticketWebhookExcludedResources: TicketWebhookExcludedResource[]
}

export type Entity = Record<string, unknown>
