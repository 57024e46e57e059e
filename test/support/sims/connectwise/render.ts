// How the simulator writes its records on the wire, in ConnectWise's shapes: every nested reference
// carries `_info.{name}_href`, dates are "yyyy-MM-ddTHH:mm:ssZ", and fields whose value is null are
// left out of the JSON (an open ticket has no `closedDate` key at all).
import type {
  ConnectWiseState,
  CwBoard,
  CwCompany,
  CwNote,
  CwPriority,
  CwStatus,
  CwTicket,
  CwType,
} from './types.js'

export interface RenderContext {
  /** e.g. http://127.0.0.1:1234/v4_6_release/apis/3.0 */
  base: string
  state: ConnectWiseState
}

export type Json = Record<string, unknown>

/** ConnectWise's date format: ISO 8601 in UTC without milliseconds. */
export function cwNow(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z')
}

/** Drops keys whose value is null or undefined, as ConnectWise leaves null fields out. */
export function compact(o: Json): Json {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined))
}

export function boardOf(state: ConnectWiseState, id: number): CwBoard | undefined {
  return state.boards.find((b) => b.id === id)
}

export function statusRef(ctx: RenderContext, boardId: number, s: CwStatus): Json {
  return {
    id: s.id,
    name: s.name,
    Sort: s.sortOrder,
    _info: { status_href: `${ctx.base}/service/boards/${boardId}/statuses/${s.id}` },
  }
}

export function companyRef(ctx: RenderContext, c: CwCompany): Json {
  return {
    id: c.id,
    identifier: c.identifier,
    name: c.name,
    _info: { company_href: `${ctx.base}/company/companies/${c.id}` },
  }
}

export function renderTicket(ctx: RenderContext, t: CwTicket): Json {
  const board = boardOf(ctx.state, t.boardId)
  const status = board?.statuses.find((s) => s.id === t.statusId)
  const type = board?.types.find((x) => x.id === t.typeId)
  const company = ctx.state.companies.find((c) => c.id === t.companyId)
  const priority = ctx.state.priorities.find((p) => p.id === t.priorityId)
  const self = `${ctx.base}/service/tickets/${t.id}`
  return compact({
    id: t.id,
    summary: t.summary,
    recordType: 'ServiceTicket',
    board: board && {
      id: board.id,
      name: board.name,
      _info: { board_href: `${ctx.base}/service/boards/${board.id}` },
    },
    status: status && board && statusRef(ctx, board.id, status),
    company: company && companyRef(ctx, company),
    type: type &&
      board && {
        id: type.id,
        name: type.name,
        _info: { type_href: `${ctx.base}/service/boards/${board.id}/types/${type.id}` },
      },
    priority: priority && {
      id: priority.id,
      name: priority.name,
      sort: priority.sortOrder,
      _info: { priority_href: `${ctx.base}/service/priorities/${priority.id}` },
    },
    severity: t.severity,
    impact: t.impact,
    externalXRef: t.externalXRef,
    closedDate: t.closedDate,
    closedBy: t.closedBy,
    closedFlag: t.closedFlag,
    actualHours: t.actualHours ?? 0,
    mergedParentTicket: mergedRef(ctx, t.mergedParentTicketId),
    enteredBy: t.enteredBy,
    customerUpdatedFlag: false,
    approved: true,
    isInSla: true,
    _info: {
      lastUpdated: t.lastUpdated,
      updatedBy: t.updatedBy,
      dateEntered: t.dateEntered,
      enteredBy: t.enteredBy,
      activities_href: `${ctx.base}/sales/activities?conditions=ticket/id=${t.id}`,
      scheduleentries_href: `${ctx.base}/schedule/entries?conditions=type/id='S' AND objectId=${t.id}`,
      documents_href: `${ctx.base}/system/documents?recordType=Ticket&recordId=${t.id}`,
      configurations_href: `${self}/configurations`,
      tasks_href: `${self}/tasks`,
      notes_href: `${self}/notes`,
      products_href: `${ctx.base}/procurement/products?conditions=chargeToType='Ticket' AND chargeToId=${t.id}`,
      timeentries_href: `${ctx.base}/time/entries?conditions=(chargeToType='ServiceTicket' OR chargeToType='ProjectTicket') AND chargeToId=${t.id}`,
    },
  })
}

function mergedRef(ctx: RenderContext, id: number | null | undefined): Json | null {
  if (id === null || id === undefined) return null
  const parent = ctx.state.tickets.find((t) => t.id === id)
  return { id, summary: parent?.summary, _info: { ticket_href: `${ctx.base}/service/tickets/${id}` } }
}

/** Every top-level field a ticket can carry (for checking condition field names). */
export const TICKET_FIELDS = [
  'id',
  'summary',
  'recordType',
  'board',
  'status',
  'company',
  'type',
  'priority',
  'severity',
  'impact',
  'externalXRef',
  'closedDate',
  'closedBy',
  'closedFlag',
  'actualHours',
  'mergedParentTicket',
  'enteredBy',
  'customerUpdatedFlag',
  'approved',
  'isInSla',
  'lastUpdated',
  'dateEntered',
  '_info',
] as const

export function renderNote(ctx: RenderContext, n: CwNote): Json {
  const member = ctx.state.memberIdentifier
  return {
    id: n.id,
    ticketId: n.ticketId,
    text: n.text,
    detailDescriptionFlag: n.detailDescriptionFlag,
    internalAnalysisFlag: n.internalAnalysisFlag,
    resolutionFlag: n.resolutionFlag,
    issueFlag: false,
    member: {
      id: 176,
      identifier: member,
      name: member,
      _info: { member_href: `${ctx.base}/system/members/176` },
    },
    dateCreated: n.dateCreated,
    createdBy: n.createdBy,
    internalFlag: n.internalAnalysisFlag,
    externalFlag: n.detailDescriptionFlag || n.resolutionFlag,
    customerUpdatedFlag: n.customerUpdatedFlag,
    _info: { lastUpdated: n.lastUpdated, updatedBy: n.createdBy },
  }
}

export function renderCompany(ctx: RenderContext, c: CwCompany): Json {
  return compact({
    id: c.id,
    identifier: c.identifier,
    name: c.name,
    status: { id: 1, name: 'Active', _info: { status_href: `${ctx.base}/company/companies/statuses/1` } },
    phoneNumber: c.phoneNumber || null,
    deletedFlag: c.deletedFlag,
    _info: {
      lastUpdated: '2024-01-15T12:00:00Z',
      updatedBy: 'admin1',
      contacts_href: `${ctx.base}/company/contacts?conditions=company/id=${c.id}`,
    },
  })
}

export function renderBoard(ctx: RenderContext, b: CwBoard): Json {
  return {
    id: b.id,
    name: b.name,
    inactiveFlag: b.inactiveFlag,
    projectFlag: b.projectFlag,
    billTime: 'NoDefault',
    _info: {
      lastUpdated: '2024-01-15T12:00:00Z',
      updatedBy: 'admin1',
      statuses_href: `${ctx.base}/service/boards/${b.id}/statuses`,
      types_href: `${ctx.base}/service/boards/${b.id}/types`,
    },
  }
}

export function renderStatus(ctx: RenderContext, b: CwBoard, s: CwStatus): Json {
  return {
    id: s.id,
    name: s.name,
    board: { id: b.id, name: b.name, _info: { board_href: `${ctx.base}/service/boards/${b.id}` } },
    sortOrder: s.sortOrder,
    displayOnBoard: s.displayOnBoard,
    inactive: s.inactive,
    closedStatus: s.closedStatus,
    timeEntryNotAllowed: s.timeEntryNotAllowed,
    defaultFlag: s.defaultFlag,
    escalationStatus: s.escalationStatus,
    customerPortalFlag: false,
    _info: { lastUpdated: '2024-01-15T12:00:00Z', updatedBy: 'admin1' },
  }
}

export function renderType(ctx: RenderContext, b: CwBoard, t: CwType): Json {
  return {
    id: t.id,
    name: t.name,
    category: t.category,
    defaultFlag: t.defaultFlag,
    inactiveFlag: t.inactiveFlag,
    requestForChangeFlag: false,
    board: { id: b.id, name: b.name, _info: { board_href: `${ctx.base}/service/boards/${b.id}` } },
    _info: { lastUpdated: '2024-01-15T12:00:00Z', updatedBy: 'admin1' },
  }
}

export function renderPriority(ctx: RenderContext, p: CwPriority): Json {
  return {
    id: p.id,
    name: p.name,
    color: p.color,
    defaultFlag: p.defaultFlag,
    sortOrder: p.sortOrder,
    _info: {
      priority_href: `${ctx.base}/service/priorities/${p.id}`,
      image_href: `${ctx.base}/service/priorities/${p.id}/image?lm=2024-01-15T12:00:00Z`,
    },
  }
}
