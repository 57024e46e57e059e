// Every PSA kind alertbridge speaks to, in the order the portal offers them: the built-in sandbox,
// then the PSAs elsewhere, each set up the same way by the PSA core (core/kind.ts). A new PSA is a
// folder beside these and one line here (docs/psa/README.md).
import type { Clock } from '../platform/clock.js'
import { autotaskPsa } from './autotask/adapter.js'
import { connectWisePsa } from './connectwise/adapter.js'
import type { PsaKindOptions } from './core/http.js'
import type { TokenStore } from './core/token-store.js'
import { haloPsa } from './halopsa/adapter.js'
import { kaseyaBmsPsa } from './kaseya-bms/adapter.js'
import { ninjaOnePsa } from './ninjaone/adapter.js'
import { pulsewayPsa } from './pulseway-psa/adapter.js'
import type { PsaKindEntry } from './registry.js'
import { sandboxPsa } from './sandbox/adapter.js'
import type { SandboxStore } from './sandbox/store.js'
import { superOpsPsa } from './superops/adapter.js'
import { syncroPsa } from './syncro/adapter.js'

export function psaKinds(
  sandbox: SandboxStore,
  clock: Clock,
  options: PsaKindOptions & { syncroRequestsPerMinute?: number; tokens: TokenStore },
): PsaKindEntry[] {
  const { syncroRequestsPerMinute, tokens, ...common } = options
  return [
    sandboxPsa(sandbox, clock),
    connectWisePsa(common),
    autotaskPsa(common),
    haloPsa(common),
    kaseyaBmsPsa(common),
    syncroPsa(common, { perMinute: syncroRequestsPerMinute }),
    pulsewayPsa(common),
    superOpsPsa(common),
    ninjaOnePsa(common, { tokens }),
  ]
}
