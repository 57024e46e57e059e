// The look-up lists a ticket's ids come from, each kept a few minutes per connection: queues,
// priorities and statuses (their own /v2/system/... lookups), an account's locations, and the ticket
// types, sources and note types that BMS serves only from its generic /v2/system/lookup/{tableName},
// whose table names BMS does not publish (docs/psa/kaseya-bms.md, "Look-up tables"). The setting's
// name (`lookupTables`), else the name that answered before on this connection, else the names known
// to be used, are tried in turn; the first that answers with entries is remembered in the connection's
// state.
import { uriComponent } from '../../platform/core/text.js'
import type { PsaCall, PsaEntity, PsaFailure, PsaResult } from '../adapter.js'
import { CachedResult, cachedIn } from '../core/connections.js'
import type { V2Client } from './client.js'
import type { V2Settings } from './settings.js'
import { bool, field, num, rows, str } from './wire.js'

export interface V2Entry extends PsaEntity {
  isDefault: boolean
  isActive: boolean
}

export interface V2Status extends V2Entry {
  /** The status's basic status (BMS's class of it: new, in progress, completed …). */
  typeId: number | null
  order: number
  isSystem: boolean
  /** Where an answer says outright whether the status completes a ticket (the spec's lookup does not). */
  completedFlag: boolean | null
}

export interface V2Location {
  id: number
  isMain: boolean
}

export type Table = 'ticketTypes' | 'sources' | 'noteTypes'

/** Table names seen in BMS tenants and integrations, most likely first (none is published). */
export const tableNames: Record<Table, readonly string[]> = {
  ticketTypes: ['TicketType', 'TicketTypes', 'ServiceDeskTicketType'],
  sources: ['TicketSource', 'TicketSources', 'Source'],
  noteTypes: ['NoteType', 'TicketNoteType', 'NoteTypes'],
}

/** What each table holds, and the setting that takes an id of it instead (when no table answers). */
export const tableInfo: Record<Table, { what: string; byHand: string }> = {
  ticketTypes: { what: 'ticket types', byHand: "defaults.type (or a rule's ticket type)" },
  sources: { what: 'ticket sources', byHand: 'source' },
  noteTypes: { what: 'note types', byHand: 'noteType' },
}

const keptMs = 5 * 60 * 1000

export function entry(row: unknown): V2Entry | null {
  const id = num(row, 'id')
  if (id === null) return null
  return {
    id: String(id),
    name: str(row, 'name')?.trim() || `#${id}`,
    isDefault: bool(row, 'isDefault') ?? false,
    isActive: bool(row, 'isActive') ?? true,
  }
}

function status(row: unknown): V2Status | null {
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
  private readonly queueList = new CachedResult<V2Entry[]>(keptMs)
  private readonly priorityList = new CachedResult<V2Entry[]>(keptMs)
  private readonly statusList = new CachedResult<V2Status[]>(keptMs)
  private readonly tables = new Map<Table, CachedResult<V2Entry[]>>()
  private readonly locationLists = new Map<string, CachedResult<V2Location[]>>()
  /** The table name that answered, per list. */
  private readonly tableOf = new Map<Table, string>()

  constructor(
    readonly client: V2Client,
    private readonly s: V2Settings,
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
  locations(accountId: string, call: PsaCall): Promise<PsaResult<V2Location[]>> {
    return cachedIn(this.locationLists, accountId, keptMs).get(
      (own) =>
        this.plain(`/crm/accounts/${accountId}/locations/lookup`, own, (row) => {
          const id = num(row, 'id')
          return id === null ? null : { id, isMain: bool(row, 'isMain') ?? false }
        }),
      call,
    )
  }

  table(which: Table, call: PsaCall, fresh = false): Promise<PsaResult<V2Entry[]>> {
    return cachedIn(this.tables, which, keptMs).get((own) => this.readTable(which, own), call, fresh)
  }

  /** The table name that answered for `which` on this connection (null until one has). */
  tableName(which: Table): string | null {
    return this.tableOf.get(which) ?? null
  }

  /**
   * The first table name that answers with entries. A name BMS refuses, does not find, fails on (5xx)
   * or answers with no entries is not the table; anything else (the network, a limit, the token) is no
   * answer at all and is returned as it is.
   */
  private async readTable(which: Table, call: PsaCall): Promise<PsaResult<V2Entry[]>> {
    const set = this.s.lookupTables?.[which]
    const known = this.tableOf.get(which)
    const names = set ? [set] : [...new Set([...(known ? [known] : []), ...tableNames[which]])]
    const misses: string[] = []
    let down: PsaFailure | null = null
    for (const name of names) {
      const res = await this.client.api('GET', `/system/lookup/${uriComponent(name)}`, call)
      if (!res.ok) {
        const kind = res.failure.kind
        if (kind !== 'rejected' && kind !== 'not-found' && kind !== 'unavailable') return res
        if (kind === 'unavailable') down = res.failure
        misses.push(`${name}: ${res.failure.message}`)
        continue
      }
      const list = parsed(rows(res.value.result), entry)
      if (list.length === 0) {
        misses.push(`${name}: no entries`)
        continue
      }
      this.tableOf.set(which, name)
      return { ok: true, value: list }
    }
    const { what, byHand } = tableInfo[which]
    const message =
      `${this.client.psa.name} lists no ${what} under /v2/system/lookup/{tableName} (${misses.join('; ')}); ` +
      `set ${byHand} to its id in ${this.client.psa.short}, or lookupTables.${which} to the name of ${this.client.psa.short}'s table of ${what}`
    // BMS failing (5xx) on every name may be BMS being down: worth another try later.
    return {
      ok: false,
      failure: down ? { ...down, message } : { kind: 'rejected', retryable: false, message },
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
export function defaultOf<T extends V2Entry>(list: readonly T[]): T | null {
  const active = list.filter((e) => e.isActive)
  return active.find((e) => e.isDefault) ?? active[0] ?? null
}
