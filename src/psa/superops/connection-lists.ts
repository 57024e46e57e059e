// What one SuperOps connection keeps (docs/psa/superops.md, "Closed statuses"): its client, the
// look-up lists names are resolved against (five minutes each), and what the tenant's own tickets say
// closes a ticket, together with the partner's closedStatus, and who alertbridge is on a note.
import { ok, type PsaCall, type PsaEntity, type PsaResult } from '../adapter.js'
import { CachedResult } from '../core/connections.js'
import { byIdOrName } from '../core/names.js'
import type { SuperOpsClient } from './client.js'
import { statuses } from './lookups.js'
import { type LearnedStatuses, learnClosed } from './tickets.js'

const listsKeptMs = 5 * 60 * 1000

/** The lists a connection keeps, and what the tenant's tickets say closes. */
export class SuperOpsLists {
  readonly statuses = new CachedResult<PsaEntity[]>(listsKeptMs)
  readonly priorities = new CachedResult<PsaEntity[]>(listsKeptMs)
  readonly groups = new CachedResult<PsaEntity[]>(listsKeptMs)
  readonly categories = new CachedResult<PsaEntity[]>(listsKeptMs)
  readonly learned = new CachedResult<LearnedStatuses>(listsKeptMs)

  constructor(
    readonly client: SuperOpsClient,
    /** The partner's closed status (`defaults.closedStatus`), where set. */
    readonly closedStatus: string | null,
  ) {}

  /** The statuses that count as closed: what the tenant's tickets show, and the partner's choice. */
  async closed(call: PsaCall, also: string | null = null): Promise<PsaResult<string[]>> {
    const learned = await this.learned.get((c) => learnClosed(this.client, c), call)
    if (!learned.ok) return learned
    const chosen = await this.statusNames([this.closedStatus, also], call)
    return chosen.ok ? ok([...learned.value.closed, ...chosen.value]) : chosen
  }

  /**
   * The status names settings give by id or by name (the portal stores SuperOps' ids), as SuperOps'
   * list names them; one it does not list is kept as given (the close then says it has no such status).
   */
  async statusNames(values: readonly (string | null)[], call: PsaCall): Promise<PsaResult<string[]>> {
    const given = values.filter((v): v is string => v !== null && v.trim() !== '')
    if (given.length === 0) return ok([])
    const list = await this.statusList(call)
    if (!list.ok) return list
    return ok(given.map((v) => byIdOrName(list.value, v)?.name ?? v))
  }

  /**
   * The API token's technician as SuperOps names a note's author (`addedBy`), once a note alertbridge
   * wrote has told it: notes by anyone else are a technician's work (psa-sync.ts).
   */
  self: string | null = null

  statusList = (call: PsaCall, fresh = false) =>
    this.statuses.get((c) => statuses(this.client, c), call, fresh)
}
