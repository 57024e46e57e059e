// NinjaOne connection settings (docs/psa/ninjaone.md#settings). The refresh token is the user-context
// grant the portal's "Connect NinjaOne" step brings back (or one given here by hand): NinjaOne refuses
// ticket writes with a machine token. It rotates on use; the newest one is kept beside these settings
// (src/psa/core/shared-tokens.ts), so these stay as the partner saved them.
import Type from 'typebox'
import { KindSettings, Str, TicketDefaults, Url } from '../settings.js'

export const severities = ['NONE', 'MINOR', 'MODERATE', 'MAJOR', 'CRITICAL'] as const

export const NinjaOneSettings = KindSettings({
  baseUrl: {
    ...Url,
    description:
      'the instance root, e.g. https://app.ninjarmm.com or https://eu.ninjarmm.com (the API is {baseUrl}/v2, tokens at {baseUrl}/ws/oauth/token)',
  },
  clientId: Str("the client id of the NinjaOne API application (platform 'Web application')"),
  clientSecret: Str("the API application's client secret"),
  refreshToken: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 4096,
      description:
        "a refresh token of a NinjaOne user (scope 'monitoring management offline_access'); the portal's Connect NinjaOne step sets it",
    }),
  ),
  searchBoard: Type.Optional(
    Str(
      "the NinjaOne board (id or name) whose run finds a ticket again after a lost answer (default: the board 'All tickets', else the first system board)",
    ),
  ),
  severity: Type.Optional(Type.Union(severities.map((s) => Type.Literal(s)))),
  maxConcurrent: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 16, description: 'calls in flight at once (default 4)' }),
  ),
  defaults: Type.Optional(TicketDefaults),
})

export const ninjaOneSecrets = ['clientSecret', 'refreshToken'] as const
