// SuperOps' request limit as the adapter keeps it (docs/psa/superops.md#limits): 800 requests a minute
// per API token. Every connection that uses a token — in this process, and where Redis counts
// (PsaKindOptions.limiters) in every process — spends one budget of 780 a minute, a little under
// SuperOps' own, so that SuperOps rarely has to refuse. The budget's key is a digest of the endpoint,
// the subdomain and the token: never the token itself.
import { createHash } from 'node:crypto'
import type { Static } from 'typebox'
import type { Limiter } from '../../platform/redis/limiters.js'
import type { SharedBudget } from '../core/limiter.js'
import type { SuperOpsSettings } from './settings.js'

/** The budget a token spends a minute: SuperOps allows 800. */
export const superOpsPerMinute = 780

/** The token's budget, keyed by a digest of where and who it is. */
export function tokenBudget(limiter: Limiter, s: Static<typeof SuperOpsSettings>): SharedBudget {
  const key = createHash('sha256')
    .update(`${s.baseUrl.replace(/\/+$/, '')}\n${s.subdomain.toLowerCase()}\n${s.apiToken}`)
    .digest('base64url')
    .slice(0, 22)
  return { limiter, key, label: `SuperOps' ${limiter.points} requests a minute for this API token` }
}
