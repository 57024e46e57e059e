// Checking an Autotask connection without changing anything (the zone is found, the credentials are
// accepted, the API user may read tickets and companies; each failure one sentence), saying what new
// tickets will get: their queue, status, priority and ticket category as plan.ts works them out for
// every alert (or the one sentence that says which must still be chosen, and where), how notes are
// written, and how much of the tenant's hourly request threshold is used.
import type { Static } from 'typebox'
import type { PsaCall, PsaFailure, PsaResult } from '../adapter.js'
import { explain, refused } from '../core/explain.js'
import type { Threshold } from './budget.js'
import type { AutotaskClient } from './client.js'
import { describeNotes } from './notes.js'
import { describePlan, planTicket } from './plan.js'
import type { AutotaskSettings } from './settings.js'

export async function checkConnection(
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
