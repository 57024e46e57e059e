// Checking a ticket's fields and references, shared by POST (create) and PATCH (update). A reference is
// an object naming the record by `id` (or `name`; `identifier` for a company); the record must exist,
// and a status or type must belong to the ticket's board. Errors come back the way ConnectWise words
// them, e.g. {"code":"NotFound","message":"Service Status 17 not found for Service Board 21",
// "resource":"ticket","field":"status/id"}.
import type { FieldError } from './deps.js'
import type { ConnectWiseState, CwBoard, CwStatus, CwTicket } from './types.js'

export interface Ref {
  id?: number
  name?: string
  identifier?: string
}

export type Draft = Pick<
  CwTicket,
  | 'summary'
  | 'companyId'
  | 'boardId'
  | 'statusId'
  | 'priorityId'
  | 'typeId'
  | 'externalXRef'
  | 'severity'
  | 'impact'
>

/** Raw values from a request body (or from PATCH operations turned into the same shape). */
export interface Changes {
  summary?: unknown
  externalXRef?: unknown
  company?: unknown
  board?: unknown
  status?: unknown
  priority?: unknown
  type?: unknown
  severity?: unknown
  impact?: unknown
}

export const SUMMARY_MAX = 100
export const XREF_MAX = 100
const LEVELS = ['Low', 'Medium', 'High'] as const

export function parseRef(value: unknown): Ref | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null
  const v = value as Record<string, unknown>
  const ref: Ref = {}
  if (typeof v.id === 'number' && Number.isInteger(v.id)) ref.id = v.id
  else if (typeof v.id === 'string' && /^\d+$/.test(v.id)) ref.id = Number(v.id)
  if (typeof v.name === 'string') ref.name = v.name
  if (typeof v.identifier === 'string') ref.identifier = v.identifier
  return ref.id === undefined && ref.name === undefined && ref.identifier === undefined ? null : ref
}

function pick<T extends { id: number; name: string; identifier?: string }>(list: readonly T[], ref: Ref) {
  const same = (a: string | undefined, b: string) => a?.toLowerCase() === b.toLowerCase()
  if (ref.id !== undefined) return list.find((x) => x.id === ref.id)
  if (ref.identifier !== undefined) return list.find((x) => same(x.identifier, ref.identifier ?? ''))
  return list.find((x) => same(x.name, ref.name ?? ''))
}

const label = (ref: Ref) => (ref.id !== undefined ? String(ref.id) : `"${ref.identifier ?? ref.name}"`)
const fieldOf = (kind: string, ref: Ref) =>
  `${kind}/${ref.id !== undefined ? 'id' : ref.identifier !== undefined ? 'identifier' : 'name'}`

export function defaultStatus(board: CwBoard): CwStatus | undefined {
  const active = board.statuses.filter((s) => !s.inactive).sort((a, b) => a.sortOrder - b.sortOrder)
  return active.find((s) => s.defaultFlag) ?? active[0]
}

/** The draft a POST starts from: the first board, its default status, the default priority. */
export function newDraft(state: ConnectWiseState): Draft {
  const board = state.boards[0]
  const priority = state.priorities.find((p) => p.defaultFlag) ?? state.priorities[0]
  return {
    summary: '',
    companyId: 0,
    boardId: board?.id ?? 0,
    statusId: (board && defaultStatus(board)?.id) ?? 0,
    priorityId: priority?.id ?? 0,
    typeId: null,
    externalXRef: null,
    severity: 'Medium',
    impact: 'Medium',
  }
}

export function resolveChanges(
  state: ConnectWiseState,
  base: Draft,
  c: Changes,
): { draft: Draft; errors: FieldError[] } {
  const draft: Draft = { ...base }
  const errors: FieldError[] = []
  const err = (code: string, message: string, field: string) =>
    errors.push({ code, message, resource: 'ticket', field })
  const refOrError = (kind: string, raw: unknown): Ref | null => {
    const ref = parseRef(raw)
    if (!ref) err('InvalidField', `${kind} must be a reference object such as {"id": 1}.`, kind)
    return ref
  }
  const text = (field: 'summary' | 'externalXRef', raw: unknown, max: number, nullable: boolean) => {
    if (raw === null && nullable) return null
    if (typeof raw !== 'string') {
      err('InvalidField', `The field ${field} must be a string.`, field)
      return undefined
    }
    if (raw.length > max) {
      err('MaxLengthField', `The field ${field} must be a string with a maximum length of ${max}.`, field)
      return undefined
    }
    return raw
  }

  if (c.summary !== undefined) {
    const s = text('summary', c.summary, SUMMARY_MAX, false)
    if (typeof s === 'string' && s.trim() === '')
      err('MissingRequiredField', 'The field summary is required.', 'summary')
    else if (s) draft.summary = s
  }
  if (c.externalXRef !== undefined) {
    const x = text('externalXRef', c.externalXRef, XREF_MAX, true)
    if (x !== undefined) draft.externalXRef = x === '' ? null : x
  }
  for (const key of ['severity', 'impact'] as const) {
    const raw = c[key]
    if (raw === undefined) continue
    const level = LEVELS.find((l) => l === raw)
    if (level) draft[key] = level
    else err('InvalidField', `${key} must be one of Low, Medium, High.`, key)
  }
  if (c.company !== undefined) {
    const ref = refOrError('company', c.company)
    const company = ref && pick(state.companies, ref)
    if (ref && (!company || company.deletedFlag))
      err('NotFound', `Company ${label(ref)} not found`, fieldOf('company', ref))
    else if (company) draft.companyId = company.id
  }
  if (c.board !== undefined) {
    const ref = refOrError('board', c.board)
    const board = ref && pick(state.boards, ref)
    if (ref && !board) err('NotFound', `Service Board ${label(ref)} not found`, fieldOf('board', ref))
    else if (board && board.id !== draft.boardId) {
      draft.boardId = board.id
      if (c.status === undefined) draft.statusId = defaultStatus(board)?.id ?? 0
      if (c.type === undefined && !board.types.some((t) => t.id === draft.typeId)) draft.typeId = null
    }
  }
  const board = state.boards.find((b) => b.id === draft.boardId)
  if (c.status !== undefined) {
    const ref = refOrError('status', c.status)
    const status = ref && board && pick(board.statuses, ref)
    if (ref && !status) {
      err(
        'NotFound',
        `Service Status ${label(ref)} not found for Service Board ${draft.boardId}`,
        fieldOf('status', ref),
      )
    } else if (status) draft.statusId = status.id
  }
  if (c.type !== undefined && c.type !== null) {
    const ref = refOrError('type', c.type)
    const type = ref && board && pick(board.types, ref)
    if (ref && !type) {
      err(
        'NotFound',
        `Service Type ${label(ref)} not found for Service Board ${draft.boardId}`,
        fieldOf('type', ref),
      )
    } else if (type) draft.typeId = type.id
  } else if (c.type === null) draft.typeId = null
  if (c.priority !== undefined) {
    const ref = refOrError('priority', c.priority)
    const priority = ref && pick(state.priorities, ref)
    if (ref && !priority) err('NotFound', `Priority ${label(ref)} not found`, fieldOf('priority', ref))
    else if (priority) draft.priorityId = priority.id
  }
  return { draft, errors }
}

/** Sets closedFlag/closedDate/closedBy from the status: closed exactly when its closedStatus is true. */
export function applyClosure(state: ConnectWiseState, t: CwTicket, now: string): void {
  const status = state.boards.find((b) => b.id === t.boardId)?.statuses.find((s) => s.id === t.statusId)
  const closed = status?.closedStatus === true
  if (closed && !t.closedFlag) {
    t.closedFlag = true
    t.closedDate = now
    t.closedBy = state.memberIdentifier
  } else if (!closed && t.closedFlag) {
    t.closedFlag = false
    t.closedDate = null
    t.closedBy = null
  }
}
