// The ConnectWise lists a connection keeps (docs/psa/connectwise.md): boards and priorities, and each
// board's own statuses and types, read through every page, inactive entries left out where a partner
// picks from them. Settings name an entry by its id or its name; the look-ups of the mapping screens
// read a list afresh.
import { fail, type LookupKind, ok, type PsaCall, type PsaEntity, type PsaResult } from '../adapter.js'
import { CachedResult, cachedIn } from '../core/connections.js'
import { byIdOrName } from '../core/names.js'
import type { ConnectWiseClient } from './client.js'

export type Ref = { id: number; name?: string }

export interface CwStatus {
  id: number
  name: string
  closedStatus?: boolean
  /** The status a new ticket of the board gets. */
  defaultFlag?: boolean
  inactive?: boolean
  sortOrder?: number
}

interface CwListed {
  id: number
  name: string
  inactiveFlag?: boolean
}

const listsKeptMs = 5 * 60 * 1000

const entity = (r: { id: number; name: string }): PsaEntity => ({ id: String(r.id), name: r.name })
/** Entries a partner may still pick: inactive boards and types are left out. */
const active = (list: CwListed[]) => list.filter((r) => r.inactiveFlag !== true).map(entity)

export const statusEntity = (s: CwStatus): PsaEntity => ({
  id: String(s.id),
  name: s.name,
  closed: s.closedStatus === true,
})

/** What one connection keeps: the lists names are resolved against. */
export class ConnectWiseLists {
  private readonly boards = new CachedResult<PsaEntity[]>(listsKeptMs)
  private readonly priorities = new CachedResult<PsaEntity[]>(listsKeptMs)
  private readonly statuses = new Map<number, CachedResult<CwStatus[]>>()
  private readonly types = new Map<number, CachedResult<PsaEntity[]>>()

  constructor(private readonly client: ConnectWiseClient) {}

  /** A look-up of the mapping screens, read afresh; statuses and types are those of `board`. */
  async lookup(what: LookupKind, board: string | undefined, call: PsaCall): Promise<PsaResult<PsaEntity[]>> {
    switch (what) {
      case 'companies': {
        const all = await this.client.all<{ id: number; name: string }>('/company/companies', call, {
          fields: 'id,identifier,name',
          conditions: 'deletedFlag=false',
        })
        return all.ok ? ok(all.value.map(entity)) : all
      }
      case 'boards':
        return this.boardList(call, true)
      case 'priorities':
        return this.priorityList(call, true)
      case 'statuses':
      case 'types': {
        if (!board) {
          return fail({
            kind: 'needs-input',
            retryable: false,
            message: `ConnectWise ${what} belong to a board: name one (board=…)`,
          })
        }
        const id = await this.boardOf(board, call)
        if (!id.ok) return id
        if (what === 'types') return this.typesOf(id.value, call, true)
        const statuses = await this.statusesOf(id.value, call, true)
        return statuses.ok
          ? ok(statuses.value.filter((s) => s.inactive !== true).map(statusEntity))
          : statuses
      }
      // Lists this PSA does not have (or that no setting of this kind picks from): none.
      case 'sources':
      case 'noteTypes':
      case 'categories':
        return ok([])
    }
  }

  boardList(call: PsaCall, fresh = false): Promise<PsaResult<PsaEntity[]>> {
    return this.boards.get((c) => this.list('/service/boards', c), call, fresh)
  }

  priorityList(call: PsaCall, fresh = false): Promise<PsaResult<PsaEntity[]>> {
    return this.priorities.get((c) => this.list('/service/priorities', c), call, fresh)
  }

  /** The id of the board a setting names. */
  async boardOf(board: string, call: PsaCall): Promise<PsaResult<number>> {
    const boards = await this.boardList(call)
    if (!boards.ok) return boards
    const found = byIdOrName(boards.value, board)
    return found
      ? ok(Number(found.id))
      : fail({ kind: 'rejected', retryable: false, message: `ConnectWise has no board '${board}'` })
  }

  statusesOf(boardId: number, call: PsaCall, fresh = false): Promise<PsaResult<CwStatus[]>> {
    return cachedIn(this.statuses, boardId, listsKeptMs).get(
      (c) => this.client.all<CwStatus>(`/service/boards/${boardId}/statuses`, c),
      call,
      fresh,
    )
  }

  async statusEntities(boardId: number, call: PsaCall): Promise<PsaResult<PsaEntity[]>> {
    const statuses = await this.statusesOf(boardId, call)
    return statuses.ok ? ok(statuses.value.map(statusEntity)) : statuses
  }

  typesOf(boardId: number, call: PsaCall, fresh = false): Promise<PsaResult<PsaEntity[]>> {
    return cachedIn(this.types, boardId, listsKeptMs).get(
      (c) => this.list(`/service/boards/${boardId}/types`, c),
      call,
      fresh,
    )
  }

  private async list(path: string, call: PsaCall): Promise<PsaResult<PsaEntity[]>> {
    const all = await this.client.all<CwListed>(path, call)
    return all.ok ? ok(active(all.value)) : all
  }
}

/** A reference for a setting: resolved to an id through its list, or sent by name where no list applies. */
export async function reference(
  value: string,
  list: (() => Promise<PsaResult<PsaEntity[]>>) | null,
  field: string,
): Promise<PsaResult<Ref | { name: string }>> {
  if (list === null) return ok(/^\d+$/.test(value) ? { id: Number(value) } : { name: value })
  const entries = await list()
  if (!entries.ok) return entries
  const found = byIdOrName(entries.value, value)
  return found
    ? ok({ id: Number(found.id) })
    : fail({
        kind: 'rejected',
        retryable: false,
        message: `ConnectWise has no ${field} '${value}'${field === 'priority' ? '' : " on the ticket's board"}`,
      })
}
