// Kaseya BMS connection settings (docs/psa/kaseya-bms.md, "Settings"). Ids the ticket needs besides the
// rule's (its source, the notes' type) may be set here, as a BMS id (the portal lists BMS's own) or its
// name; without them the adapter takes what BMS marks as default. Where BMS's look-up tables do not
// answer under the known names, `lookupTables` names them, or the ids are set by hand.
import Type from 'typebox'
import { KindSettings, Str, TicketDefaults, Url } from '../settings.js'

const TableName = (what: string) =>
  Type.String({
    pattern: '^[A-Za-z0-9_]+$',
    maxLength: 64,
    description: `the /v2/system/lookup/{tableName} table of ${what} (default: the names BMS is known to use are tried, and the one that answers is kept)`,
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
  source: Type.Optional(
    Str(
      "the tickets' source, BMS's SourceId (an id from BMS's list of ticket sources, or its name; default: BMS's default source)",
    ),
  ),
  noteType: Type.Optional(
    Str(
      "the alert notes' note type (an id from BMS's list of note types, or its name; default: BMS's default note type)",
    ),
  ),
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
