// Syncro connection settings (DESIGN §7, reference/psa-apis.md §5).
import Type from 'typebox'
import { type PsaKindEntry, psaKind } from '../registry.js'
import { KindSettings, Str, TicketDefaults, Url } from '../settings.js'

export const SyncroSettings = KindSettings({
  baseUrl: Type.Optional(Url),
  subdomain: Type.Optional(Str('subdomain')),
  apiToken: Str('API token'),
  defaults: Type.Optional(TicketDefaults),
})

/** Known to this build (its settings are checked), not yet connected to an adapter. */
export const syncroKind = (): PsaKindEntry =>
  psaKind({ kind: 'syncro', settings: SyncroSettings, secretFields: ['apiToken'], adapter: null })
