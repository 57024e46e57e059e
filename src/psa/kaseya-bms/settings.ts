// Kaseya BMS connection settings (DESIGN §7, reference/psa-apis.md §4). Ids the ticket needs that no
// mapping screen names (its source, the notes' type) may be set here, as a BMS id or its name; without
// them the adapter takes what BMS marks as default.
import Type from 'typebox'
import { KindSettings, Str, TicketDefaults, Url } from '../settings.js'

const TableName = (what: string) =>
  Type.String({
    pattern: '^[A-Za-z0-9_]+$',
    maxLength: 64,
    description: `the /v2/system/lookup/{tableName} table of ${what} (default: the names BMS is known to use are tried)`,
  })

export const KaseyaBmsSettings = KindSettings({
  baseUrl: {
    ...Url,
    description:
      'the API host, e.g. https://api.bms.kaseya.com (or bmsemea, bmsapac, vorexlogin); the API is {baseUrl}/v2',
  },
  tenant: Str('the company (tenant) name you sign in to BMS with, as My Settings shows it'),
  username: Str("the API user's user name"),
  password: Str("the API user's password"),
  source: Type.Optional(Str("the tickets' source (id or name; default: BMS's default source)")),
  noteType: Type.Optional(Str("the alert notes' note type (id or name; default: BMS's default note type)")),
  completedStatusTypes: Type.Optional(
    Type.Array(Type.Integer({ minimum: 0 }), {
      maxItems: 16,
      description:
        'the status typeIds (basic statuses) that BMS treats as completed; default: learned from tickets BMS marks completed (completedDate)',
    }),
  ),
  lookupTables: Type.Optional(
    Type.Object(
      {
        ticketTypes: Type.Optional(TableName('ticket types')),
        sources: Type.Optional(TableName('ticket sources')),
        noteTypes: Type.Optional(TableName('note types')),
      },
      { additionalProperties: false },
    ),
  ),
  hourlyBudgetPerEndpoint: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 100_000,
      description:
        "requests per hour per API endpoint (default 1,500, BMS's published limit; older tenants: 500)",
    }),
  ),
  maxConcurrent: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 16,
      description: 'calls in flight at once per endpoint (default 4)',
    }),
  ),
  defaults: Type.Optional(TicketDefaults),
})

export const kaseyaBmsSecrets = ['password'] as const
