// Pulseway PSA (REST API v2), described in docs/psa/pulseway-psa.md. Pulseway's API is the Kaseya BMS
// v2 engine (the same log-in, envelope, paths, paging and hourly limit per endpoint), so its tickets,
// notes, closes, look-ups, reads, reopen and usage are the shared ../kaseya-v2/ code
// (docs/decisions/psa/kaseya-v2-shared.md). What is Pulseway's own: its published host as the
// default, its names, its log-in fields as Pulseway spells them, and no push (psa-sync.ts).
import type { PsaKindOptions } from '../core/http.js'
import { remotePsaKind } from '../core/kind.js'
import { v2Remote } from '../kaseya-v2/kind.js'
import type { PsaKindEntry } from '../registry.js'
import { pulsewayFeeds, pulsewaySyncWords } from './psa-sync.js'
import { PulsewayPsaSettings, pulsewayDefaultHost, pulsewayPsaSecrets } from './settings.js'

/** The Pulseway PSA kind, talking through the service's outbound client. */
export function pulsewayPsa(options: PsaKindOptions): PsaKindEntry {
  return remotePsaKind(options, {
    kind: 'pulseway-psa',
    settings: PulsewayPsaSettings,
    secretFields: pulsewayPsaSecrets,
    ...v2Remote({
      flavour: {
        name: 'Pulseway PSA',
        short: 'Pulseway',
        defaultHost: pulsewayDefaultHost,
        loginFields: 'camelCase',
        activityFeeds: pulsewayFeeds,
      },
      syncWords: pulsewaySyncWords,
    }),
  })
}
