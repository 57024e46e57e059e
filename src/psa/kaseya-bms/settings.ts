// Kaseya BMS connection settings (DESIGN §7, reference/psa-apis.md §4).
import Type from 'typebox'
import { type PsaKindEntry, psaKind } from '../registry.js'
import { KindSettings, Str, TicketDefaults, Url } from '../settings.js'

export const KaseyaBmsSettings = KindSettings({
  baseUrl: Url,
  tenant: Str('tenant'),
  username: Str('username'),
  password: Str('password'),
  defaults: Type.Optional(TicketDefaults),
})

/** Known to this build (its settings are checked), not yet connected to an adapter. */
export const kaseyaBmsKind = (): PsaKindEntry =>
  psaKind({ kind: 'kaseya-bms', settings: KaseyaBmsSettings, secretFields: ['password'], adapter: null })
