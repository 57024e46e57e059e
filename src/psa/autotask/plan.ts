// What a new Autotask ticket is created with, worked out from the tenant's picklists
// (Tickets/entityInformation/fields) before anything is written. Autotask refuses a ticket without a
// queue (or an assigned resource and role), without a status or a priority, and, where the tenant
// requires one, without a ticket category; it does not fill them in from its picklist defaults by
// itself (docs/psa/autotask.md, "Required fields"). So each is taken from what the partner set, else
// the value the picklist marks as default, and where neither gives one, the create (and the connection
// test) is refused with one sentence saying where to choose it. The connection test describes the
// same plan, so what it says is what every alert does.
import { fail, ok, type PsaEntity, type PsaResult } from '../adapter.js'
import { byIdOrName } from '../core/names.js'
import type { Picklist } from './client.js'

/** Autotask's system status New: the status a ticket gets where neither the partner nor the tenant chose one. */
export const newStatus = '1'
/** Autotask's system status Complete: a ticket in it is closed. */
export const complete = '5'

/** What the partner chose for a new ticket (ids or labels), null where nothing was chosen. */
export interface TicketChoices {
  /** The rule's queue, else the account mapping's, else the connection's defaults.board. */
  board: string | null
  status: string | null
  priority: string | null
  type: string | null
  category: string | null
  source: string | null
}

/** Where a chosen value came from. */
export type Origin = 'chosen' | 'default' | 'system'

export interface Chosen {
  field: string
  /** What the field is called in sentences ("queue", "ticket category"). */
  what: string
  id: number
  label: string
  from: Origin
}

/** The fields a new ticket is given, in the order sentences name them. */
export interface Plan {
  chosen: Chosen[]
  /** The fields sent, by their Autotask names. */
  body: Record<string, number>
}

interface Spec {
  field: string
  what: string
  choice: keyof TicketChoices
  /** Where a partner chooses it: the portal's label and the API's field. */
  portalLabel: string
  api: string
  /** Without a choice or a picklist default: refuse, use a system value, or send nothing. */
  otherwise: 'required' | 'new' | 'optional' | 'required-if-marked'
  /** What the plural of `what` is in a list of names. */
  plural: string
}

const specs: Spec[] = [
  {
    field: 'queueID',
    what: 'queue',
    plural: 'queues',
    choice: 'board',
    portalLabel: 'default "Board / queue"',
    api: 'defaults.board',
    otherwise: 'required',
  },
  {
    field: 'status',
    what: 'status',
    plural: 'statuses',
    choice: 'status',
    portalLabel: 'default "New ticket status"',
    api: 'defaults.status',
    otherwise: 'new',
  },
  {
    field: 'priority',
    what: 'priority',
    plural: 'priorities',
    choice: 'priority',
    portalLabel: 'default "Priority"',
    api: 'defaults.priority',
    otherwise: 'required',
  },
  {
    field: 'issueType',
    what: 'issue type',
    plural: 'issue types',
    choice: 'type',
    portalLabel: 'default "Ticket type"',
    api: 'defaults.type',
    otherwise: 'optional',
  },
  {
    field: 'ticketCategory',
    what: 'ticket category',
    plural: 'ticket categories',
    choice: 'category',
    portalLabel: '"Ticket category"',
    api: 'ticketCategory',
    otherwise: 'required-if-marked',
  },
  {
    field: 'source',
    what: 'source',
    plural: 'sources',
    choice: 'source',
    portalLabel: '"Ticket source"',
    api: 'source',
    otherwise: 'optional',
  },
]

const fieldOf = (fields: Picklist[], name: string) =>
  fields.find((f) => f.name.toLowerCase() === name.toLowerCase())

/** A picklist's active values as look-up entries, in Autotask's order. */
export function entries(fields: Picklist[], name: string): PsaEntity[] {
  return (fieldOf(fields, name)?.picklistValues ?? [])
    .filter((v) => v.isActive !== false)
    .sort((a, b) => (a.sortOrder ?? 0) - (b.sortOrder ?? 0))
    .map((v) => ({
      id: String(v.value),
      name: v.label,
      ...(name === 'status' ? { closed: String(v.value) === complete } : {}),
    }))
}

/** The active value the picklist marks as its default, if any. */
export function defaultOf(fields: Picklist[], name: string): PsaEntity | null {
  const value = fieldOf(fields, name)?.picklistValues?.find((v) => v.isDefaultValue && v.isActive !== false)
  return value ? { id: String(value.value), name: value.label } : null
}

/** The field's length as the tenant's field information gives it, else the documented one. */
export function lengthOf(fields: Picklist[], name: string, fallback: number): number {
  const length = fieldOf(fields, name)?.length
  return typeof length === 'number' && length > 0 ? length : fallback
}

/** Whether the tenant's field information says the field may be queried (yes where it does not say). */
export function queryable(fields: Picklist[], name: string): boolean {
  return fieldOf(fields, name)?.isQueryable !== false
}

/** A few of a picklist's labels, quoted, for a sentence. */
function someNames(fields: Picklist[], name: string, max = 5): string {
  const all = entries(fields, name).map((e) => `'${e.name}'`)
  if (all.length === 0) return 'none'
  const shown = all.slice(0, max)
  return all.length > max ? `${shown.join(', ')} and ${all.length - max} more` : shown.join(', ')
}

const listed = (items: string[]) =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`

/**
 * The plan for a new ticket, or the refusal: a chosen value that names no active picklist value, or a
 * field Autotask needs for which neither a choice nor a picklist default gives a value.
 */
export function planTicket(
  fields: Picklist[],
  choices: TicketChoices,
  /** Every choice is the connection's own (the connection test); else board, status, priority and type
   * may come from a rule or an account mapping too. */
  fromConnection = false,
): PsaResult<Plan> {
  const chosen: Chosen[] = []
  const missing: Spec[] = []
  for (const spec of specs) {
    const choice = choices[spec.choice]
    if (choice !== null) {
      const found = byIdOrName(entries(fields, spec.field), choice)
      if (!found) {
        const where =
          fromConnection || !spec.api.startsWith('defaults.')
            ? `; choose one in the connection's ${spec.portalLabel} (${spec.api})`
            : ''
        return fail({
          kind: 'rejected',
          retryable: false,
          message: `Autotask has no ${spec.what} '${choice}' (its ${spec.plural}: ${someNames(fields, spec.field)})${where}`,
        })
      }
      chosen.push({ ...spec, id: Number(found.id), label: found.name, from: 'chosen' })
      continue
    }
    const marked = defaultOf(fields, spec.field)
    if (marked) {
      chosen.push({ ...spec, id: Number(marked.id), label: marked.name, from: 'default' })
      continue
    }
    if (spec.otherwise === 'new') {
      const label = entries(fields, spec.field).find((e) => e.id === newStatus)?.name ?? 'New'
      chosen.push({ ...spec, id: Number(newStatus), label, from: 'system' })
    } else if (
      spec.otherwise === 'required' ||
      (spec.otherwise === 'required-if-marked' && fieldOf(fields, spec.field)?.isRequired === true)
    ) {
      missing.push(spec)
    }
  }
  if (missing.length > 0) return fail(missingChoices(fields, missing))
  return ok({ chosen, body: Object.fromEntries(chosen.map((c) => [c.field, c.id])) })
}

/** One sentence: what Autotask needs on every new ticket, where to choose it, and some of the names. */
function missingChoices(fields: Picklist[], missing: Spec[]) {
  const whats = missing.map((s) => `a ${s.what}`)
  const names = missing.map((s) => `${s.plural}: ${someNames(fields, s.field)}`).join('; ')
  return {
    kind: 'rejected' as const,
    retryable: false,
    message:
      `Autotask needs ${listed(whats)} on every new ticket and none is chosen: choose the connection's ` +
      `${listed(missing.map((s) => s.portalLabel))} in the portal (or ${listed(missing.map((s) => s.api))} in ` +
      `PUT /api/partner/psa), since Autotask marks no default (${names})`,
  }
}

/** The plan in words, for the connection test: "queue 'Service Desk' (Autotask's default queue), …". */
export function describePlan(plan: Plan): string {
  const parts = plan.chosen.map((c) => {
    const why =
      c.from === 'chosen'
        ? "the connection's setting"
        : c.from === 'default'
          ? `Autotask's default ${c.what}`
          : "Autotask's system status"
    const unless = c.field === 'queueID' ? ', unless a rule or an account mapping names another' : ''
    return `${c.what} '${c.label}' (${why}${unless})`
  })
  const category = plan.chosen.some((c) => c.field === 'ticketCategory')
    ? ''
    : '; no ticket category is sent, so Autotask applies its own'
  return `New tickets get ${listed(parts)}${category}`
}
