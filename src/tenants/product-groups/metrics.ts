// The catalogue's Prometheus counters. No tenant ids in labels: the log line of each miss carries the
// integration.
import { Counter, type Registry } from 'prom-client'

/**
 * ok / error: a call to a vendor's product-groups endpoint ended (an unreadable answer is an error);
 * timeout: a lookup stopped waiting for a call after the 500 ms budget;
 * stale_served / static_served: a lookup was answered with the last good list / the static list.
 */
export const productGroupOutcomes = ['ok', 'error', 'timeout', 'stale_served', 'static_served'] as const
export type ProductGroupOutcome = (typeof productGroupOutcomes)[number]

export class ProductGroupMetrics {
  private readonly outcomes: Record<ProductGroupOutcome, { inc(): void }>
  private readonly hits: { inc(): void }

  constructor(registry: Registry) {
    const fetches = new Counter({
      name: 'alertbridge_catalogue_fetches_total',
      help: 'Dynamic product-group catalogue: vendor calls (ok, error), lookups that stopped waiting (timeout), lookups answered from a fallback (stale_served, static_served)',
      labelNames: ['outcome'],
      registers: [registry],
    })
    const hits = new Counter({
      name: 'alertbridge_catalogue_cache_hits_total',
      help: 'Dynamic product-group catalogue lookups answered from the 15-minute cache',
      registers: [registry],
    })
    // Children bound once, so counting costs a property read and an add; every outcome shows as 0 from the start.
    this.outcomes = Object.fromEntries(productGroupOutcomes.map((o) => [o, fetches.labels(o)])) as Record<
      ProductGroupOutcome,
      { inc(): void }
    >
    for (const o of productGroupOutcomes) fetches.inc({ outcome: o }, 0)
    this.hits = hits
  }

  outcome(o: ProductGroupOutcome): void {
    this.outcomes[o].inc()
  }

  hit(): void {
    this.hits.inc()
  }
}
