// The ConnectWise PSA simulator's state: plain data a test reads and changes (`sim.state`, or
// GET /__sim/state). Tickets keep references by id, so a test that renames a status or a board sees
// the new name in every later answer, as ConnectWise would.

export interface CwStatus {
  id: number
  name: string
  sortOrder: number
  /** The flag that decides whether moving a ticket here closes it (a name like "Resolved" does not). */
  closedStatus: boolean
  defaultFlag: boolean
  inactive: boolean
  displayOnBoard: boolean
  escalationStatus: 'NotResponded' | 'Responded' | 'ResolutionPlan' | 'Resolved' | 'NoEscalation'
  timeEntryNotAllowed: boolean
}

export interface CwType {
  id: number
  name: string
  category: 'Reactive' | 'Proactive'
  defaultFlag: boolean
  inactiveFlag: boolean
}

export interface CwBoard {
  id: number
  name: string
  inactiveFlag: boolean
  projectFlag: boolean
  statuses: CwStatus[]
  types: CwType[]
}

export interface CwPriority {
  id: number
  name: string
  color: string
  defaultFlag: boolean
  sortOrder: number
}

export interface CwCompany {
  id: number
  identifier: string
  name: string
  deletedFlag: boolean
  phoneNumber: string
}

export interface CwNote {
  id: number
  ticketId: number
  text: string
  detailDescriptionFlag: boolean
  internalAnalysisFlag: boolean
  resolutionFlag: boolean
  customerUpdatedFlag: boolean
  dateCreated: string
  createdBy: string
  lastUpdated: string
}

export interface CwTicket {
  id: number
  summary: string
  boardId: number
  statusId: number
  companyId: number
  priorityId: number
  typeId: number | null
  externalXRef: string | null
  /** Kept for tests to inspect; ConnectWise never returns it after the POST. */
  initialDescription: string | null
  severity: 'Low' | 'Medium' | 'High'
  impact: 'Low' | 'Medium' | 'High'
  closedFlag: boolean
  closedDate: string | null
  closedBy: string | null
  dateEntered: string
  enteredBy: string
  lastUpdated: string
  updatedBy: string
  notes: CwNote[]
  /** Merged into this ticket (ConnectWise's `mergedParentTicket`): closed, with the survivor named. */
  mergedParentTicketId?: number | null
  /** The hours of the ticket's time entries (ConnectWise's read-only `actualHours`). */
  actualHours?: number
}

/** A catalogue item (procurement/catalog) an agreement addition bills. */
export interface CwProduct {
  id: number
  identifier: string
  description: string
}

/** An agreement addition: a product billed on the agreement's every cycle, `quantity` times. */
export interface CwAddition {
  id: number
  productId: number
  quantity: number
  lessIncluded: number
  unitPrice: number
  unitCost: number
  billCustomer: 'Billable' | 'DoNotBill' | 'NoCharge'
  effectiveDate: string | null
  /** Set (and past) on a cancelled addition: it is still listed, and bills nothing. */
  cancelledDate: string | null
  invoiceDescription: string | null
  lastUpdated: string
}

export interface CwAgreement {
  id: number
  name: string
  companyId: number
  typeName: string
  startDate: string
  cancelledFlag: boolean
  dateCancelled: string | null
  additions: CwAddition[]
}

export interface ConnectWiseState {
  /** The codebase path segment with its trailing slash, e.g. "v4_6_release/". Change it to simulate an upgrade. */
  codebase: string
  companyId: string
  companyName: string
  /** What /system/info and the api-current-version header report. */
  version: string
  isCloud: boolean
  /** The API member's identifier: it appears as updatedBy, closedBy, createdBy. */
  memberIdentifier: string
  tickets: CwTicket[]
  companies: CwCompany[]
  boards: CwBoard[]
  priorities: CwPriority[]
  products: CwProduct[]
  /** Each company's agreements, their additions inside (what usage counts set). */
  agreements: CwAgreement[]
  nextTicketId: number
  nextNoteId: number
  nextAdditionId: number
  /** /system/callbacks: what pushes where (sync.ts). */
  callbacks: CwCallback[]
  nextCallbackId: number
  /** The key callbacks are signed with, served at its key_url (sync.ts). */
  signingKey: { id: string; key: string }
}

/** A callback entry as POST /system/callbacks stores it. */
export interface CwCallback {
  id: number
  url: string
  objectId: number
  type: string
  level: string
  description: string
  inactiveFlag: boolean
  isSelfSuppressedFlag: boolean
  memberId: number | null
  payloadVersion: string | null
}
