// SuperOps.ai (MSP), through its GraphQL API (docs/psa/superops.md): tickets made with
// `createTicket` (`source: INTEGRATION`, our reference in `sourceReferenceId`), alert updates as
// PRIVATE notes (`createTicketNote`), closing with `updateTicket {status}` after a resolution note —
// the status the partner chose, else the one the tenant's own tickets show closing (tickets.ts) —,
// the look-ups of the mapping screens, and client-contract quantities for usage (billing.ts). A retry
// after a lost answer finds what the earlier attempt made instead of making it twice. Two-way sync
// (psa-sync.ts): SuperOps pushes nothing, the poll lists what changed by updatedTime.

import { memoryLimiters } from '../../platform/redis/limiters.js'
import {
  type BillingLine,
  type CloseCall,
  type CloseRequest,
  type CreateCall,
  fail,
  type LookupKind,
  type NewPsaTicket,
  type NoteCall,
  ok,
  type PsaCall,
  type PsaEntity,
  type PsaOperations,
  type PsaResult,
  type UsageCall,
} from '../adapter.js'
import type { CachedResult } from '../core/connections.js'
import type { PsaKindOptions } from '../core/http.js'
import { remotePsaKind } from '../core/kind.js'
import { byIdOrName, externalRef } from '../core/names.js'
import { fitTicket } from '../core/text.js'
import type { PsaTicketRead, ReopenRequest } from '../psa-sync-port.js'
import type { PsaKindEntry } from '../registry.js'
import { billingLines, setQuantity } from './billing.js'
import { minuteMs, SuperOpsClient } from './client.js'
import { closeTicket } from './close.js'
import { checkConnection } from './connection-check.js'
import { SuperOpsLists } from './connection-lists.js'
import { createTicket } from './documents.js'
import { superOpsErrorText } from './errors.js'
import { superOpsPerMinute, tokenBudget } from './limits.js'
import { accountIdOf, categories, companies, groups, markClosed, priorities, statuses } from './lookups.js'
import { writeNote } from './notes.js'
import { SuperOpsPsaSync } from './psa-sync.js'
import { SuperOpsSettings, superOpsSecrets } from './settings.js'
import { findByRef, refLine, type SuperOpsTicket } from './tickets.js'

/** A ticket's subject, at most (SuperOps publishes none: docs/psa/superops.md#text-limits). */
export const subjectMax = 200
/** A description or a note, at most (the same). */
export const textMax = 20_000
const refMax = 200

const rejected = (message: string) => ({ kind: 'rejected' as const, retryable: false, message })

/** The SuperOps kind, talking through the service's outbound client. */
export function superOpsPsa(options: PsaKindOptions, tuning: { perMinute?: number } = {}): PsaKindEntry {
  const limiter = (options.limiters ?? memoryLimiters)({
    keyPrefix: 'psa-superops',
    points: tuning.perMinute ?? superOpsPerMinute,
    duration: 60,
  })
  return remotePsaKind(options, {
    kind: 'superops',
    settings: SuperOpsSettings,
    secretFields: superOpsSecrets,
    problems: () => [],
    // SuperOps counts a minute and documents no Retry-After: wait the window out.
    dialect: { name: 'SuperOps', errorText: superOpsErrorText, defaultRetryAfterMs: minuteMs },
    // 800 requests a minute per token: every connection and process with the token spends one budget.
    limits: (s) => ({ perEndpoint: s.maxConcurrent ?? 4, shared: [tokenBudget(limiter, s)] }),
    connect: (wire, conn) => {
      const client = new SuperOpsClient(wire, conn.settings)
      return new SuperOpsConnection(
        new SuperOpsLists(client, conn.settings.defaults?.closedStatus ?? null),
        conn.settings.defaults?.status ?? null,
      )
    },
  })
}

/** One connection: its client, and the lists names are resolved against. */
class SuperOpsConnection implements PsaOperations {
  private readonly psaSync: SuperOpsPsaSync
  /** SuperOps has no ticket webhook an API client can register: the poll alone hears technicians. */
  readonly push = null

  constructor(
    private readonly lists: SuperOpsLists,
    initialStatus: string | null,
  ) {
    this.psaSync = new SuperOpsPsaSync(lists, initialStatus)
  }

  private get client() {
    return this.lists.client
  }

  test(call: PsaCall): Promise<PsaResult<{ detail: string }>> {
    return checkConnection(this.lists, call)
  }

  async createTicket(
    t: NewPsaTicket,
    call: CreateCall,
  ): Promise<PsaResult<{ ticketId: string; adopted: boolean }>> {
    const { client } = this
    const accountId = await accountIdOf(client, t.companyId, call)
    if (!accountId.ok) return accountId
    const ref = externalRef(call.ref, refMax)
    // The description opens with the whole title where the subject is cut, and ends with our reference.
    const tag = `\n\n${refLine(ref)}`
    const fitted = fitTicket(t, { title: subjectMax, description: textMax - tag.length }, 'SuperOps')
    if (call.adopt) {
      const found = await findByRef(client, { ref, accountId: accountId.value, subject: fitted.title }, call)
      if (!found.ok) return found
      if (found.value !== null) return ok({ ticketId: found.value, adopted: true })
    }
    const input: Record<string, unknown> = {
      subject: fitted.title,
      client: { accountId: accountId.value },
      source: 'INTEGRATION',
      sourceReferenceId: ref,
      description: `${fitted.description}${tag}`,
    }
    const picked = await this.fields(t, call)
    if (!picked.ok) return picked
    Object.assign(input, picked.value)
    const made = await client.request<SuperOpsTicket>(createTicket, { input }, call)
    if (!made.ok) return made
    const id = made.value?.ticketId
    if (id === undefined || id === null || id === '') return fail(rejected('SuperOps answered no ticket id'))
    return ok({ ticketId: String(id), adopted: false })
  }

  /** The technician group, category, priority and status a ticket's settings name, from SuperOps' lists. */
  private async fields(t: NewPsaTicket, call: PsaCall): Promise<PsaResult<Record<string, unknown>>> {
    const out: Record<string, unknown> = {}
    const pick = async (
      value: string | null,
      list: CachedResult<PsaEntity[]>,
      read: (c: SuperOpsClient, call: PsaCall) => Promise<PsaResult<PsaEntity[]>>,
      what: string,
    ): Promise<PsaResult<PsaEntity | null>> => {
      if (value === null) return ok(null)
      let got = await list.get((c) => read(this.client, c), call)
      // Added in SuperOps since the list was kept: read it again before refusing.
      if (got.ok && !byIdOrName(got.value, value))
        got = await list.get((c) => read(this.client, c), call, true)
      if (!got.ok) return got
      const found = byIdOrName(got.value, value)
      return found ? ok(found) : fail(rejected(`SuperOps has no ${what} '${value}'`))
    }
    const { lists } = this
    const group = await pick(t.board, lists.groups, groups, 'technician group')
    if (!group.ok) return group
    if (group.value) out.techGroup = { groupId: group.value.id }
    const category = await pick(t.type, lists.categories, categories, 'category')
    if (!category.ok) return category
    if (category.value) out.category = category.value.name
    const priority = await pick(t.priority, lists.priorities, priorities, 'priority')
    if (!priority.ok) return priority
    if (priority.value) out.priority = priority.value.name
    const status = await pick(t.status, lists.statuses, statuses, 'status')
    if (!status.ok) return status
    if (status.value) out.status = status.value.name
    return ok(out)
  }

  appendNote(ticketId: string, note: string, call: NoteCall): Promise<PsaResult<null>> {
    return writeNote(this.lists, ticketId, note, call)
  }

  closeTicket(
    ticketId: string,
    close: CloseRequest,
    call: CloseCall,
  ): Promise<PsaResult<{ alreadyClosed: boolean }>> {
    return closeTicket(this.lists, ticketId, close, call)
  }

  async lookup(what: LookupKind, _scope: unknown, call: PsaCall): Promise<PsaResult<PsaEntity[]>> {
    const { lists, client } = this
    switch (what) {
      case 'companies':
        return companies(client, call)
      // SuperOps has no boards: the technician group a ticket is assigned to is what sorts it.
      case 'boards':
        return lists.groups.get((c) => groups(client, c), call, true)
      case 'types':
      case 'categories':
        return lists.categories.get((c) => categories(client, c), call, true)
      case 'priorities':
        return lists.priorities.get((c) => priorities(client, c), call, true)
      case 'statuses': {
        const list = await lists.statusList(call, true)
        if (!list.ok) return list
        const closed = await lists.closed(call)
        return closed.ok ? ok(markClosed(list.value, closed.value)) : closed
      }
      case 'sources':
      case 'noteTypes':
        return ok([])
    }
  }

  readTickets(ticketIds: readonly string[], call: PsaCall): Promise<PsaResult<PsaTicketRead[]>> {
    return this.psaSync.readTickets(ticketIds, call)
  }

  reopenTicket(ticketId: string, reopen: ReopenRequest, call: NoteCall): Promise<PsaResult<null>> {
    return this.psaSync.reopenTicket(ticketId, reopen, call)
  }

  changedSince(since: string, call: PsaCall): Promise<PsaResult<{ ticketIds: string[] }>> {
    return this.psaSync.changedSince(since, call)
  }

  /** SuperOps' web app addresses tickets under the MSP's own host, which its API does not give. */
  ticketUrl(): string | null {
    return null
  }

  billingLines(companyId: string, call: PsaCall): Promise<PsaResult<BillingLine[]>> {
    return billingLines(this.client, companyId, call)
  }

  setQuantity(
    lineId: string,
    quantity: number,
    call: UsageCall,
  ): Promise<PsaResult<{ previous: number | null }>> {
    return setQuantity(this.client, lineId, quantity, call)
  }
}
