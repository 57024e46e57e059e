// Keeping the Autotask tenant's hourly request threshold (docs/psa/autotask.md): when this process has
// used most of its own budget, ThresholdInformation says how much the whole tenant has used (other
// integrations count too), and near the threshold the connection's calls pause.
import type { PsaCall } from '../adapter.js'
import type { ConnectionLimiter } from '../core/limiter.js'
import type { AutotaskClient } from './client.js'

/** ThresholdInformation's answer. */
export interface Threshold {
  externalRequestThreshold?: number
  currentTimeframeRequestCount?: number
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
