// Two-way sync on Autotask (docs/psa/autotask.md#two-way-sync): tickets read back in chunks of 500 ids
// (one `in` condition a query: Autotask takes up to 500 values), with their notes not written by
// alertbridge's own API user and their time entries; a merged ticket told by the note Autotask's merge
// leaves on it (it is completed, the note names the surviving ticket's number); a ticket the query no
// longer finds is deleted. Reopening sets an open status and writes the note (once, on a retry).
import type { Static } from 'typebox'
import { fail, type NoteCall, ok, type PsaCall, type PsaResult } from '../adapter.js'
import { CachedResult } from '../core/connections.js'
import { byIdOrName } from '../core/names.js'
import { deletedRead, type PsaTicketRead, type ReopenRequest } from '../psa-sync-port.js'
import type { AutotaskClient } from './client.js'
import { hasNoteWith, writeNote } from './notes.js'
import { complete, defaultOf, entries, newStatus } from './plan.js'
import type { AutotaskSettings } from './settings.js'

type Settings = Static<typeof AutotaskSettings>

/** At most this many values in one `in` condition (Autotask's 500 conditions a query). */
const chunkSize = 500

/** The note Autotask's merge leaves on the absorbed ticket names the survivor's ticket number. */
const mergedNote = /merged into ticket\s+(T\d{8}\.\d+)/i

interface TicketRow {
  id: number
  ticketNumber?: string
  status?: number | string
  completedDate?: string | null
  completedByResourceID?: number | null
  lastActivityResourceID?: number | null
}

const chunks = <T>(items: readonly T[]): T[][] =>
  Array.from({ length: Math.ceil(items.length / chunkSize) }, (_, i) =>
    items.slice(i * chunkSize, (i + 1) * chunkSize),
  )

/** Sync's reads and writes on one connection; the API user's own resource id is kept a day. */
export class AutotaskPsaSync {
  private readonly self = new CachedResult<number>(24 * 60 * 60 * 1000)

  constructor(
    private readonly client: AutotaskClient,
    private readonly s: Settings,
  ) {}

  /** The resource id of the API user (Resources by userName or email): whose writes are alertbridge's. */
  ownResource(call: PsaCall): Promise<PsaResult<number>> {
    const user = this.s.username
    return this.self.get(async (own) => {
      const found = await this.client.query<{ id: number }>(
        'Resources',
        [
          {
            op: 'or',
            items: [
              { op: 'eq', field: 'userName', value: user },
              { op: 'eq', field: 'email', value: user },
            ],
          },
        ],
        ['id'],
        own,
      )
      if (!found.ok) return found
      const first = found.value[0]
      if (!first) {
        return fail({
          kind: 'rejected',
          retryable: false,
          message: `Autotask has no resource for the API user '${user}'`,
        })
      }
      return ok(first.id)
    }, call)
  }

  async readTickets(ids: readonly string[], call: PsaCall): Promise<PsaResult<PsaTicketRead[]>> {
    const { client } = this
    const numeric = [...new Set(ids.filter((id) => /^\d+$/.test(id)).map(Number))]
    if (numeric.length === 0) return ok(ids.map((id) => deletedRead(id)))
    const self = await this.ownResource(call)
    if (!self.ok) return self
    const fields = await client.picklists('Tickets', call)
    if (!fields.ok) return fields
    const statuses = entries(fields.value, 'status')
    const closedStatus = this.s.defaults?.closedStatus
    const closedId = closedStatus ? byIdOrName(statuses, closedStatus)?.id : undefined

    const rows = new Map<number, TicketRow>()
    const work = new Set<number>()
    const survivorNumber = new Map<number, string>()
    for (const chunk of chunks(numeric)) {
      const found = await client.query<TicketRow>(
        'Tickets',
        [{ op: 'in', field: 'id', value: chunk }],
        ['id', 'ticketNumber', 'status', 'completedDate', 'completedByResourceID', 'lastActivityResourceID'],
        call,
      )
      if (!found.ok) return found
      for (const t of found.value) rows.set(t.id, t)
      const present = found.value.map((t) => t.id)
      if (present.length === 0) continue
      // Notes by anyone but alertbridge's API user: a technician's work, or the note a merge leaves.
      const notes = await client.query<{
        ticketID: number
        creatorResourceID?: number | null
        description?: string
      }>(
        'TicketNotes',
        [
          { op: 'in', field: 'ticketID', value: present },
          { op: 'noteq', field: 'creatorResourceID', value: self.value },
        ],
        ['id', 'ticketID', 'creatorResourceID', 'description'],
        call,
      )
      if (!notes.ok) return notes
      for (const n of notes.value) {
        if (
          n.creatorResourceID === null ||
          n.creatorResourceID === undefined ||
          n.creatorResourceID === self.value
        )
          continue
        work.add(n.ticketID)
        const merged = mergedNote.exec(n.description ?? '')
        if (merged?.[1]) survivorNumber.set(n.ticketID, merged[1])
      }
      const times = await client.query<{ ticketID: number }>(
        'TimeEntries',
        [{ op: 'in', field: 'ticketID', value: present }],
        ['id', 'ticketID'],
        call,
      )
      if (!times.ok) return times
      for (const e of times.value) work.add(e.ticketID)
    }

    const survivors = await this.idsOf([...new Set(survivorNumber.values())], call)
    if (!survivors.ok) return survivors
    const names = await this.resourceNames(
      [...rows.values()]
        .map((t) => t.lastActivityResourceID)
        .filter((r): r is number => typeof r === 'number'),
      call,
    )
    if (!names.ok) return names

    return ok(
      ids.map((ticketId): PsaTicketRead => {
        const t = /^\d+$/.test(ticketId) ? rows.get(Number(ticketId)) : undefined
        if (!t) return deletedRead(ticketId)
        const status = String(t.status ?? '')
        const closed =
          status === complete ||
          (t.completedDate !== null && t.completedDate !== undefined) ||
          (closedId !== undefined && status === closedId)
        const byOther = (r: number | null | undefined) => typeof r === 'number' && r !== self.value
        const number = survivorNumber.get(t.id)
        const mergedInto = number ? (survivors.value.get(number) ?? null) : null
        return {
          ticketId,
          state: closed && number ? 'merged' : closed ? 'closed' : 'open',
          statusName: statuses.find((e) => e.id === status)?.name ?? status,
          mergedInto: closed && mergedInto !== null ? String(mergedInto) : null,
          worked: work.has(t.id) || byOther(t.lastActivityResourceID) || byOther(t.completedByResourceID),
          changedBy:
            typeof t.lastActivityResourceID === 'number'
              ? (names.value.get(t.lastActivityResourceID) ?? `resource ${t.lastActivityResourceID}`)
              : null,
        }
      }),
    )
  }

  async reopenTicket(ticketId: string, reopen: ReopenRequest, call: NoteCall): Promise<PsaResult<null>> {
    const { client } = this
    const got = await client.api('GET', `Tickets/${ticketId}`, call)
    if (!got.ok) return got
    const item = (got.value.body as { item?: TicketRow | null } | null)?.item
    if (!item)
      return fail({ kind: 'not-found', retryable: false, message: `Autotask has no ticket ${ticketId}` })
    const fields = await client.picklists('Tickets', call)
    if (!fields.ok) return fields
    // The open status a new ticket gets: the status picklist's default, else New (Autotask's system status).
    const target = reopen.openStatus
      ? byIdOrName(entries(fields.value, 'status'), reopen.openStatus)
      : (defaultOf(fields.value, 'status') ?? { id: newStatus, name: 'New' })
    if (!target || target.id === complete) {
      return fail({
        kind: 'rejected',
        retryable: false,
        message: `Autotask has no open status '${reopen.openStatus ?? ''}'`,
      })
    }
    const written =
      call.adopt && call.marker !== '' ? await hasNoteWith(client, ticketId, call.marker, call) : ok(false)
    if (!written.ok) return written
    if (!written.value) {
      const noted = await writeNote(client, this.s, ticketId, reopen.note, call)
      if (!noted.ok) return noted
    }
    const status = String(item.status ?? '')
    const closed = status === complete || (item.completedDate !== null && item.completedDate !== undefined)
    // An open ticket keeps the status a technician gave it, unless a status was asked for.
    if (!closed && (reopen.openStatus === null || status === target.id)) return ok(null)
    const patched = await client.api('PATCH', 'Tickets', call, {
      id: Number(ticketId),
      status: Number(target.id),
    })
    return patched.ok ? ok(null) : patched
  }

  /** Ticket ids by ticket number (the survivors of merges). */
  private async idsOf(numbers: string[], call: PsaCall): Promise<PsaResult<Map<string, number>>> {
    const out = new Map<string, number>()
    for (const chunk of chunks(numbers)) {
      const found = await this.client.query<{ id: number; ticketNumber: string }>(
        'Tickets',
        [{ op: 'in', field: 'ticketNumber', value: chunk }],
        ['id', 'ticketNumber'],
        call,
      )
      if (!found.ok) return found
      for (const t of found.value) out.set(t.ticketNumber, t.id)
    }
    return ok(out)
  }

  /** Resources' names ("Tess Tech") by id, for changedBy. */
  private async resourceNames(ids: number[], call: PsaCall): Promise<PsaResult<Map<number, string>>> {
    const out = new Map<number, string>()
    for (const chunk of chunks([...new Set(ids)])) {
      const found = await this.client.query<{ id: number; firstName?: string; lastName?: string }>(
        'Resources',
        [{ op: 'in', field: 'id', value: chunk }],
        ['id', 'firstName', 'lastName'],
        call,
      )
      if (!found.ok) return found
      for (const r of found.value) out.set(r.id, [r.firstName, r.lastName].filter(Boolean).join(' '))
    }
    return ok(out)
  }
}
