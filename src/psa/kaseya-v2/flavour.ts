// What tells the two PSAs on the Kaseya v2 engine apart where the shared code speaks or connects
// (docs/decisions/psa/kaseya-v2-shared.md): the PSA's name in sentences, and its default API host.
// Everything else that differs (webhooks, the settings' descriptions) stays in the kind's folder.

export interface V2Flavour {
  /** e.g. 'Kaseya BMS', 'Pulseway PSA': how messages name the PSA. */
  name: string
  /** e.g. 'BMS', 'Pulseway': the short name inside a sentence ("BMS's default"). */
  short: string
  /** The API host when the settings name none (null: the settings must). */
  defaultHost: string | null
  /** How the log-in form spells its fields: BMS's spec GrantType, UserName, …; Pulseway's help and
   * client grantType, userName, … (ASP.NET reads either; each kind sends what its PSA documents). */
  loginFields: 'PascalCase' | 'camelCase'
  /** The feeds below /v2/servicedesk/tickets/{id}/ two-way sync reads to see who worked a ticket. */
  activityFeeds: readonly ('activities' | 'notes' | 'timelogs')[]
}
