// The parts of a remote PSA kind on the Kaseya v2 engine that both kinds share
// (docs/decisions/psa/kaseya-v2-shared.md): how the PSA speaks (its name, its error text, a wait of a
// minute after a 429 without Retry-After: neither PSA says how it signals its hourly limit), the
// connection's limits (requests per endpoint per hour: 1,500 on both PSAs' help pages; calls in
// flight), and one V2Connection per connection.
import type { PsaConnection } from '../adapter.js'
import type { PsaDialect, PsaWire } from '../core/kind.js'
import type { LimiterOptions } from '../core/limiter.js'
import { V2Client } from './client.js'
import { V2Connection } from './connection.js'
import type { V2Settings } from './settings.js'
import type { V2Kind } from './variant.js'
import { v2ErrorText } from './wire.js'

export function v2Remote(k: V2Kind): {
  dialect: PsaDialect
  limits(s: V2Settings): LimiterOptions
  connect(wire: PsaWire, conn: PsaConnection<V2Settings>): V2Connection
} {
  return {
    dialect: { name: k.flavour.name, errorText: v2ErrorText, defaultRetryAfterMs: 60_000 },
    limits: (s) => ({
      perEndpoint: s.maxConcurrent ?? 4,
      budgets: [{ points: s.hourlyBudgetPerEndpoint ?? 1500, perSeconds: 3600, per: 'endpoint' }],
    }),
    connect: ({ http, limiter }, conn) =>
      new V2Connection(new V2Client(http, limiter, conn.settings, k.flavour), conn.settings, k),
  }
}
