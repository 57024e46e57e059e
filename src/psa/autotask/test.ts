// Testing an Autotask connection without changing anything (the zone is found, the credentials are
// accepted, the API user may read tickets and companies; each failure one sentence), saying what new
// tickets will get: their queue, status, priority and ticket category as plan.ts works them out for
// every alert (or the one sentence that says which must still be chosen, and where), and how notes are
// written. And keeping the tenant's hourly request threshold: when this process has used most of it,
// ThresholdInformation says how much the whole tenant has (other integrations count too), and near the
// threshold calls pause.
import type { Static } from 'typebox'
import type { PsaCall, PsaFailure, PsaResult } from '../adapter.js'
import { explain, refused } from '../core/explain.js'
import type { ConnectionLimiter } from '../core/limiter.js'
import type { AutotaskClient } from './client.js'
import { describeNotes } from './notes.js'
import { describePlan, planTicket } from './plan.js'
import type { AutotaskSettings } from './settings.js'

interface Threshold {
  externalRequestThreshold?: number
  currentTimeframeRequestCount?: number
}

export async function connectionTest(
  client: AutotaskClient,
  s: Static<typeof AutotaskSettings>,
  call: PsaCall,
): Promise<PsaResult<{ detail: string }>> {
  const root = await client.root(call, true)
  if (!root.ok) return refused(why(root.failure, s.baseUrl ?? 'the zone lookup'))
  const threshold = await client.api('GET', 'ThresholdInformation', call)
  if (!threshold.ok) return refused(why(threshold.failure, root.value))
  for (const [entity, what] of [
    ['Tickets', 'tickets'],
    ['Companies', 'companies'],
  ] as const) {
    const res = await client.api('POST', `${entity}/query`, call, {
      filter: [{ op: 'eq', field: 'id', value: 0 }],
      IncludeFields: ['id'],
      MaxRecords: 1,
    })
    if (!res.ok) return refused(why(res.failure, root.value, what))
  }
  const fields = await client.picklists('Tickets', call, true)
  if (!fields.ok) return refused(why(fields.failure, root.value, 'ticket fields'))
  const d = s.defaults ?? {}
  const plan = planTicket(
    fields.value,
    {
      board: d.board ?? null,
      status: d.status ?? null,
      priority: d.priority ?? null,
      type: d.type ?? null,
      category: s.ticketCategory ?? null,
      source: s.source ?? null,
    },
    true,
  )
  if (!plan.ok) return refused(plan.failure.message)
  const notes = await describeNotes(client, s, call)
  if (!notes.ok)
    return refused(
      notes.failure.kind === 'rejected'
        ? notes.failure.message
        : why(notes.failure, root.value, 'ticket notes'),
    )
  const t = threshold.value.body as Threshold | null
  const used =
    t?.externalRequestThreshold !== undefined
      ? ` (${t.currentTimeframeRequestCount ?? 0} of ${t.externalRequestThreshold} requests used this hour)`
      : ''
  return {
    ok: true,
    value: {
      detail: `Connected to Autotask at ${root.value}${used}. ${describePlan(plan.value)}; ${notes.value}.`,
    },
  }
}

function why(f: PsaFailure, where: string, area?: string): string {
  if (f.kind === 'auth' && /zone/.test(f.message))
    return `${f.message}: check the user name (it is an e-mail address)`
  return explain(f, {
    psa: 'Autotask',
    where,
    credentials: 'username, secret, integrationCode',
    account: 'API user (its security level)',
    area,
  })
}

/** Reads the tenant's usage when this process has used most of the hour's budget, and pauses near it. */
export class BudgetGuard {
  private checkedAt = 0

  constructor(
    private readonly client: AutotaskClient,
    private readonly limiter: ConnectionLimiter,
    private readonly o: { budget: number; lookAtShare: number; pauseAtShare: number } = {
      budget: 10_000,
      lookAtShare: 0.8,
      pauseAtShare: 0.95,
    },
  ) {}

  async check(call: PsaCall): Promise<void> {
    const used = (await this.limiter.budgetUsed()) ?? 0
    if (used < this.o.budget * this.o.lookAtShare || Date.now() - this.checkedAt < 60_000) return
    this.checkedAt = Date.now()
    const res = await this.client.api('GET', 'ThresholdInformation', call)
    if (!res.ok) return
    const t = res.value.body as Threshold | null
    const limit = t?.externalRequestThreshold ?? this.o.budget
    // Our own reading of the tenant's threshold: a pause asked for, not guessed.
    if ((t?.currentTimeframeRequestCount ?? 0) >= limit * this.o.pauseAtShare)
      this.limiter.pause(60_000, true)
  }
}
