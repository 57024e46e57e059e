// HaloPSA connection settings (DESIGN §7, reference/psa-apis.md §3).
import Type from 'typebox'
import { type PsaKindEntry, psaKind } from '../registry.js'
import { KindSettings, Str, TicketDefaults, Url } from '../settings.js'

export const HaloPsaSettings = KindSettings({
  baseUrl: Url,
  clientId: Str('client id'),
  clientSecret: Str('client secret'),
  tenant: Type.Optional(Str('tenant (hosted instances)')),
  defaults: Type.Optional(TicketDefaults),
})

/** Known to this build (its settings are checked), not yet connected to an adapter. */
export const haloPsaKind = (): PsaKindEntry =>
  psaKind({ kind: 'halopsa', settings: HaloPsaSettings, secretFields: ['clientSecret'], adapter: null })
