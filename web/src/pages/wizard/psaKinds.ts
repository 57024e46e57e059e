// The settings each PSA kind takes (docs/psa/<kind>.md), for the connection form. Secrets are never
// shown back: the service answers them masked, and a secret field left empty keeps the saved one
// (docs/partner-api.md#the-psa-connection). A setting whose values come from one of the PSA's lists
// (`list`) is picked from that list once the connection is saved.
import type { LookupKind } from '../../api/types'

export interface PsaField {
  name: string
  label: string
  hint?: string
  secret?: boolean
  optional?: boolean
  list?: LookupKind
}

export const psaKinds: {
  kind: string
  label: string
  fields: PsaField[]
  /** Look-ups that belong to a board: the PSA answers them only for a board (docs/psa/README.md). */
  boardScoped?: readonly LookupKind[]
  /** The PSA is connected as a user through its consent page (NinjaOne: docs/psa/ninjaone.md). */
  consent?: boolean
}[] = [
  { kind: 'sandbox', label: 'Sandbox (built in, for trying things out)', fields: [] },
  {
    kind: 'connectwise',
    label: 'ConnectWise PSA',
    boardScoped: ['statuses', 'types'],
    fields: [
      { name: 'site', label: 'Site', hint: 'e.g. na.myconnectwise.net', optional: true },
      {
        name: 'baseUrl',
        label: 'Base URL',
        hint: 'instead of the site, e.g. an on-premise server',
        optional: true,
      },
      { name: 'companyId', label: 'Company id', hint: 'the one you sign in to ConnectWise with' },
      { name: 'publicKey', label: 'Public key', hint: "the API member's public key" },
      { name: 'privateKey', label: 'Private key', secret: true },
      { name: 'clientId', label: 'Client id', hint: 'registered at the ConnectWise developer site' },
    ],
  },
  {
    kind: 'autotask',
    label: 'Autotask',
    fields: [
      { name: 'username', label: 'API user name', hint: "the API user's e-mail address" },
      { name: 'secret', label: 'Secret', secret: true },
      { name: 'integrationCode', label: 'Integration code', hint: 'the API tracking identifier' },
      { name: 'baseUrl', label: 'Zone URL', hint: 'leave empty: the zone is looked up', optional: true },
      {
        name: 'ticketCategory',
        label: 'Ticket category',
        hint: "new tickets' category (empty: Autotask's default)",
        optional: true,
        list: 'categories',
      },
      {
        name: 'source',
        label: 'Ticket source',
        hint: "new tickets' source (empty: Autotask's default)",
        optional: true,
        list: 'sources',
      },
      {
        name: 'noteType',
        label: 'Note type',
        hint: "the alert notes' type (empty: Autotask's default)",
        optional: true,
        list: 'noteTypes',
      },
    ],
  },
  {
    kind: 'halopsa',
    label: 'HaloPSA',
    fields: [
      { name: 'baseUrl', label: 'Instance URL', hint: 'e.g. https://acme.halopsa.com' },
      { name: 'clientId', label: 'Client id' },
      { name: 'clientSecret', label: 'Client secret', secret: true },
      { name: 'tenant', label: 'Tenant', optional: true },
      {
        name: 'noteOutcome',
        label: 'Note type',
        hint: "the alert notes' action type (empty: Private Note)",
        optional: true,
        list: 'noteTypes',
      },
    ],
  },
  {
    kind: 'kaseya-bms',
    label: 'Kaseya BMS',
    fields: [
      { name: 'baseUrl', label: 'API host', hint: 'e.g. https://api.bms.kaseya.com' },
      { name: 'tenant', label: 'Tenant' },
      { name: 'username', label: 'User name' },
      { name: 'password', label: 'Password', secret: true },
      {
        name: 'source',
        label: 'Ticket source',
        hint: "every ticket needs one (empty: BMS's default source)",
        optional: true,
        list: 'sources',
      },
      {
        name: 'noteType',
        label: 'Note type',
        hint: "the alert notes' type (empty: BMS's default)",
        optional: true,
        list: 'noteTypes',
      },
    ],
  },
  {
    kind: 'syncro',
    label: 'Syncro',
    fields: [
      { name: 'subdomain', label: 'Subdomain', hint: 'acme for acme.syncromsp.com', optional: true },
      { name: 'baseUrl', label: 'Base URL', hint: 'instead of the subdomain', optional: true },
      { name: 'apiToken', label: 'API token', secret: true },
    ],
  },
  {
    kind: 'pulseway-psa',
    label: 'Pulseway PSA',
    fields: [
      {
        name: 'baseUrl',
        label: 'API host',
        hint: 'empty: https://api.psa.pulseway.com',
        optional: true,
      },
      { name: 'tenant', label: 'Tenant', hint: 'the company name in My Settings' },
      { name: 'username', label: 'User name', hint: 'an API Employee' },
      { name: 'password', label: 'Password', secret: true },
      {
        name: 'source',
        label: 'Ticket source',
        hint: "every ticket needs one (empty: Pulseway's default source)",
        optional: true,
        list: 'sources',
      },
      {
        name: 'noteType',
        label: 'Note type',
        hint: "the alert notes' type (empty: Pulseway's default)",
        optional: true,
        list: 'noteTypes',
      },
    ],
  },
  {
    kind: 'superops',
    label: 'SuperOps',
    fields: [
      {
        name: 'baseUrl',
        label: 'API endpoint',
        hint: 'https://api.superops.ai/msp (US) or https://euapi.superops.ai/msp (EU)',
      },
      { name: 'subdomain', label: 'Subdomain', hint: 'Settings → MSP Information' },
      { name: 'apiToken', label: 'API token', secret: true, hint: 'Settings → My Profile → API token' },
    ],
  },
  {
    kind: 'ninjaone',
    label: 'NinjaOne',
    consent: true,
    fields: [
      {
        name: 'baseUrl',
        label: 'Instance URL',
        hint: 'e.g. https://app.ninjarmm.com or https://eu.ninjarmm.com',
      },
      { name: 'clientId', label: 'Client id', hint: "the API application's (platform Web application)" },
      { name: 'clientSecret', label: 'Client secret', secret: true },
      {
        name: 'refreshToken',
        label: 'Refresh token',
        hint: 'set by Connect NinjaOne below (or paste one)',
        secret: true,
        optional: true,
      },
      {
        name: 'severity',
        label: 'Severity',
        hint: 'NONE, MINOR, MODERATE, MAJOR or CRITICAL (empty: NONE)',
        optional: true,
      },
      {
        name: 'searchBoard',
        label: 'Search board',
        hint: 'the board that finds a ticket again after a lost answer (empty: All tickets)',
        optional: true,
        list: 'categories',
      },
    ],
  },
]

export const defaultFields = [
  { name: 'board', label: 'Board / queue', list: 'boards' },
  { name: 'priority', label: 'Priority', list: 'priorities' },
  { name: 'type', label: 'Ticket type', list: 'types' },
  { name: 'status', label: 'New ticket status', list: 'statuses' },
  { name: 'closedStatus', label: 'Closed status', list: 'statuses' },
] as const satisfies readonly { name: string; label: string; list: LookupKind }[]

/** The PSA's name in a sentence: "ConnectWise PSA", "the sandbox". */
export function psaName(kind: string | undefined): string {
  if (!kind) return 'your PSA'
  if (kind === 'sandbox') return 'the sandbox'
  return psaKinds.find((k) => k.kind === kind)?.label ?? kind
}

/** Whether the kind's PSA lists `what` per board (ConnectWise's statuses and types). */
export function boardScoped(kind: string | undefined, what: LookupKind): boolean {
  return psaKinds.find((k) => k.kind === kind)?.boardScoped?.includes(what) ?? false
}
