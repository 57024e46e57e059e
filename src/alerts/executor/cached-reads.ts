// The reads of alert intake (rows 2–4 of both strategies) and of the webhook strategy's immediate
// answer, with the integration's configuration (vendor, integration, rules, mappings, declared
// accounts) held in memory for a second. The answer is a preview: the queued job (and the executor of
// the synchronous path) decides again on fresh reads, so a configuration change can only make the
// preview of the next second out of date, never the outcome. A vendor or integration that was not
// found is not kept, so one created a moment ago (by another process) is found at once; a change made
// through this process clears everything at once (app.ts), and through another process as soon as its
// notice arrives (with Redis; src/platform/redis/notices.ts), the second's lifetime being the safety net.
// Tickets are always read fresh. Concurrent misses for one key share one load.
import { LRUCache } from 'lru-cache'
import type { AccountMapping } from '../../platform/core/types.js'
import type { Store } from '../../platform/db/store.js'
import type { PsaKind } from '../../psa/index.js'
import type { Integration, Vendor } from '../../tenants/index.js'
import type { IntakeReads } from '../intake/intake.js'
import type { Rule } from '../rules/rules.js'
import type { MaintenanceWindow } from '../steps/maintenance/maintenance.js'
import type { ContextReads } from './context.js'

type Boxed<T> = { value: T }

type Cached<T> = ((key: string) => Promise<T>) & { clear(): void }

function cache<T>(ttlMs: number, load: (key: string) => Promise<T>, keepNull = true): Cached<T> {
  const c = new LRUCache<string, Boxed<T>>({
    max: 10_000,
    ttl: ttlMs,
    fetchMethod: async (key) => ({ value: await load(key) }),
  })
  /** Bumped by each clear: a load in flight across one is for a configuration already changed. */
  let generation = 0
  // A hit is answered from `get`, without the fetch machinery (measurable on the alert path).
  const read = async (key: string) => {
    const hit = c.get(key)
    if (hit) return hit.value
    const started = generation
    let fetched: Boxed<T> | undefined
    try {
      fetched = await c.fetch(key)
    } catch (err) {
      // A clear while loading (a configuration notice from another process, say) aborts the shared
      // load: read afresh for this caller, without keeping it, rather than fail the request.
      if (generation !== started) return load(key)
      throw err
    }
    const { value } = fetched!
    if (value === null && !keepNull) c.delete(key)
    return value
  }
  return Object.assign(read, {
    clear: () => {
      generation++
      c.clear()
    },
  })
}

export class CachedReads implements IntakeReads, ContextReads {
  readonly vendors: IntakeReads['vendors']
  readonly integrations: IntakeReads['integrations']
  readonly vendorData: ContextReads['vendorData']
  readonly rules: ContextReads['rules']
  readonly mappings: ContextReads['mappings']
  readonly tickets: ContextReads['tickets']
  /**
   * The windows are configuration, kept like the rules (a change through the API clears them; whether
   * one is active is read from its stored occurrences at the time of each alert, which a copy a second
   * old still tells exactly: src/alerts/steps/maintenance/upcoming.ts); what is held is read afresh.
   */
  readonly maintenance: NonNullable<ContextReads['maintenance']>
  /** Read afresh: storm control counts the creates of the last minutes. */
  readonly storms: ContextReads['storms']
  /**
   * The tenant state (disabled tenants, credential generations), kept until `clear` (or for
   * `tenantStateTtlMs`): only where every change clears it, the embedded database (one process) or
   * PostgreSQL with Redis (configuration notices; services.ts).
   */
  readonly tenantStateUntilChanged: Store['integrations']['tenantState']
  /** The kind of a partner's PSA (which decides the queued alert's concurrency group). */
  readonly partnerPsaKind: (partnerId: string) => Promise<PsaKind | null>
  /** Forgets everything: the configuration changed. */
  readonly clear: () => void

  /** `tenantStateTtlMs`: 0 keeps the tenant state until `clear`. */
  constructor(store: Store, ttlMs = 1000, tenantStateTtlMs = 0) {
    const vendor = cache<Vendor | null>(ttlMs, (clientId) => store.vendors.findByClientId(clientId), false)
    const integration = cache<(Integration & { orgTokenDigest: string }) | null>(
      ttlMs,
      (d) => store.integrations.findByOrgTokenDigest(d),
      false,
    )
    const account = cache<boolean>(ttlMs, (key) => {
      const [integrationId, accountId] = JSON.parse(key) as [string, string]
      return store.vendorData.accountExists(integrationId, accountId)
    })
    const rules = cache<Rule[]>(ttlMs, (id) => store.rules.list(id))
    const windows = cache<MaintenanceWindow[]>(ttlMs, (id) => store.maintenance.list(id))
    const psaKind = cache<PsaKind | null>(ttlMs, (id) => store.partners.psaKind(id), false)
    type State = Awaited<ReturnType<Store['integrations']['tenantState']>>
    const tenantState = cache<State>(tenantStateTtlMs, (id) => store.integrations.tenantState(id), false)
    // Per account, like the account cache: an alert needs one mapping, not its integration's all.
    const mapping = cache<AccountMapping | null>(ttlMs, async (key) => {
      const [integrationId, accountId] = JSON.parse(key) as [string, string]
      const found = await store.mappings.forAccounts(integrationId, [accountId])
      return found.get(accountId) ?? null
    })

    this.vendors = { findByClientId: vendor }
    this.integrations = { findByOrgTokenDigest: integration }
    this.vendorData = { accountExists: (i, a) => account(JSON.stringify([i, a])) }
    this.rules = { list: rules }
    this.mappings = {
      forAccounts: async (integrationId, accountIds) => {
        const found = new Map<string, AccountMapping>()
        for (const a of accountIds) {
          const m = await mapping(JSON.stringify([integrationId, a]))
          if (m) found.set(a, m)
        }
        return found
      },
    }
    this.tickets = store.tickets
    this.maintenance = { list: windows, heldFor: (i, c) => store.maintenance.heldFor(i, c) }
    this.storms = store.storms
    this.partnerPsaKind = psaKind
    this.tenantStateUntilChanged = tenantState
    this.clear = () => {
      for (const c of [vendor, integration, account, rules, windows, mapping, psaKind, tenantState]) c.clear()
    }
    this.freshReads = (everyChangeHeard) =>
      everyChangeHeard
        ? {
            vendors: store.vendors,
            integrations: {
              findByOrgTokenDigest: (d) => store.integrations.findByOrgTokenDigest(d),
              tenantState: this.tenantStateUntilChanged,
            },
          }
        : store
  }

  /**
   * The intake's reads that must be current: the vendor, the integration and the tenant state
   * (disabled tenants, credential generations: docs/decisions/credentials/). The tenant state is read
   * for every alert unless `everyChangeHeard`: on the embedded database one process makes every change,
   * through routes that clear these copies, and with Redis every change reaches every process as a
   * notice, so a copy kept until then is as fresh (and the read was a tenth of the accept path's CPU).
   * PostgreSQL alone may have other processes changing it unheard: read every time.
   */
  readonly freshReads: (everyChangeHeard: boolean) => FreshIntakeReads
}

/** What AlertIntake reads fresh (intake.ts). */
export interface FreshIntakeReads {
  vendors: Pick<Store['vendors'], 'findByClientId'>
  integrations: Pick<Store['integrations'], 'findByOrgTokenDigest' | 'tenantState'>
}
