// Usage counts reach the partner's PSA (docs/partner-api.md#usage-counts-reach-the-psas-billing). A
// vendor's count is stored and its push queued in one transaction; the job pushes the latest count of its
// (service, account) pair when it runs, so counts that arrive faster than the PSA takes them coalesce into
// the newest, and a retry re-reads everything (an Autotask delta is computed from the units as they are
// then, never applied twice). One job per pair runs at a time (its group), so an older count can never
// overwrite a newer one.
import type { FastifyBaseLogger } from 'fastify'
import { Counter, type Registry } from 'prom-client'
import Type from 'typebox'
import { v7 as uuidv7 } from 'uuid'
import { type Clock, iso } from '../platform/clock.js'
import type { Store } from '../platform/db/store.js'
import { defineJob, jobKind } from '../platform/queue/jobs.js'
import type { JobKindEntry, JobProducer, JobResult } from '../platform/queue/port.js'
import type { PsaFailure, PsaRegistry } from '../psa/index.js'
import type { UsageCount } from '../tenants/index.js'
import { tenantHold } from '../tenants/index.js'
import { afterFailure, lineForProduct, type UsagePush, usageTarget } from './usage-push-plan.js'

const Id = Type.String({ minLength: 1, maxLength: 256 })

/** The push of one (service, account) pair's latest count; retried on USAGE_RETRY_SCHEDULE. */
export const usagePushJob = (o: { retryScheduleMs: readonly number[] }) =>
  defineJob({
    kind: 'usage-push',
    payload: Type.Object({ integrationId: Id, serviceId: Id, accountId: Id }),
    retry: { delaysMs: o.retryScheduleMs, maxDelayMs: 24 * 60 * 60 * 1000 },
    perGroup: 1,
  })

export type UsagePushJob = ReturnType<typeof usagePushJob>

interface Pair {
  serviceId: string
  accountId: string
}

/** Queues pushes: inside the caller's transaction, then `handOver` once it has committed. */
export class UsagePushes {
  constructor(
    private readonly queue: JobProducer,
    private readonly spec: UsagePushJob,
  ) {}

  /** A count was stored: its pair shows it pending, and its push is queued. */
  async counted(tx: Store, integrationId: string, usage: UsageCount): Promise<void> {
    await tx.usagePushes.pending(integrationId, { ...usage, usageId: usage.id }, usage.createdAt)
    await this.enqueue(tx, integrationId, [usage])
  }

  /**
   * A mapping changed: the latest count of each pair it touches is pushed again (to the new line, or
   * shown unmapped): a service's (every account), an account's (every service) or one pair's.
   * Answers how many pushes it queued.
   */
  async remapped(
    tx: Store,
    integrationId: string,
    which: { serviceId?: string; accountId?: string },
  ): Promise<number> {
    const latest = await tx.usage.latest(integrationId, which)
    for (const u of latest) await tx.usagePushes.pending(integrationId, { ...u, usageId: u.id }, u.createdAt)
    await this.enqueue(tx, integrationId, latest)
    return latest.length
  }

  /** Pushes the latest count of every pair again (after the partner fixed what made a push fail). */
  async pushAgain(store: Store, integrationId: string): Promise<number> {
    const n = await store.transaction((tx) => this.remapped(tx, integrationId, {}))
    this.handOver()
    return n
  }

  handOver(): void {
    this.queue.handOver()
  }

  private async enqueue(tx: Store, integrationId: string, pairs: readonly Pair[]): Promise<void> {
    if (pairs.length === 0) return
    await this.queue.enqueue(
      tx,
      pairs.map(({ serviceId, accountId }) => {
        // JSON: ids may hold any character (PostgreSQL text holds no NUL to separate them with).
        const pair = JSON.stringify([integrationId, serviceId, accountId])
        return this.spec.job({
          id: uuidv7(),
          payload: { integrationId, serviceId, accountId },
          // A push already queued for the pair takes the newer count when it runs.
          dedupeKey: `usage:${pair}`,
          group: pair,
        })
      }),
    )
  }
}

export interface UsagePushDeps {
  store: Store
  psa: Pick<PsaRegistry, 'connect'>
  clock: Clock
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>
  psaTimeoutMs: number
  metrics: Registry
}

/** The usage-push job's kind. */
export function usagePushKind(spec: UsagePushJob, deps: UsagePushDeps): JobKindEntry {
  const outcomes = new Counter({
    name: 'alertbridge_usage_pushes_total',
    help: 'Attempts at pushing a usage count to a PSA billing line, by what they left (pushed, retrying, failed, unmapped)',
    labelNames: ['status'],
    registers: [deps.metrics],
  })
  return jobKind(spec, (job) => push(deps, outcomes, job.payload, job.attempt, job.canRetry))
}

async function push(
  deps: UsagePushDeps,
  outcomes: Counter<'status'>,
  { integrationId, serviceId, accountId }: { integrationId: string; serviceId: string; accountId: string },
  attempt: number,
  canRetry: boolean,
): Promise<JobResult> {
  const { store } = deps
  const [latest] = await store.usage.latest(integrationId, { serviceId, accountId })
  const integration = await store.integrations.findById(integrationId)
  // The integration was removed (its counts with it), or the count was pruned: nothing to push.
  if (!latest || !integration) return { kind: 'done' }
  const tenants = await store.integrations.tenantState(integrationId)
  const hold = tenants && tenantHold(tenants)
  if (hold) return { kind: 'hold', key: hold.key, reason: `held: ${hold.reason}` }
  const partner = await store.partners.findById(integration.partnerId)
  if (!partner) return { kind: 'done' }

  const [line, products, accounts] = await Promise.all([
    store.usagePushes.lineFor(integrationId, serviceId, accountId),
    store.serviceMappings.forServices(integrationId, [serviceId]),
    store.mappings.forAccounts(integrationId, [accountId]),
  ])
  const target = usageTarget(
    {
      line,
      product: products.get(serviceId) ?? null,
      company: accounts.get(accountId)?.psaCompanyId ?? null,
    },
    serviceId,
    accountId,
  )
  const state = (s: Pick<UsagePush, 'status' | 'psaLineId' | 'previousQuantity' | 'detail'>) => {
    outcomes.inc({ status: s.status })
    return record(store, integrationId, {
      serviceId,
      accountId,
      usageId: latest.id,
      unitCount: latest.unitCount,
      attempts: attempt,
      updatedAt: iso(deps.clock),
      ...s,
    })
  }
  if (target.kind === 'unmapped') {
    await state({ status: 'unmapped', psaLineId: null, previousQuantity: null, detail: target.detail })
    return { kind: 'done' }
  }

  const failed = async (f: PsaFailure, lineId: string | null): Promise<JobResult> => {
    const next = afterFailure(f, canRetry)
    await state({ status: next.status, psaLineId: lineId, previousQuantity: null, detail: next.detail })
    deps.log.warn(
      { integrationId, serviceId, accountId, attempt, failure: f.kind },
      `usage push ${next.status === 'retrying' ? 'will be retried' : 'failed'}`,
    )
    return next.status === 'retrying'
      ? { kind: 'retry', reason: f.message, ...(f.retryAfterMs ? { notBeforeMs: f.retryAfterMs } : {}) }
      : { kind: 'done' }
  }

  const connected = deps.psa.connect(partner.id, partner.psa)
  if (!connected.ok) return failed(connected.failure, null)
  const { client } = connected
  // Every call of the push has the same budget as an alert's PSA operation.
  const signal = () => AbortSignal.timeout(4 * deps.psaTimeoutMs)

  let lineId: string
  if (target.kind === 'line') lineId = target.lineId
  else {
    const lines = await client.billingLines(target.companyId, { signal: signal() })
    if (!lines.ok) return failed(lines.failure, null)
    const found = lineForProduct(lines.value, target.productId, target.companyId)
    if (!found.ok) {
      await state({ status: 'failed', psaLineId: null, previousQuantity: null, detail: found.detail })
      return { kind: 'done' }
    }
    lineId = found.lineId
  }
  const set = await client.setQuantity(lineId, latest.unitCount, {
    signal: signal(),
    effectiveDate: latest.createdAt,
  })
  if (!set.ok) return failed(set.failure, lineId)
  await state({ status: 'pushed', psaLineId: lineId, previousQuantity: set.value.previous, detail: null })
  deps.log.info(
    { integrationId, serviceId, accountId, psaLineId: lineId, unitCount: latest.unitCount },
    'usage pushed to the PSA',
  )
  return { kind: 'done' }
}

/**
 * Records an attempt's outcome, unless a newer count has been stored meanwhile (its own job will
 * record): then only what the PSA took is noted.
 */
async function record(store: Store, integrationId: string, s: Omit<UsagePush, 'pushedCount' | 'pushedAt'>) {
  await store.transaction(async (tx) => {
    const current = await tx.usagePushes.state(integrationId, s.serviceId, s.accountId)
    if (current && current.usageId > s.usageId) {
      if (s.status === 'pushed') await tx.usagePushes.tookEarlier(integrationId, s, s.updatedAt)
      return
    }
    await tx.usagePushes.record(integrationId, s)
  })
}
