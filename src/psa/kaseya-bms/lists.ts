// The look-up lists a ticket's ids come from, each kept a few minutes per connection: queues,
// priorities and statuses (their own /v2/system/... lookups), an account's locations, and the ticket
// types, sources and note types that BMS serves only from its generic /v2/system/lookup/{tableName},
// whose table names BMS does not document: the setting's name, else the names known to be used, are
// tried in turn and the one that answers is kept.
import type { Static } from 'typebox'
import type { PsaCall, PsaEntity, PsaResult } from '../adapter.js'
import { CachedResult, cachedIn } from '../core/connections.js'
import type { KaseyaBmsClient } from './client.js'
import type { KaseyaBmsSettings } from './settings.js'
import { bool, field, num, rows, str } from './wire.js'

type Settings = Static<typeof KaseyaBmsSettings>

export interface BmsEntry extends PsaEntity {
  isDefault: boolean
  isActive: boolean
}

export interface BmsStatus extends BmsEntry {
  /** The status's basic status (BMS's class of it: new, in progress, completed …). */
  typeId: number | null
  order: number
  isSystem: boolean
  /** Where an answer says outright whether the status completes a ticket (the spec's lookup does not). */
  completedFlag: boolean | null
}

export interface BmsLocation {
  id: number
  isMain: boolean
}

export type Table = 'ticketTypes' | 'sources' | 'noteTypes'

/** Table names seen in BMS tenants and integrations, most likely first. */
const tableNames: Record<Table, string[]> = {
  ticketTypes: ['TicketType', 'TicketTypes', 'ServiceDeskTicketType'],
  sources: ['TicketSource', 'TicketSources', 'Source'],
  noteTypes: ['NoteType', 'TicketNoteType', 'NoteTypes'],
}

const keptMs = 5 * 60 * 1000

export function entry(row: unknown): BmsEntry | null {
  const id = num(row, 'id')
  if (id === null) return null
  return {
    id: String(id),
    name: str(row, 'name')?.trim() || `#${id}`,
    isDefault: bool(row, 'isDefault') ?? false,
    isActive: bool(row, 'isActive') ?? true,
  }
}

function status(row: unknown): BmsStatus | null {
  const e = entry(row)
  if (!e) return null
  const flag = ['isCompleted', 'isClosed', 'completed', 'closed']
    .map((f) => bool(row, f))
    .find((v) => v !== null)
  const basic = ['basicStatus', 'basicStatusName', 'typeName', 'statusType']
    .map((f) => str(row, f))
    .find((v) => v !== null && !/^\d+$/.test(v))
  return {
    ...e,
    typeId: num(row, 'typeId'),
    order: num(row, 'statusOrder') ?? num(row, 'order') ?? 0,
    isSystem: bool(row, 'isSystemStatus') ?? false,
    completedFlag: flag ?? (basic ? /^(completed?|closed)$/i.test(basic.trim()) : null),
  }
}

const parsed = <T>(list: unknown[], parse: (row: unknown) => T | null): T[] =>
  list.map(parse).filter((x): x is T => x !== null)

export class Lists {
  private readonly queueList = new CachedResult<BmsEntry[]>(keptMs)
  private readonly priorityList = new CachedResult<BmsEntry[]>(keptMs)
  private readonly statusList = new CachedResult<BmsStatus[]>(keptMs)
  private readonly tables = new Map<Table, CachedResult<BmsEntry[]>>()
  private readonly locationLists = new Map<string, CachedResult<BmsLocation[]>>()
  /** The table name that answered, per list. */
  private readonly tableOf = new Map<Table, string>()

  constructor(
    private readonly client: KaseyaBmsClient,
    private readonly s: Settings,
  ) {}

  queues(call: PsaCall, fresh = false) {
    return this.queueList.get((own) => this.plain('/system/queues/lookup', own, entry), call, fresh)
  }

  priorities(call: PsaCall, fresh = false) {
    return this.priorityList.get((own) => this.plain('/system/priorities/lookup', own, entry), call, fresh)
  }

  statuses(call: PsaCall, fresh = false) {
    return this.statusList.get((own) => this.plain('/system/statuses/lookup', own, status), call, fresh)
  }

  /** The account's locations (the ticket's LocationId must be one of them). */
  locations(accountId: string, call: PsaCall): Promise<PsaResult<BmsLocation[]>> {
    return cachedIn(this.locationLists, accountId, keptMs).get(
      (own) =>
        this.plain(`/crm/accounts/${accountId}/locations/lookup`, own, (row) => {
          const id = num(row, 'id')
          return id === null ? null : { id, isMain: bool(row, 'isMain') ?? false }
        }),
      call,
    )
  }

  table(which: Table, call: PsaCall, fresh = false): Promise<PsaResult<BmsEntry[]>> {
    return cachedIn(this.tables, which, keptMs).get((own) => this.readTable(which, own), call, fresh)
  }

  private async readTable(which: Table, call: PsaCall): Promise<PsaResult<BmsEntry[]>> {
    const set = this.s.lookupTables?.[which]
    const known = this.tableOf.get(which)
    const names = set ? [set] : known ? [known] : tableNames[which]
    const refusals: string[] = []
    for (const name of names) {
      const res = await this.client.api('GET', `/system/lookup/${encodeURIComponent(name)}`, call)
      if (!res.ok) {
        // An unknown table is refused (or not found); anything else (the network, a limit) is no answer.
        if (res.failure.kind !== 'rejected' && res.failure.kind !== 'not-found') return res
        refusals.push(`${name}: ${res.failure.message}`)
        continue
      }
      this.tableOf.set(which, name)
      return { ok: true, value: parsed(rows(res.value.result), entry) }
    }
    const what = { ticketTypes: 'ticket types', sources: 'ticket sources', noteTypes: 'note types' }[which]
    return {
      ok: false,
      failure: {
        kind: 'rejected',
        retryable: false,
        message: `Kaseya BMS lists no ${what} under /v2/system/lookup (${refusals.join('; ')}); set lookupTables.${which}, or give an id`,
      },
    }
  }

  private async plain<T>(
    path: string,
    call: PsaCall,
    parse: (row: unknown) => T | null,
  ): Promise<PsaResult<T[]>> {
    const res = await this.client.api('GET', path, call)
    if (!res.ok) return res
    // A lookup that pages (some do) is read through every page.
    const result = res.value.result
    const list = Array.isArray(result) ? result : rows(field(result, 'items'))
    const total = res.value.totalRecords
    if (total !== null && total > list.length) {
      const all = await this.client.all(path, call)
      return all.ok ? { ok: true, value: parsed(all.value, parse) } : all
    }
    return { ok: true, value: parsed(list, parse) }
  }
}

/** The entry BMS marks as default among the active ones, else the first active one. */
export function defaultOf<T extends BmsEntry>(list: readonly T[]): T | null {
  const active = list.filter((e) => e.isActive)
  return active.find((e) => e.isDefault) ?? active[0] ?? null
}
