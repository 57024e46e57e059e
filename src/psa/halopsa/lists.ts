// HaloPSA's look-up lists as the mapping screens and the ticket settings use them: teams (a ticket
// names its team by name), priorities (one per SLA, the same priorityid in each), ticket types,
// statuses with the ones Halo treats as closed marked, and outcomes (the action types a note can have,
// for the noteOutcome setting). Kept a few minutes per connection.
import type { PsaCall, PsaEntity, PsaResult } from '../adapter.js'
import { CachedResult } from '../core/connections.js'
import { type HaloClient, type HaloItem, listOf } from './client.js'

const listsKeptMs = 5 * 60 * 1000
/** Halo's default Closed status (every instance has it; its id is fixed). */
export const defaultClosedId = '9'

export interface HaloStatus extends PsaEntity {
  closed: boolean
  sequence: number
}

export class HaloLists {
  readonly teams = new CachedResult<PsaEntity[]>(listsKeptMs)
  readonly priorities = new CachedResult<PsaEntity[]>(listsKeptMs)
  readonly types = new CachedResult<PsaEntity[]>(listsKeptMs)
  readonly statuses = new CachedResult<HaloStatus[]>(listsKeptMs)
  readonly outcomes = new CachedResult<PsaEntity[]>(listsKeptMs)

  constructor(private readonly client: HaloClient) {}

  teamList(call: PsaCall, fresh = false): Promise<PsaResult<PsaEntity[]>> {
    return this.teams.get((c) => this.named('/Team', 'teams', c), call, fresh)
  }

  typeList(call: PsaCall, fresh = false): Promise<PsaResult<PsaEntity[]>> {
    return this.types.get((c) => this.named('/TicketType', 'tickettypes', c), call, fresh)
  }

  priorityList(call: PsaCall, fresh = false): Promise<PsaResult<PsaEntity[]>> {
    return this.priorities.get(
      async (c) => {
        const res = await this.client.api('GET', '/Priority', c)
        if (!res.ok) return res
        // Each SLA lists its priorities (Halo's Policy records): the ticket takes the priorityid.
        const byId = new Map<string, PsaEntity>()
        for (const p of listOf(res.value.body, 'priorities').list) {
          const id = idText(p.priorityid ?? p.priority_id ?? p.id)
          if (id !== null && !byId.has(id)) byId.set(id, { id, name: nameOf(p, 'Priority') })
        }
        return { ok: true, value: [...byId.values()] }
      },
      call,
      fresh,
    )
  }

  /** GET /api/Outcome: each action type by its id and its name (`outcome`), hidden ones left out. */
  outcomeList(call: PsaCall, fresh = false): Promise<PsaResult<PsaEntity[]>> {
    return this.outcomes.get(
      async (c) => {
        const res = await this.client.api('GET', '/Outcome', c)
        if (!res.ok) return res
        const entries: PsaEntity[] = []
        for (const o of listOf(res.value.body, 'outcomes').list) {
          const id = idText(o.id)
          const name = typeof o.outcome === 'string' && o.outcome.trim() !== '' ? o.outcome.trim() : null
          if (id !== null && o.hidden !== true) entries.push({ id, name: name ?? nameOf(o, 'Outcome') })
        }
        return { ok: true, value: entries }
      },
      call,
      fresh,
    )
  }

  statusList(call: PsaCall, fresh = false): Promise<PsaResult<HaloStatus[]>> {
    return this.statuses.get(
      async (c) => {
        const all = await this.client.api('GET', '/Status', c, { query: { type: 'ticket' } })
        if (!all.ok) return all
        const open = await this.client.api('GET', '/Status', c, {
          query: { type: 'ticket', excludeclosed: true },
        })
        if (!open.ok) return open
        return {
          ok: true,
          value: classify(listOf(all.value.body, 'statuses').list, listOf(open.value.body, 'statuses').list),
        }
      },
      call,
      fresh,
    )
  }

  private async named(path: string, key: string, call: PsaCall): Promise<PsaResult<PsaEntity[]>> {
    const res = await this.client.api('GET', path, call)
    if (!res.ok) return res
    const entries: PsaEntity[] = []
    for (const item of listOf(res.value.body, key).list) {
      const id = idText(item.id)
      if (id !== null && !inactive(item)) entries.push({ id, name: nameOf(item, 'Entry') })
    }
    return { ok: true, value: entries }
  }
}

/**
 * The statuses with the closed ones marked, as Halo marks them, never by their names: the ones
 * `excludeclosed=true` leaves out of the list; where the server says it per status (a boolean
 * `isclosed`/`closed`), that; where neither tells (the filter ignored), Halo's fixed Closed, id 9.
 */
export function classify(all: HaloItem[], open: HaloItem[]): HaloStatus[] {
  const openIds = new Set(open.map((s) => idText(s.id)))
  const flag = (s: HaloItem) => {
    for (const [k, v] of Object.entries(s))
      if (['isclosed', 'is_closed', 'closed'].includes(k.toLowerCase()) && typeof v === 'boolean') return v
    return null
  }
  const flagged = all.some((s) => flag(s) !== null)
  const filtered = open.length > 0 && all.some((s) => !openIds.has(idText(s.id)))
  return all
    .filter((s) => idText(s.id) !== null)
    .map((s) => {
      const id = idText(s.id) ?? ''
      const closed = flagged ? flag(s) === true : filtered ? !openIds.has(id) : id === defaultClosedId
      const sequence = typeof s.sequence === 'number' ? s.sequence : 0
      return { id, name: nameOf(s, 'Status'), closed, sequence }
    })
}

/** The status a close uses when none is named: Halo's own Closed (9) when it is closed, else the first closed one. */
export function closingStatus(statuses: HaloStatus[]): HaloStatus | null {
  const closed = statuses.filter((s) => s.closed).sort((a, b) => a.sequence - b.sequence)
  return closed.find((s) => s.id === defaultClosedId) ?? closed[0] ?? null
}

export function idText(v: unknown): string | null {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v)
  if (typeof v === 'string' && v.trim() !== '') return v.trim()
  return null
}

export function nameOf(item: HaloItem, fallback: string): string {
  const name = item.name ?? item.client_name
  return typeof name === 'string' && name.trim() !== '' ? name.trim() : `${fallback} ${String(item.id)}`
}

const inactive = (item: HaloItem) =>
  item.inactive === true || item.disabled === true || item.is_disabled === true
