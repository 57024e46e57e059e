// Kaseya BMS (API v2), as its published OpenAPI and working clients describe it (docs/psa/kaseya-bms.md).
// Its tickets, notes, closes, look-ups, reads, reopen and usage are the Kaseya v2 engine's, shared with
// Pulseway PSA (../kaseya-v2/, docs/decisions/psa/kaseya-v2-shared.md); what is BMS's own is its host
// (required: US, EMEA, APAC and older hosts), its names, and that no BMS push is taken (its webhooks'
// signature is not published; psa-sync.ts): the poll hears it, and a webhook an earlier version
// registered is removed.
import type { PsaKindOptions } from '../core/http.js'
import { remotePsaKind } from '../core/kind.js'
import { v2Remote } from '../kaseya-v2/kind.js'
import type { PsaKindEntry } from '../registry.js'
import { bmsPollOnlyReason, bmsRetiredPush, bmsSyncWords } from './psa-sync.js'
import { KaseyaBmsSettings, kaseyaBmsSecrets } from './settings.js'

/** The Kaseya BMS kind, talking through the service's outbound client. */
export function kaseyaBmsPsa(options: PsaKindOptions): PsaKindEntry {
  return remotePsaKind(options, {
    kind: 'kaseya-bms',
    settings: KaseyaBmsSettings,
    secretFields: kaseyaBmsSecrets,
    ...v2Remote({
      flavour: {
        name: 'Kaseya BMS',
        short: 'BMS',
        defaultHost: null,
        loginFields: 'PascalCase',
        activityFeeds: ['activities'],
      },
      pollOnlyReason: bmsPollOnlyReason,
      retiredPush: bmsRetiredPush,
      syncWords: bmsSyncWords,
    }),
  })
}
