// Disabling and enabling a vendor or a partner. While a tenant is disabled every
// credential of it is refused (401/403) — the checks read this state fresh, never from a cache — and
// nothing already queued is lost: its alert jobs are held and its webhook deliveries wait. Enabling
// it resumes them. Disabling a partner also tells its vendors (a state_snapshot per integration with
// isIntegrationActive false), as does enabling it again.
import { type Clock, iso } from '../platform/clock.js'
import { done, notFound, ok, type Result } from '../platform/core/result.js'
import type { Store } from '../platform/db/store.js'
import type { JobProducer } from '../platform/queue/port.js'
import type { Actor } from './audit/operator-audit.js'
import { type Disabled, holdKey, type TenantKind } from './credentials/credentials.js'
import type { StateSnapshots } from './ports.js'

export class TenantStatus {
  constructor(
    private readonly o: {
      store: Store
      clock: Clock
      queue: Pick<JobProducer, 'resume' | 'handOver'>
      snapshots: StateSnapshots
      /** A tenant was disabled or enabled (committed): copies of its state are out of date. */
      onChange?: () => void
    },
  ) {}

  /** Disables the tenant (a second call keeps the first time and reason); answers its state. */
  async disable(kind: TenantKind, id: string, reason: string | null, by?: Actor): Promise<Result<Disabled>> {
    const at = iso(this.o.clock)
    // A refusal comes before anything is written: the transaction that answers it changes nothing.
    const disabled = await this.o.store.transaction(async (tx) => {
      const found = await this.current(tx, kind, id)
      if (!found.ok) return found
      const before = found.value
      await this.repository(tx, kind).setDisabled(id, { at, reason }, at)
      if (kind === 'partner' && before === null) await this.snapshot(tx, id)
      await tx.audit.record(
        by,
        {
          action: `${kind}.disable`,
          targetType: kind,
          targetId: id,
          summary: { reason, alreadyDisabledSince: before?.at ?? null },
        },
        at,
      )
      return this.current(tx, kind, id)
    })
    if (!disabled.ok) return disabled
    this.o.onChange?.()
    if (!disabled.value) throw new Error(`${kind} ${id} was not disabled`)
    return ok(disabled.value)
  }

  /** Enables the tenant again: its credentials work, its held jobs and waiting deliveries go on. */
  async enable(kind: TenantKind, id: string, by?: Actor): Promise<Result<void>> {
    const at = iso(this.o.clock)
    const resumed = await this.o.store.transaction(async (tx) => {
      const found = await this.current(tx, kind, id)
      if (!found.ok) return found
      const before = found.value
      await this.repository(tx, kind).setDisabled(id, null, at)
      const jobs = await this.o.queue.resume(tx, holdKey(kind, id))
      if (kind === 'partner' && before !== null) await this.snapshot(tx, id)
      await tx.audit.record(
        by,
        {
          action: `${kind}.enable`,
          targetType: kind,
          targetId: id,
          summary: { wasDisabledSince: before?.at ?? null, resumedJobs: jobs },
        },
        at,
      )
      return ok(jobs)
    })
    if (!resumed.ok) return resumed
    this.o.onChange?.()
    // The tenant's held jobs: its alerts and, for a vendor, its webhook deliveries.
    if (resumed.value > 0) this.o.queue.handOver()
    return done
  }

  /** The tenant's disabled state; 404 if there is no such tenant. */
  private async current(tx: Store, kind: TenantKind, id: string): Promise<Result<Disabled | null>> {
    const tenant = kind === 'vendor' ? await tx.vendors.findById(id) : await tx.partners.findById(id)
    if (!tenant) return notFound(`${kind === 'vendor' ? 'Vendor' : 'Partner'} '${id}'`)
    return ok(tenant.disabled)
  }

  private repository(tx: Store, kind: TenantKind) {
    return kind === 'vendor' ? tx.vendors : tx.partners
  }

  /** Each of the partner's integrations tells its vendor whether it is active now. */
  private async snapshot(tx: Store, partnerId: string): Promise<void> {
    const integrations = await tx.integrations.list({ partnerId })
    if (integrations.length > 0)
      await this.o.snapshots.changed(
        tx,
        integrations.map((i) => i.id),
      )
  }
}
