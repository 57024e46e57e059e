// The effective catalogue of one integration (docs/decisions/catalogue/effective-catalogue.md): the
// vendor's static list, or, when the vendor has a productGroupsUrl and the partner configured credentials,
// the list the vendor's endpoint answers for that partner (cached, single-flight, stale-if-error, 500 ms
// budget; cache.ts). Whatever cannot be had in time falls back to the last good list, else the static one;
// every fallback is logged and counted. A change of the dynamic list is told to `onListChanged`.
import type { FastifyBaseLogger } from 'fastify'
import type { Clock } from '../../platform/clock.js'
import type { ProductGroups } from '../../platform/core/types.js'
import type { Store } from '../../platform/db/store.js'
import type { Integration } from '../integrations/integration.js'
import type { Vendor } from '../vendor.js'
import { readProductGroupAnswer } from './adapter.js'
import { type CachedList, type FetchResult, type Lookup, ProductGroupCache } from './cache.js'
import type { ProductGroupMetrics } from './metrics.js'
import { toProductGroups } from './product-groups.js'
import type { ProductGroupFetcher } from './vendor-fetch.js'

export type VendorProductGroupsConfig = Pick<
  Vendor,
  'productGroups' | 'productGroupsUrl' | 'productGroupsMapping'
>

/**
 * static: the vendor has no endpoint (or the partner configured no credentials for it);
 * dynamic: the vendor's answer, fresh; dynamic-stale: the last good answer, older than 15 minutes,
 * because a newer one could not be had; static-fallback: no good answer yet, so the static list.
 */
export type ProductGroupOrigin = 'static' | 'dynamic' | 'dynamic-stale' | 'static-fallback'

export interface EffectiveProductGroups {
  catalogue: ProductGroups | null
  groups: Record<string, string[]> | null
  source: ProductGroupOrigin
  /** When the dynamic list was fetched (ISO), for dynamic and dynamic-stale. */
  fetchedAt: string | null
  /** Why the list is not a fresh dynamic one, when it should have been. */
  reason: string | null
}

const staticProductGroupsCache = new WeakMap<Record<string, string[]>, ProductGroups>()

/** The vendor's static list as a ProductGroups map, built once per loaded vendor row. */
function staticProductGroups(groups: Record<string, string[]> | null): ProductGroups | null {
  if (!groups) return null
  let catalogue = staticProductGroupsCache.get(groups)
  if (!catalogue) {
    catalogue = toProductGroups(groups)
    staticProductGroupsCache.set(groups, catalogue)
  }
  return catalogue
}

const sourceOf = (vendor: VendorProductGroupsConfig) =>
  `${vendor.productGroupsUrl}\n${JSON.stringify(vendor.productGroupsMapping)}`

export class ProductGroupSource {
  private readonly cache: ProductGroupCache

  constructor(
    private readonly deps: {
      store: Store
      clock: Clock
      log: FastifyBaseLogger
      metrics: ProductGroupMetrics
      fetcher: ProductGroupFetcher
      /** A partner's dynamic list is new or changed (services.ts schedules a state_snapshot). */
      onListChanged: (integrationId: string) => void
      /** An integration's list was forgotten here; the other processes should forget theirs (notices). */
      onForget?: (integrationId: string) => void
    },
  ) {
    this.cache = new ProductGroupCache(deps.clock, {
      fetched: (key, result, previous, stored) => this.fetched(key, result, previous, stored),
      timedOut: () => deps.metrics.outcome('timeout'),
    })
  }

  /** The catalogue this integration may use now; waits at most the budget for the vendor. */
  async effective(
    vendor: VendorProductGroupsConfig,
    integration: Pick<Integration, 'id' | 'vendorCredentials'>,
  ): Promise<EffectiveProductGroups> {
    if (!vendor.productGroupsUrl || !integration.vendorCredentials) return this.staticList(vendor)
    const source = sourceOf(vendor)
    const hit = this.cache.hit(integration.id, source)
    if (hit) {
      this.deps.metrics.hit()
      return dynamic(hit, 'dynamic')
    }
    const lookup = await this.cache.lookup(integration.id, source, () => this.fetch(vendor, integration.id))
    return this.served(vendor, integration.id, lookup)
  }

  /**
   * Without waiting or calling anyone: the cached list (even stale), else the static one. A stale or
   * missing list starts a refresh in the background. For the state_snapshot, built in a transaction.
   */
  peek(
    vendor: VendorProductGroupsConfig,
    integration: Pick<Integration, 'id' | 'vendorCredentials'>,
  ): EffectiveProductGroups {
    if (!vendor.productGroupsUrl || !integration.vendorCredentials) return this.staticList(vendor)
    const source = sourceOf(vendor)
    const fresh = this.cache.hit(integration.id, source)
    if (fresh) return dynamic(fresh, 'dynamic')
    this.cache.refresh(integration.id, source, () => this.fetch(vendor, integration.id))
    const any = this.cache.peek(integration.id, source)
    if (any) return dynamic(any, 'dynamic-stale', 'being refreshed')
    return { ...this.staticList(vendor), source: 'static-fallback', reason: 'not fetched yet' }
  }

  /**
   * Drops the integration's cached list (its credentials changed); a call in flight no longer fills
   * it. Every process's copy: `onForget` tells the others.
   */
  forget(integrationId: string): void {
    this.cache.forget(integrationId)
    this.deps.onForget?.(integrationId)
  }

  /** Drops the integration's list in this process only: another process's notice said to. */
  forgetHere(integrationId: string): void {
    this.cache.forget(integrationId)
  }

  /** Drops every list in this process: notices may have been missed. */
  forgetAll(): void {
    this.cache.forgetAll()
  }

  private staticList(vendor: VendorProductGroupsConfig): EffectiveProductGroups {
    return {
      catalogue: staticProductGroups(vendor.productGroups),
      groups: vendor.productGroups,
      source: 'static',
      fetchedAt: null,
      reason: null,
    }
  }

  private served(
    vendor: VendorProductGroupsConfig,
    integrationId: string,
    lookup: Lookup,
  ): EffectiveProductGroups {
    if (lookup.kind === 'fresh') return dynamic(lookup.list, 'dynamic')
    const { metrics, log } = this.deps
    const reason = `${lookup.why}: ${lookup.reason}`
    if (lookup.kind === 'stale') {
      metrics.outcome('stale_served')
      log.info({ integrationId, reason }, 'catalogue: serving the last good list of the vendor')
      return dynamic(lookup.list, 'dynamic-stale', reason)
    }
    metrics.outcome('static_served')
    log.info({ integrationId, reason }, "catalogue: serving the vendor's static list")
    return { ...this.staticList(vendor), source: 'static-fallback', reason }
  }

  private async fetch(vendor: VendorProductGroupsConfig, integrationId: string): Promise<FetchResult> {
    this.deps.log.info(
      { integrationId },
      "catalogue: cache miss, calling the vendor's product-groups endpoint",
    )
    const credentials = await this.deps.store.integrations.vendorCredentials(integrationId)
    const answer = await this.deps.fetcher({ url: vendor.productGroupsUrl!, credentials })
    if (!answer.ok) return answer
    const read = readProductGroupAnswer(answer.body, vendor.productGroupsMapping)
    return read.ok ? read : { ok: false, reason: `the answer cannot be read: ${read.reason}` }
  }

  private fetched(
    integrationId: string,
    result: FetchResult,
    previous: CachedList | null,
    stored: boolean,
  ): void {
    const { metrics, log } = this.deps
    if (!result.ok) {
      metrics.outcome('error')
      log.warn({ integrationId, reason: result.reason }, "catalogue: the vendor's product-groups call failed")
      return
    }
    metrics.outcome('ok')
    if (!stored || (previous !== null && sameGroups(previous.groups, result.groups))) return
    // A new or changed list for this partner: whoever listens tells the vendor.
    this.deps.onListChanged(integrationId)
  }
}

function dynamic(
  list: CachedList,
  source: 'dynamic' | 'dynamic-stale',
  reason: string | null = null,
): EffectiveProductGroups {
  return {
    catalogue: list.catalogue,
    groups: list.groups,
    source,
    fetchedAt: new Date(list.fetchedAt).toISOString(),
    reason,
  }
}

function sameGroups(a: Record<string, string[]>, b: Record<string, string[]>): boolean {
  const norm = (g: Record<string, string[]>) =>
    JSON.stringify(
      Object.keys(g)
        .sort()
        .map((k) => [k, [...(g[k] ?? [])].sort()]),
    )
  return norm(a) === norm(b)
}
