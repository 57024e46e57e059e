// Creating and changing tickets and ticket notes as Autotask validates them. Autotask reads request
// bodies leniently (.NET JSON: property names in any case, unknown properties ignored, "5" accepted
// for 5) but answers a missing required field, a bad picklist value or a too-long text with HTTP 500
// and `{"errors":[...]}` (its usual answer to a failed business rule; the tenant's own rules, like
// "tickets need a queue", fail the same way). A ticket moved to another company (PATCH companyID) must
// not keep its old company's contact or location.
import { COMPLETE, type FieldSpec, fieldSpecs } from './seed.js'
import type { AutotaskState, Entity, Ticket, TicketNote } from './types.js'

/** The resource the API user's writes are recorded as (a real tenant shows the API user's resource id). */
export const API_RESOURCE_ID = 29682940

export type Outcome<T> = { ok: true; value: T } | { ok: false; status: number; errors: string[] }

export const refuse = (errors: string[], status = 500): { ok: false; status: number; errors: string[] } => ({
  ok: false,
  status,
  errors,
})

const now = () => new Date().toISOString()

/** The writable fields of `entity` in a body (any case), converted the way .NET would; read-only and
 * unknown fields are dropped, `id` is kept for updates. */
export function coerce(entity: string, body: unknown): Outcome<Entity> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return refuse(['The request body must be a JSON object.'])
  }
  const out: Entity = {}
  const errors: string[] = []
  for (const [rawName, raw] of Object.entries(body)) {
    const spec = fieldSpecs[entity]?.find((s) => s.name.toLowerCase() === rawName.toLowerCase())
    if (rawName.toLowerCase() === 'userdefinedfields' && Array.isArray(raw)) {
      out.userDefinedFields = raw
      continue
    }
    if (!spec || (spec.readOnly && spec.name !== 'id')) continue
    if (raw === null) {
      out[spec.name] = null
      continue
    }
    const bad = () => errors.push(`Error converting value ${JSON.stringify(raw)} for field '${spec.name}'.`)
    if (spec.dataType === 'integer' || spec.dataType === 'long') {
      const n =
        typeof raw === 'number' || (typeof raw === 'string' && raw.trim() !== '') ? Number(raw) : Number.NaN
      if (Number.isInteger(n)) out[spec.name] = n
      else bad()
    } else if (spec.dataType === 'double') {
      const n =
        typeof raw === 'number' || (typeof raw === 'string' && raw.trim() !== '') ? Number(raw) : Number.NaN
      if (Number.isFinite(n)) out[spec.name] = n
      else bad()
    } else if (spec.dataType === 'string') {
      if (typeof raw === 'string' || typeof raw === 'number') out[spec.name] = String(raw)
      else bad()
    } else if (spec.dataType === 'boolean') {
      if (typeof raw === 'boolean') out[spec.name] = raw
      else if (raw === 'true' || raw === 'false') out[spec.name] = raw === 'true'
      else bad()
    } else if (typeof raw === 'string' && !Number.isNaN(Date.parse(raw))) {
      out[spec.name] = new Date(raw).toISOString()
    } else bad()
  }
  return errors.length ? refuse(errors) : { ok: true, value: out }
}

function picklistErrors(state: AutotaskState, entity: string, item: Entity): string[] {
  const errors: string[] = []
  for (const spec of fieldSpecs[entity] ?? []) {
    const value = item[spec.name]
    if (!spec.picklist || value === null || value === undefined) continue
    const entry = state.picklists[entity]?.[spec.name]?.find((p) => p.value === String(value))
    if (!entry?.isActive) {
      errors.push(`Value ${value} is not a valid, active value of the picklist '${spec.name}'.`)
    } else if (spec.parentField && entry.parentValue !== String(item[spec.parentField] ?? '')) {
      errors.push(
        `The ${spec.name} ${value} does not belong to the ${spec.parentField} ${item[spec.parentField]}.`,
      )
    }
  }
  return errors
}

/** The field's length in this tenant: its own where it differs (rules.lengths), else the seeded one. */
export function lengthIn(state: AutotaskState, entity: string, spec: FieldSpec): number | undefined {
  return state.rules.lengths[`${entity}.${spec.name}`] ?? spec.length
}

/** Whether this tenant requires the field beyond the API's own required fields. */
export function requiredIn(state: AutotaskState, entity: string, name: string): boolean {
  return (
    (entity === 'TicketNotes' && name === 'title' && state.rules.requireNoteTitle) ||
    (entity === 'Tickets' && name === 'ticketCategory' && state.rules.requireCategory)
  )
}

/**
 * Missing required fields, texts longer than the field's length (the length the field information
 * serves), and picklist values that are not active values of their picklist.
 */
export function fieldErrors(state: AutotaskState, entity: string, item: Entity): string[] {
  const errors: string[] = []
  for (const spec of fieldSpecs[entity] ?? []) {
    const value = item[spec.name]
    const blank = value === null || value === undefined || value === ''
    const max = lengthIn(state, entity, spec)
    if (blank && (spec.required || requiredIn(state, entity, spec.name))) {
      errors.push(`Missing required field: ${spec.name}.`)
    } else if (typeof value === 'string' && max && value.length > max) {
      errors.push(`The value of ${spec.name} exceeds its maximum length of ${max} characters.`)
    }
  }
  return [...errors, ...picklistErrors(state, entity, item)]
}

function ticketErrors(state: AutotaskState, t: Entity): string[] {
  const errors = fieldErrors(state, 'Tickets', t)
  if (typeof t.companyID === 'number' && !state.companies.some((c) => c.id === t.companyID)) {
    errors.push(`The companyID ${t.companyID} does not reference an existing Company.`)
  }
  const resource = t.assignedResourceID != null
  const role = t.assignedResourceRoleID != null
  if (resource !== role) {
    errors.push(
      'When assigning a Resource, you must assign both a assignedResourceID and assignedResourceRoleID.',
    )
  } else if (state.rules.requireQueue && t.queueID == null && !resource) {
    errors.push(
      'AssignedResourceID, AssignedResourceRoleID, and QueueID cannot all be empty. Supply a QueueID or both a AssignedResourceID and AssignedResourceRoleID.',
    )
  }
  return errors
}

/** Every writable ticket field, empty: what PUT starts from. */
const blankTicket = (): Entity => ({
  ...Object.fromEntries(
    (fieldSpecs.Tickets ?? []).filter((s) => !s.readOnly).map((s) => [s.name, null] as const),
  ),
  completedDate: null,
  completedByResourceID: null,
  userDefinedFields: [],
})

function nextTicketNumber(state: AutotaskState, at: string): string {
  const day = `T${at.slice(0, 10).replaceAll('-', '')}`
  const seq = state.tickets.filter((t) => t.ticketNumber.startsWith(`${day}.`)).length + 1
  return `${day}.${String(seq).padStart(4, '0')}`
}

/** Complete (5) stamps completedDate; any other status clears it. */
function settle(before: Ticket | null, after: Ticket, at: string): void {
  if (after.status === COMPLETE && before?.status !== COMPLETE) {
    after.completedDate = at
    after.completedByResourceID = API_RESOURCE_ID
  } else if (after.status !== COMPLETE) {
    after.completedDate = null
    after.completedByResourceID = null
  }
}

export function createTicket(state: AutotaskState, body: unknown): Outcome<number> {
  const fields = coerce('Tickets', body)
  if (!fields.ok) return fields
  const { id: _ignored, ...sent } = fields.value
  const at = now()
  const ticket = { ...blankTicket(), ...sent } as unknown as Ticket
  const errors = ticketErrors(state, ticket as unknown as Entity)
  if (errors.length) return refuse(errors)
  Object.assign(ticket, {
    id: state.nextId.ticket++,
    ticketNumber: nextTicketNumber(state, at),
    createDate: at,
    lastActivityDate: at,
    lastActivityResourceID: API_RESOURCE_ID,
    lastActivityPersonType: 1,
  })
  settle(null, ticket, at)
  state.tickets.push(ticket)
  return { ok: true, value: ticket.id }
}

/** PATCH changes only the fields sent; PUT replaces the ticket, so every field not sent becomes null. */
export function updateTicket(state: AutotaskState, body: unknown, replace: boolean): Outcome<number> {
  const fields = coerce('Tickets', body)
  if (!fields.ok) return fields
  const { id, ...sent } = fields.value
  if (typeof id !== 'number') return refuse(['The id of the entity to update is missing from the body.'])
  const existing = state.tickets.find((t) => t.id === id)
  if (!existing) {
    return refuse([
      'No matching records found. The logged in Resource may not have the required permissions to update the data.',
    ])
  }
  const kept = {
    id: existing.id,
    ticketNumber: existing.ticketNumber,
    createDate: existing.createDate,
    completedDate: existing.completedDate,
    completedByResourceID: existing.completedByResourceID,
  }
  const base: object = replace ? blankTicket() : existing
  const at = now()
  const next = {
    ...base,
    ...sent,
    ...kept,
    lastActivityDate: at,
    lastActivityResourceID: API_RESOURCE_ID,
    lastActivityPersonType: 1,
  } as Ticket
  const errors = [...ticketErrors(state, next as unknown as Entity), ...keptFromOldCompany(existing, next)]
  if (errors.length) return refuse(errors)
  settle(existing, next, at)
  Object.assign(existing, next)
  return { ok: true, value: id }
}

/**
 * A contact and a location belong to one company: a ticket moved to another company that keeps the
 * ones it had (those of its old company: the simulator keeps no contacts of its own) is refused.
 */
function keptFromOldCompany(before: Ticket, after: Ticket): string[] {
  if (after.companyID === before.companyID) return []
  const was = before as unknown as Entity
  const is = after as unknown as Entity
  return ['contactID', 'companyLocationID']
    .filter((f) => is[f] !== null && is[f] !== undefined && is[f] === was[f])
    .map((f) => `The ${f} ${String(is[f])} does not belong to the Company ${after.companyID}.`)
}

/** A note as the API writes it (`actor`: the resource it is recorded as; a technician's in the UI). */
export function createNote(
  state: AutotaskState,
  ticketId: number,
  body: unknown,
  actor = API_RESOURCE_ID,
): Outcome<number> {
  const ticket = state.tickets.find((t) => t.id === ticketId)
  if (!ticket) return refuse([`The parent Ticket ${ticketId} does not exist.`])
  const fields = coerce('TicketNotes', body)
  if (!fields.ok) return fields
  const { id: _ignored, ...sent } = fields.value
  if (sent.ticketID !== undefined && sent.ticketID !== null && sent.ticketID !== ticketId) {
    return refuse([`The ticketID ${sent.ticketID} in the body does not match the parent Ticket ${ticketId}.`])
  }
  const note = { title: null, createdByContactID: null, ...sent, ticketID: ticketId } as Entity
  const errors = fieldErrors(state, 'TicketNotes', note)
  if (errors.length) return refuse(errors)
  const at = now()
  const created = {
    ...note,
    id: state.nextId.note++,
    createDateTime: at,
    lastActivityDate: at,
    creatorResourceID: actor,
  } as unknown as TicketNote
  const key = String(ticketId)
  state.notes[key] = [...(state.notes[key] ?? []), created]
  Object.assign(ticket, { lastActivityDate: at, lastActivityResourceID: actor, lastActivityPersonType: 1 })
  return { ok: true, value: created.id }
}
