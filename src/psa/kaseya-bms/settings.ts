// Kaseya BMS connection settings (docs/psa/kaseya-bms.md, "Settings"): its API host, and the settings
// it shares with Pulseway PSA (../kaseya-v2/settings.ts).

import { v2Fields, v2Secrets } from '../kaseya-v2/settings.js'
import { KindSettings, Url } from '../settings.js'

export const KaseyaBmsSettings = KindSettings({
  baseUrl: {
    ...Url,
    description:
      'the API host, e.g. https://api.bms.kaseya.com (or bmsemea, bmsapac, vorexlogin); the API is {baseUrl}/v2',
  },
  ...v2Fields({ name: 'Kaseya BMS', short: 'BMS' }),
})

export const kaseyaBmsSecrets = v2Secrets
