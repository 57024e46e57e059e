// NinjaOne's lists, kept five minutes per connection (docs/psa/ninjaone.md#closed-statuses): statuses
// (closed: a status whose system name, or its parent's, is RESOLVED or CLOSED — never one whose
// display name merely sounds closed), ticket forms (one marked default), boards, and the fixed enums
// of priorities and types.
import type { PsaCall, PsaEntity, PsaResult } from '../adapter.js'
import { CachedResult } from '../core/connections.js'
import { idText, isItem, type NinjaClient, type NinjaItem } from './client.js'

const ttlMs = 5 * 60 * 1000

export const priorities = ['NONE', 'LOW', 'MEDIUM', 'HIGH'] as const
export const ticketTypes = ['PROBLEM', 'QUESTION', 'INCIDENT', 'TASK'] as const
/** The system statuses a ticket is closed in (their own name, or their parent's). */
const closedNames = new Set(['RESOLVED', 'CLOSED'])
/** The status a new ticket gets where nothing says: NinjaOne's New. */
export const newStatusId = '1000'

export interface NinjaStatus extends PsaEntity {
  /** The system name (NEW, OPEN, RESOLVED, ...). */
  systemName: string
  closed: boolean
}

export interface NinjaForm extends PsaEntity {
  isDefault: boolean
}

export const enumList = (values: readonly string[]): PsaEntity[] =>
  values.map((v) => ({ id: v, name: v.charAt(0) + v.slice(1).toLowerCase() }))

/** Statuses as NinjaOne lists them, each marked closed by the rule above. */
export function statusesOf(items: readonly NinjaItem[]): NinjaStatus[] {
  const byId = new Map(items.map((s) => [idText(s.statusId ?? s.id), s]))
  const system = (s: NinjaItem | undefined) => (typeof s?.name === 'string' ? s.name.toUpperCase() : '')
  return items.flatMap((s) => {
    const id = idText(s.statusId ?? s.id)
    if (id === null) return []
    const parent = byId.get(idText(s.parentId))
    const closed = closedNames.has(system(s)) || (parent !== undefined && closedNames.has(system(parent)))
    const shown = typeof s.displayName === 'string' && s.displayName !== '' ? s.displayName : system(s)
    return [{ id, name: shown, systemName: system(s), closed }]
  })
}

/** Whether a ticket's status (the object NinjaOne answers, or an id) is closed. */
export function statusClosed(status: unknown, statuses: readonly NinjaStatus[]): boolean {
  if (isItem(status)) {
    const id = idText(status.statusId ?? status.id)
    const known = statuses.find((s) => s.id === id)
    if (known) return known.closed
    const parent = statuses.find((s) => s.id === idText(status.parentId))
    const name = typeof status.name === 'string' ? status.name.toUpperCase() : ''
    return closedNames.has(name) || (parent?.closed ?? false)
  }
  const id = idText(status)
  return statuses.find((s) => s.id === id)?.closed ?? false
}

const named = (item: NinjaItem, what: string): string =>
  typeof item.name === 'string' && item.name !== '' ? item.name : `${what} ${idText(item.id) ?? ''}`

export class NinjaLists {
  private readonly statuses = new CachedResult<NinjaStatus[]>(ttlMs)
  private readonly forms = new CachedResult<NinjaForm[]>(ttlMs)
  private readonly boards = new CachedResult<(PsaEntity & { system: boolean })[]>(ttlMs)

  constructor(private readonly client: NinjaClient) {}

  statusList(call: PsaCall, fresh = false): Promise<PsaResult<NinjaStatus[]>> {
    return this.statuses.get(
      async (own) => {
        const res = await this.client.list('/ticketing/statuses', own)
        return res.ok ? { ok: true, value: statusesOf(res.value) } : res
      },
      call,
      fresh,
    )
  }

  formList(call: PsaCall, fresh = false): Promise<PsaResult<NinjaForm[]>> {
    return this.forms.get(
      async (own) => {
        const res = await this.client.list('/ticketing/ticket-form', own)
        if (!res.ok) return res
        return {
          ok: true,
          value: res.value.flatMap((f) => {
            const id = idText(f.id)
            return id === null ? [] : [{ id, name: named(f, 'Form'), isDefault: f.default === true }]
          }),
        }
      },
      call,
      fresh,
    )
  }

  boardList(call: PsaCall, fresh = false): Promise<PsaResult<(PsaEntity & { system: boolean })[]>> {
    return this.boards.get(
      async (own) => {
        const res = await this.client.list('/ticketing/trigger/boards', own)
        if (!res.ok) return res
        return {
          ok: true,
          value: res.value.flatMap((b) => {
            const id = idText(b.id)
            return id === null ? [] : [{ id, name: named(b, 'Board'), system: b.system === true }]
          }),
        }
      },
      call,
      fresh,
    )
  }
}
