// The settings Kaseya BMS and Pulseway PSA share (docs/psa/kaseya-bms.md, "Settings";
// docs/psa/pulseway-psa.md, "Settings"): the one engine behind both takes the same log-in (tenant,
// user name, password) and the same optional ids. Ids the ticket needs besides the rule's (its source,
// the notes' type) may be set as an id (the portal lists the PSA's own) or its name; without them the
// adapter takes what the PSA marks as default. Where the look-up tables do not answer under the known
// names, `lookupTables` names them, or the ids are set by hand. Each kind adds its `baseUrl`.
import Type, { type Static } from 'typebox'
import { KindSettings, Str, TicketDefaults, Url } from '../settings.js'

/** How a kind names its PSA in the settings' descriptions. */
export interface SettingsWords {
  /** e.g. 'Kaseya BMS' */
  name: string
  /** e.g. 'BMS' */
  short: string
}

const TableName = (what: string, short: string) =>
  Type.String({
    pattern: '^[A-Za-z0-9_]+$',
    maxLength: 64,
    description: `the /v2/system/lookup/{tableName} table of ${what} (default: the names ${short} is known to use are tried, and the one that answers is kept)`,
  })

/** Every setting but the host. */
export function v2Fields({ short }: SettingsWords) {
  return {
    tenant: Str(`the company (tenant) name you sign in to ${short} with, as My Settings shows it`),
    username: Str("the API user's user name"),
    password: Str("the API user's password"),
    source: Type.Optional(
      Str(
        `the tickets' source, ${short}'s SourceId (an id from ${short}'s list of ticket sources, or its name; default: ${short}'s default source)`,
      ),
    ),
    noteType: Type.Optional(
      Str(
        `the alert notes' note type (an id from ${short}'s list of note types, or its name; default: ${short}'s default note type)`,
      ),
    ),
    completedStatusTypes: Type.Optional(
      Type.Array(Type.Integer({ minimum: 0 }), {
        maxItems: 16,
        description: `the status typeIds (basic statuses) that ${short} treats as completed; default: learned from tickets ${short} marks completed (completedDate)`,
      }),
    ),
    lookupTables: Type.Optional(
      Type.Object(
        {
          ticketTypes: Type.Optional(TableName('ticket types', short)),
          sources: Type.Optional(TableName('ticket sources', short)),
          noteTypes: Type.Optional(TableName('note types', short)),
        },
        { additionalProperties: false },
      ),
    ),
    hourlyBudgetPerEndpoint: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 100_000,
        description: `requests per hour per API endpoint (default 1,500, ${short}'s published limit${short === 'BMS' ? '; older tenants: 500' : ''})`,
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
  }
}

/** The shape the shared code reads (a kind whose host is required fits it too). */
const Shape = KindSettings({ baseUrl: Type.Optional(Url), ...v2Fields({ name: '', short: '' }) })
export type V2Settings = Static<typeof Shape>

export const v2Secrets = ['password'] as const
