// SuperOps connection settings (docs/psa/superops.md, "Settings").
import Type from 'typebox'
import { KindSettings, Str, TicketDefaults, Url } from '../settings.js'

export const SuperOpsSettings = KindSettings({
  baseUrl: {
    ...Url,
    description:
      'the GraphQL endpoint of your data centre: https://api.superops.ai/msp (US) or https://euapi.superops.ai/msp (EU)',
  },
  subdomain: Type.String({
    pattern: '^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$',
    maxLength: 63,
    description: 'the MSP subdomain (Settings → MSP Information), sent as the CustomerSubDomain header',
  }),
  apiToken: Str(
    'the API token of the technician alertbridge acts as (Settings → My Profile → API token); regenerating it revokes the old one',
  ),
  maxConcurrent: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 16, description: 'calls in flight at once (default 4)' }),
  ),
  defaults: Type.Optional(TicketDefaults),
})

export const superOpsSecrets = ['apiToken'] as const
