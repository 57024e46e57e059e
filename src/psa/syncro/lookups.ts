// Syncro's look-up lists as the mapping screens and the adapter use them: customers (a customer that is
// a person has no business name: it is named by its person), problem types (Syncro's closest thing to a
// board; read from /settings, or /ticket_problem_types on accounts that have it), ticket statuses from
// /tickets/settings with the closed ones marked, and priorities (fixed strings in Syncro).
import type { PsaCall, PsaEntity, PsaResult } from '../adapter.js'
import { byIdOrName } from '../core/names.js'
import { listOf, type SyncroClient } from './client.js'

export interface SyncroCustomer {
  id: number | string
  business_name?: string | null
  fullname?: string | null
  firstname?: string | null
  lastname?: string | null
  first_name?: string | null
  last_name?: string | null
  email?: string | null
  disabled?: boolean | null
}

/**
 * The statuses Syncro itself treats as closed: "Resolved" ends a ticket (its resolution timers and
 * automations stop, `resolved_at` is set) and "Invoiced" comes after it. Matched by their exact names:
 * a custom status that only starts with "Resolved" (say "Resolved - Pending Confirmation") is another
 * status, not these.
 */
const closedStatuses = ['resolved', 'invoiced']
export const resolved = 'Resolved'

/** Syncro's ticket priorities; no endpoint lists them. */
const fixedPriorities = ['0 Urgent', '1 High', '2 Normal', '3 Low']

const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : '')

/** A customer's name: its business name, else the person's full name, else its e-mail, never empty. */
export function customerName(c: SyncroCustomer): string {
  const person =
    text(c.fullname) ||
    [text(c.firstname ?? c.first_name), text(c.lastname ?? c.last_name)].filter(Boolean).join(' ')
  return text(c.business_name) || person || text(c.email) || `Customer ${c.id}`
}

export async function companies(client: SyncroClient, call: PsaCall): Promise<PsaResult<PsaEntity[]>> {
  const all = await client.all<SyncroCustomer>('/customers', 'customers', call)
  if (!all.ok) return all
  return {
    ok: true,
    value: all.value
      .filter((c) => c.disabled !== true)
      .map((c) => ({ id: String(c.id), name: customerName(c) })),
  }
}

/** The customer a setting names: its id, else a customer found by Syncro's search with that name. */
export async function customerId(
  client: SyncroClient,
  value: string,
  call: PsaCall,
): Promise<PsaResult<number>> {
  if (/^\d+$/.test(value.trim())) return { ok: true, value: Number(value.trim()) }
  const found = await client.all<SyncroCustomer>('/customers', 'customers', call, { query: value })
  if (!found.ok) return found
  const entities = found.value.map((c) => ({ id: String(c.id), name: customerName(c) }))
  const match = byIdOrName(entities, value)
  return match
    ? { ok: true, value: Number(match.id) }
    : {
        ok: false,
        failure: { kind: 'rejected', retryable: false, message: `Syncro has no customer '${value}'` },
      }
}

/**
 * A list of names or of objects (`{id, name}`, or a status with a closed flag), as entities. A name is
 * its own id: Syncro takes problem types, statuses and priorities by name.
 */
function named(list: unknown[], closedByName: boolean): PsaEntity[] {
  const out: PsaEntity[] = []
  for (const item of list) {
    const o = item && typeof item === 'object' ? (item as Record<string, unknown>) : null
    const name = o ? text(o.name) || text(o.status) || text(o.label) : text(item)
    if (!name) continue
    const flag = o ? (o.closed ?? o.is_closed ?? o.resolved) : undefined
    const closed = typeof flag === 'boolean' ? flag : closedStatuses.includes(name.toLowerCase())
    const id = o && (typeof o.id === 'number' || typeof o.id === 'string') ? String(o.id) : name
    out.push({ id, name, ...(closedByName ? { closed } : {}) })
  }
  return out
}

/** Problem types: `/settings` → `ticket.problem_types`, or `/ticket_problem_types` (newer accounts). */
export async function problemTypes(client: SyncroClient, call: PsaCall): Promise<PsaResult<PsaEntity[]>> {
  const settings = await client.api('GET', '/settings', call)
  if (settings.ok) {
    const body = settings.value.body as { ticket?: { problem_types?: unknown } } | null
    const list = body?.ticket?.problem_types
    if (Array.isArray(list) && list.length > 0) return { ok: true, value: named(list, false) }
  } else if (
    ['auth', 'rate-limited', 'timeout', 'unreachable', 'unavailable'].includes(settings.failure.kind)
  ) {
    return settings
  }
  const types = await client.all<unknown>('/ticket_problem_types', 'ticket_problem_types', call)
  if (!types.ok) return settings.ok ? types : settings
  return { ok: true, value: named(types.value, false) }
}

/** What /tickets/settings says: the ticket statuses, and the priorities where it lists them. */
export async function ticketSettings(
  client: SyncroClient,
  call: PsaCall,
): Promise<PsaResult<{ statuses: PsaEntity[]; priorities: PsaEntity[] }>> {
  const res = await client.api('GET', '/tickets/settings', call)
  if (!res.ok) return res
  const body = (res.value.body ?? {}) as Record<string, unknown>
  const settings = (body.settings && typeof body.settings === 'object' ? body.settings : body) as Record<
    string,
    unknown
  >
  const statuses = listOf<unknown>(settings, 'ticket_status_list')
  const priorities = ['ticket_priority_list', 'priority_list', 'priorities']
    .map((key) => listOf<unknown>(settings, key))
    .find((l) => l.length > 0)
  return {
    ok: true,
    value: {
      statuses: named(statuses, true),
      priorities: named(priorities ?? fixedPriorities, false),
    },
  }
}

/** The closed status a close uses when none is named: Syncro's own "Resolved", else one it marks closed. */
export function closingStatus(statuses: PsaEntity[]): PsaEntity | null {
  const closed = statuses.filter((s) => s.closed === true)
  return closed.find((s) => s.name.toLowerCase() === resolved.toLowerCase()) ?? closed[0] ?? null
}

/** A priority setting: the name, or the name without its number ("Normal"), or its number ("2"). */
export function priorityOf(list: PsaEntity[], value: string): string {
  const v = value.trim().toLowerCase()
  const found =
    byIdOrName(list, value) ??
    list.find((p) => p.name.replace(/^\d+\s+/, '').toLowerCase() === v) ??
    list.find((p) => p.name.split(/\s+/)[0] === v)
  // A priority this build does not know is sent as given: Syncro's answer says whether it takes it.
  return found?.name ?? value.trim()
}
