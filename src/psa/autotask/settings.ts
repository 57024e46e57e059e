// Autotask connection settings (docs/psa/autotask.md, "Settings").
import Type from 'typebox'
import { KindSettings, Str, TicketDefaults, Url } from '../settings.js'

export const AutotaskSettings = KindSettings({
  baseUrl: Type.Optional({
    ...Url,
    description:
      "the zone's REST root, e.g. https://webservices5.autotask.net/ATServicesRest/ (replaces the zone lookup)",
  }),
  username: Str("the API user's user name (an e-mail address)"),
  secret: Str("the API user's secret"),
  integrationCode: Str('the API tracking identifier of the integration'),
  noteType: Type.Optional(Str("the ticket notes' note type (id or name; default: Autotask's default)")),
  notePublish: Type.Optional(Str("who sees the ticket notes (id or name; default: Autotask's default)")),
  ticketCategory: Type.Optional(
    Str(
      "new tickets' ticket category (id or name; default: Autotask's default category, where it marks one)",
    ),
  ),
  source: Type.Optional(
    Str("new tickets' source, e.g. Monitoring Alert (id or name; default: Autotask's default)"),
  ),
  defaults: Type.Optional(TicketDefaults),
})

export const autotaskSecrets = ['secret'] as const
