// Pulseway PSA connection settings (docs/psa/pulseway-psa.md, "Settings"): its API host (optional, the
// published one by default; a tenant's Gateway URL may differ), and the settings it shares with Kaseya
// BMS (../kaseya-v2/settings.ts).
import Type from 'typebox'
import { v2Fields, v2Secrets } from '../kaseya-v2/settings.js'
import { KindSettings, Url } from '../settings.js'

export const pulsewayDefaultHost = 'https://api.psa.pulseway.com'

export const PulsewayPsaSettings = KindSettings({
  baseUrl: Type.Optional({
    ...Url,
    description: `the API host (default ${pulsewayDefaultHost}); the API is {baseUrl}/v2`,
  }),
  ...v2Fields({ name: 'Pulseway PSA', short: 'Pulseway' }),
})

export const pulsewayPsaSecrets = v2Secrets
