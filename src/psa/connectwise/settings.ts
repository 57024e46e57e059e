// ConnectWise PSA (Manage) connection settings (docs/psa/connectwise.md, "Settings").
import Type from 'typebox'
import { KindSettings, Str, TicketDefaults, Url } from '../settings.js'

export const ConnectWiseSettings = KindSettings({
  baseUrl: Type.Optional({
    ...Url,
    description: "the site's root, e.g. https://api-na.myconnectwise.net (replaces site)",
  }),
  site: Type.Optional(
    Type.String({
      pattern: '^[A-Za-z0-9.-]+(:\\d+)?$',
      maxLength: 253,
      description:
        'the site, e.g. na.myconnectwise.net or api-na.myconnectwise.net (a cloud site is reached on its API host), or an on-premise host',
    }),
  ),
  codebase: Type.Optional(
    Type.String({
      pattern: '^[A-Za-z0-9_.-]+/?$',
      maxLength: 64,
      description: 'e.g. v4_6_release/; default: discovered from the site (/login/companyinfo)',
    }),
  ),
  companyId: Str('the company id you sign in to ConnectWise with'),
  publicKey: Str("the API member's public key"),
  privateKey: Str("the API member's private key"),
  clientId: Str('the clientId registered at developer.connectwise.com'),
  maxConcurrent: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 16, description: 'calls in flight at once (default 4)' }),
  ),
  noteVisibility: Type.Optional(
    Type.Enum(['internal', 'discussion'], {
      description: "alert notes as internal analysis (default) or in the ticket's discussion",
    }),
  ),
  defaults: Type.Optional(TicketDefaults),
})

export const connectWiseSecrets = ['privateKey'] as const
