// Which BMS statuses complete a ticket, never guessed from a name. BMS sets a ticket's completedDate
// when it is completed, and each status belongs to a basic status (the lookup's typeId), which is what
// BMS classes as open or completed; the lookup does not say which typeId is the completed one. So,
// in this order: a status answer that says it outright (a flag or a basic-status name, in case a
// server sends one); the typeIds the partner set (`completedStatusTypes`); else the typeIds of the
// statuses of tickets BMS itself shows completed — read from a few completed tickets, and from every
// ticket this adapter reads or resolves. Until one of these is known, the class is unknown (null).
import type { PsaCall } from '../adapter.js'
import { CachedResult } from '../core/connections.js'
import type { V2Client } from './client.js'
import type { V2Status } from './lists.js'
import { num, str } from './wire.js'

export class Completion {
  private readonly learned = new Set<number>()
  /** The look at completed tickets, at most once in half an hour. */
  private readonly history = new CachedResult<null>(30 * 60 * 1000)

  constructor(private readonly configured: readonly number[] | undefined) {}

  /** Whether `status` completes a ticket; null while BMS has not shown which statuses do. */
  of(status: V2Status, all: readonly V2Status[]): boolean | null {
    if (all.some((s) => s.completedFlag !== null)) return status.completedFlag === true
    if (this.configured && this.configured.length > 0)
      return status.typeId !== null && this.configured.includes(status.typeId)
    if (this.learned.size === 0) return null
    return status.typeId !== null && this.learned.has(status.typeId)
  }

  /** A ticket as BMS answered it: a completed one tells which basic status completes. */
  learn(ticket: unknown, statuses: readonly V2Status[]): void {
    if (!completedDateOf(ticket)) return
    const statusId = num(ticket, 'statusId')
    const type = statuses.find((s) => s.id === String(statusId))?.typeId
    if (type !== null && type !== undefined) this.learned.add(type)
  }

  /** Reads a few tickets BMS shows completed, unless the classes are known already. */
  async ensure(client: V2Client, statuses: readonly V2Status[], call: PsaCall): Promise<void> {
    if (statuses.some((s) => this.of(s, statuses) !== null)) return
    await this.history.get(async (own) => {
      const res = await client.all(
        '/servicedesk/tickets',
        own,
        { 'Filter.CompletedDateFrom': '2000-01-01T00:00:00Z' },
        2,
      )
      // A failed look is not kept (the next close looks again); the caller goes on without it.
      if (!res.ok) return res
      for (const t of res.value) this.learn(t, statuses)
      return { ok: true, value: null }
    }, call)
  }

  /** The status a ticket closes with when none is named: a completed one, BMS's own (system) first. */
  closing(statuses: readonly V2Status[]): V2Status | null {
    const completed = statuses.filter((s) => s.isActive && this.of(s, statuses) === true)
    completed.sort((a, b) => Number(b.isSystem) - Number(a.isSystem) || a.order - b.order)
    return completed[0] ?? null
  }

  /** The status a new ticket opens with: the first (by BMS's order) active one that does not complete. */
  opening(statuses: readonly V2Status[]): V2Status | null {
    const open = statuses.filter((s) => s.isActive && this.of(s, statuses) !== true)
    open.sort((a, b) => a.order - b.order)
    return open[0] ?? null
  }
}

export function completedDateOf(ticket: unknown): string | null {
  const v = str(ticket, 'completedDate')
  return v !== null && v.trim() !== '' ? v : null
}
