// HaloPSA connection settings (docs/psa/halopsa.md, "Settings").
import Type from 'typebox'
import { KindSettings, Str, TicketDefaults, Url } from '../settings.js'

export const HaloPsaSettings = KindSettings({
  baseUrl: {
    ...Url,
    description:
      'the instance root, e.g. https://acme.halopsa.com (the API is {baseUrl}/api; the authorisation server is found from {baseUrl}/api/authinfo)',
  },
  clientId: Str("the API application's client id (Configuration > Integrations > Halo API)"),
  clientSecret: Str("the API application's client secret"),
  tenant: Type.Optional(Str('the tenant, for hosted instances that need one on the token request')),
  rateLimitPerMinute: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 10_000,
      description:
        "requests per minute this connection sends at most (default 120: under the 700 per 5 minutes Halo instances commonly allow, leaving room for the instance's other integrations)",
    }),
  ),
  maxConcurrent: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 16, description: 'calls in flight at once (default 4)' }),
  ),
  noteOutcome: Type.Optional(
    Str("the action type (outcome) of alert notes, by name or id (default: 'Private Note')"),
  ),
  defaults: Type.Optional(TicketDefaults),
})

export const haloPsaSecrets = ['clientSecret'] as const
