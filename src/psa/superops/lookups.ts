// SuperOps' look-up lists as the mapping screens and the adapter use them (docs/psa/superops.md,
// "Look-ups"): clients (every page of getClientList), technician groups (a ticket's "board"),
// categories (its "type"), priorities and statuses — the statuses marked closed only where the tenant's
// own tickets show them closing or the partner chose one (tickets.ts), never by their names.
import { fail, ok, type PsaCall, type PsaEntity, type PsaResult } from '../adapter.js'
import { byIdOrName } from '../core/names.js'
import type { SuperOpsClient } from './client.js'
import {
  getCategoryList,
  getClientList,
  getPriorityList,
  getStatusList,
  getTechnicianGroupList,
} from './documents.js'

interface Named {
  id?: unknown
  groupId?: unknown
  accountId?: unknown
  name?: unknown
}

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '')

/** A list of `{id, name}` (or `groupId`, `accountId`) as entities; entries without a name are left out. */
export function entities(list: readonly Named[] | null): PsaEntity[] {
  const out: PsaEntity[] = []
  for (const item of list ?? []) {
    const name = text(item?.name)
    if (!name) continue
    const id = text(item.accountId) || text(item.groupId) || text(item.id) || name
    out.push({ id, name })
  }
  return out
}

async function plain(client: SuperOpsClient, doc: Parameters<SuperOpsClient['request']>[0], call: PsaCall) {
  const res = await client.request<Named[]>(doc, {}, call)
  return res.ok ? ok(entities(res.value)) : res
}

export const statuses = (c: SuperOpsClient, call: PsaCall) => plain(c, getStatusList, call)
export const priorities = (c: SuperOpsClient, call: PsaCall) => plain(c, getPriorityList, call)
export const categories = (c: SuperOpsClient, call: PsaCall) => plain(c, getCategoryList, call)
export const groups = (c: SuperOpsClient, call: PsaCall) => plain(c, getTechnicianGroupList, call)

export async function companies(client: SuperOpsClient, call: PsaCall): Promise<PsaResult<PsaEntity[]>> {
  const all = await client.all<Named>(getClientList, 'clients', {}, call)
  return all.ok ? ok(entities(all.value)) : all
}

/** The client a setting names: an accountId as is, else the client SuperOps lists with that name. */
export async function accountIdOf(
  client: SuperOpsClient,
  value: string,
  call: PsaCall,
): Promise<PsaResult<string>> {
  const v = value.trim()
  if (/^\d+$/.test(v)) return ok(v)
  const found = await client.all<Named>(
    getClientList,
    'clients',
    { condition: { attribute: 'name', operator: 'is', value: v } },
    call,
    1,
  )
  if (!found.ok) return found
  const match = byIdOrName(entities(found.value), v)
  return match
    ? ok(match.id)
    : fail({ kind: 'rejected', retryable: false, message: `SuperOps has no client '${v}'` })
}

/** The statuses with `closed` set on those in `closed` (learned, or the partner's). */
export function markClosed(list: readonly PsaEntity[], closed: readonly string[]): PsaEntity[] {
  const set = new Set(closed.map((c) => c.trim().toLowerCase()))
  return list.map((s) => ({ ...s, closed: set.has(s.name.trim().toLowerCase()) }))
}
