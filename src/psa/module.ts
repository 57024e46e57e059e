// The psa module, built once by the composition root (src/main/services.ts): the registry of every PSA
// kind, the sandbox PSA's own tickets, and testing a partner's connection with its look-ups. It has no
// routes and no jobs of its own; the modules above call PSAs through the registry.
import type { ModuleParts } from '../platform/composition/module.js'
import type { Platform } from '../platform/composition/platform.js'
import type { OutboundHttp } from '../platform/outbound/http.js'
import { OauthStates } from './core/oauth-states.js'
import { SqlTokenStore } from './core/token-store.js'
import { psaKinds } from './kinds.js'
import { PsaConnections } from './partner-connections.js'
import { PsaRegistry } from './registry.js'
import { SandboxStore } from './sandbox/store.js'

export interface PsaModule extends ModuleParts {
  registry: PsaRegistry
  /** The sandbox PSA's own tickets and fault switch (its partner routes). */
  sandbox: SandboxStore
  /** Testing a partner's PSA connection and its look-ups, kept a few minutes. */
  connections: PsaConnections
  /** Authorization-code flows under way (Connect NinjaOne), and the client their code exchange goes through. */
  consent: { states: OauthStates; http: Pick<OutboundHttp, 'send'> }
}

export function psaModule(p: Platform): PsaModule {
  const { config } = p
  // The sandbox's writes join the group commit of the alert path's (src/platform/db/write-batch.ts).
  const sandbox = new SandboxStore(p.db.kysely, (work) => p.writes.run((tx) => work(tx.kysely)))
  const http = p.outbound('alertbridge-psa/1')
  const registry = new PsaRegistry(
    psaKinds(sandbox, p.clock, {
      http,
      log: p.log,
      requestTimeoutMs: config.psaTimeoutMs,
      limiters: p.limiters,
      egress: config.egressName,
      syncroRequestsPerMinute: config.syncroRequestsPerMinute,
      // Tokens a PSA rotates (NinjaOne's), shared by every process on the database.
      tokens: new SqlTokenStore(p.db.kysely, p.box),
    }),
  )
  const connections = new PsaConnections({ psa: registry, timeoutMs: config.psaTimeoutMs })
  const consent = { states: new OauthStates(p.db.kysely, p.box), http }
  return { registry, sandbox, connections, consent, routes: [], jobs: [] }
}
