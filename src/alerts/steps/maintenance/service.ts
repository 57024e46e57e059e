// A partner's maintenance windows (docs/partner-api.md#maintenance-windows): create, replace, delete
// and list them with whether each is active now and when it next starts. A save checks the schedule
// (a recurrence part by part, then that it occurs within the horizon, under the expansion budget),
// stores the window with its occurrences ahead (what alerts and these views read, never expanding the
// rule) and queues the window's maintenance job (jobs.ts) in the same transaction: a new window's first
// boundary, or at once after a change or delete, which releases what the window no longer holds. A
// window saved while it is running logs its start at once, since no job ran at it.
import { v7 as uuidv7 } from 'uuid'
import { type Clock, iso } from '../../../platform/clock.js'
import { notFound, ok, type Result, refuse } from '../../../platform/core/result.js'
import type { Store } from '../../../platform/db/store.js'
import type { Integration } from '../../../tenants/index.js'
import { type MaintenanceJobs, recordBoundary } from './jobs.js'
import {
  localDate,
  type MaintenanceSchedule,
  type MaintenanceWindow,
  occurrencesBetween,
  scheduleProblem,
} from './maintenance.js'
import {
  maxOccurrenceRangeDays,
  type Occurrences,
  type OccurrenceView,
  type WindowInput,
  type WindowView,
} from './schema.js'
import { activeIn, nextStartIn, upcomingOf } from './upcoming.js'

/** Windows per integration. */
export const maxWindowsPerIntegration = 100
const dayMs = 24 * 3600_000

/** The window as the API answers it; activeNow and nextStart from its stored occurrences ahead. */
export function view(w: MaintenanceWindow, now: Date, held: number): WindowView {
  const s = w.schedule
  const active = activeIn(w.upcoming, now)
  return {
    id: w.id,
    name: w.name,
    mode: w.mode,
    kind: s.kind,
    startsAt: s.kind === 'once' ? s.startsAt : null,
    endsAt: s.kind === 'once' ? s.endsAt : null,
    recurrence:
      s.kind === 'recurring'
        ? {
            rrule: s.rrule,
            timeZone: s.timeZone,
            startTime: s.startTime,
            durationMinutes: s.durationMinutes,
            startDate: s.startDate,
          }
        : null,
    scope: {
      accountIds: [...w.scope.accountIds],
      productGroups: [...w.scope.productGroups],
      alertTypes: [...w.scope.alertTypes],
    },
    activeNow: active !== null,
    activeUntil: active ? active.end.toISOString() : null,
    nextStart: nextStartIn(w.upcoming, now)?.toISOString() ?? null,
    held,
    createdAt: w.createdAt,
    updatedAt: w.updatedAt,
  }
}

/** The schedule the input describes, or why it describes none. */
function scheduleOf(input: WindowInput, now: Date): Result<MaintenanceSchedule> {
  const once = input.startsAt !== undefined || input.endsAt !== undefined
  if (once === (input.recurrence !== undefined))
    return refuse('VALIDATION_FAILED', 'Give either startsAt and endsAt (a one-off window) or recurrence.')
  let schedule: MaintenanceSchedule
  if (input.recurrence) {
    const r = input.recurrence
    schedule = {
      kind: 'recurring',
      rrule: r.rrule.trim(),
      timeZone: r.timeZone,
      startDate: r.startDate ?? localDate(now, r.timeZone),
      startTime: r.startTime,
      durationMinutes: r.durationMinutes,
    }
  } else {
    if (!input.startsAt || !input.endsAt)
      return refuse('VALIDATION_FAILED', 'A one-off window needs both startsAt and endsAt.')
    schedule = {
      kind: 'once',
      startsAt: new Date(input.startsAt).toISOString(),
      endsAt: new Date(input.endsAt).toISOString(),
    }
  }
  const problem = scheduleProblem(schedule, now)
  return problem ? refuse('VALIDATION_FAILED', problem) : ok(schedule)
}

export class MaintenanceWindows {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly jobs: MaintenanceJobs,
  ) {}

  async list(integration: Integration): Promise<WindowView[]> {
    const now = this.clock()
    const [windows, held] = await Promise.all([
      this.store.maintenance.list(integration.id),
      this.store.maintenance.counts(integration.id),
    ])
    return windows.map((w) => view(w, now, held.get(w.id) ?? 0))
  }

  /**
   * The occurrences of the partner's windows (or one integration's) that overlap the range (default: the
   * 24 hours up to now), recurrences expanded in their time zone, in start order, at most `limit`.
   */
  async occurrences(
    partnerId: string,
    q: { integrationId?: string; since?: string; until?: string; limit: number },
  ): Promise<Result<Occurrences>> {
    const until = q.until ? new Date(q.until) : this.clock()
    const since = q.since ? new Date(q.since) : new Date(until.getTime() - dayMs)
    if (since >= until) return refuse('VALIDATION_FAILED', 'since (from) must be before until (to).')
    if (until.getTime() - since.getTime() > maxOccurrenceRangeDays * dayMs)
      return refuse('VALIDATION_FAILED', `The range spans at most ${maxOccurrenceRangeDays} days.`)
    const windows = await this.store.maintenance.listForPartner(partnerId, q.integrationId)
    const names = await this.store.vendors.names([...new Set(windows.map((w) => w.vendorId))])
    // Each window's expansion runs under its budget; one that ran out answers what it found, truncated.
    let exhausted = false
    const found: OccurrenceView[] = windows.flatMap(({ window: w, vendorId }) => {
      const expanded = occurrencesBetween(w.schedule, since, until, q.limit)
      exhausted ||= expanded.exhausted
      return expanded.occurrences.map((o) => ({
        windowId: w.id,
        name: w.name,
        mode: w.mode,
        integrationId: w.integrationId,
        vendorName: names.get(vendorId) ?? '',
        timeZone: w.schedule.kind === 'recurring' ? w.schedule.timeZone : null,
        start: o.start.toISOString(),
        end: o.end.toISOString(),
      }))
    })
    found.sort((a, b) => a.start.localeCompare(b.start) || a.name.localeCompare(b.name))
    return ok({
      since: since.toISOString(),
      until: until.toISOString(),
      data: found.slice(0, q.limit),
      truncated: found.length > q.limit || exhausted,
    })
  }

  async get(integration: Integration, id: string): Promise<Result<WindowView>> {
    const w = await this.store.maintenance.find(id)
    if (!w || w.integrationId !== integration.id) return notFound(`Maintenance window '${id}'`)
    const held = await this.store.maintenance.counts(integration.id)
    return ok(view(w, this.clock(), held.get(w.id) ?? 0))
  }

  async create(integration: Integration, input: WindowInput): Promise<Result<WindowView>> {
    const now = this.clock()
    const schedule = scheduleOf(input, now)
    if (!schedule.ok) return schedule
    if ((await this.store.maintenance.list(integration.id)).length >= maxWindowsPerIntegration)
      return refuse(
        'CONFLICT',
        `An integration holds at most ${maxWindowsPerIntegration} maintenance windows; delete some first.`,
      )
    const at = iso(this.clock)
    const window: MaintenanceWindow = {
      id: uuidv7(),
      integrationId: integration.id,
      name: input.name,
      mode: input.mode ?? 'suppress',
      schedule: schedule.value,
      scope: scopeOf(input),
      createdAt: at,
      updatedAt: at,
      upcoming: upcomingOf(schedule.value, now),
    }
    await this.store.transaction(async (tx) => {
      await tx.maintenance.insert(window)
      await this.saved(tx, integration, window, now)
    })
    this.jobs.handOver()
    return ok(view(window, now, 0))
  }

  /** Replaces the window's definition (not its id); what it holds and no longer covers is released. */
  async replace(integration: Integration, id: string, input: WindowInput): Promise<Result<WindowView>> {
    const now = this.clock()
    const old = await this.store.maintenance.find(id)
    if (!old || old.integrationId !== integration.id) return notFound(`Maintenance window '${id}'`)
    const schedule = scheduleOf(input, now)
    if (!schedule.ok) return schedule
    const window: MaintenanceWindow = {
      ...old,
      name: input.name,
      mode: input.mode ?? 'suppress',
      schedule: schedule.value,
      scope: scopeOf(input),
      updatedAt: iso(this.clock),
      upcoming: upcomingOf(schedule.value, now),
    }
    await this.store.transaction(async (tx) => {
      await tx.maintenance.update(window)
      await this.jobs.changed(tx, window)
      await this.saved(tx, integration, window, now)
    })
    this.jobs.handOver()
    const held = await this.store.maintenance.counts(integration.id)
    return ok(view(window, now, held.get(id) ?? 0))
  }

  /**
   * In the save's transaction: the job of the window's next boundary, and, for a window running
   * already, its start's event (once per occurrence: the job at a start writes the same one).
   */
  private async saved(tx: Store, integration: Integration, window: MaintenanceWindow, now: Date) {
    const upcoming = window.upcoming ?? upcomingOf(window.schedule, now)
    await this.jobs.next(tx, window, upcoming, now)
    const running = activeIn(upcoming, now)
    if (running) await recordBoundary(tx, integration, window, 'start', running, now)
  }

  /** Deletes the window; the alerts it held are released at once, through the rules. */
  async delete(integration: Integration, id: string): Promise<Result<void>> {
    const w = await this.store.maintenance.find(id)
    if (!w || w.integrationId !== integration.id) return notFound(`Maintenance window '${id}'`)
    await this.store.transaction(async (tx) => {
      await tx.maintenance.delete(integration.id, id)
      await this.jobs.changed(tx, w)
    })
    this.jobs.handOver()
    return ok(undefined)
  }
}

function scopeOf(input: WindowInput): MaintenanceWindow['scope'] {
  return {
    accountIds: input.scope?.accountIds ?? [],
    productGroups: input.scope?.productGroups ?? [],
    alertTypes: input.scope?.alertTypes ?? [],
  }
}
