// The settings each PSA kind takes (DESIGN §7), for the connection form. Secrets are never shown back:
// the service answers them masked, so saving asks for them again.
export interface PsaField {
  name: string
  label: string
  hint?: string
  secret?: boolean
  optional?: boolean
}

export const psaKinds: { kind: string; label: string; fields: PsaField[] }[] = [
  { kind: 'sandbox', label: 'Sandbox (built in, for trying things out)', fields: [] },
  {
    kind: 'connectwise',
    label: 'ConnectWise PSA',
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
]

export const defaultFields = [
  { name: 'board', label: 'Board / queue' },
  { name: 'priority', label: 'Priority' },
  { name: 'type', label: 'Ticket type' },
  { name: 'status', label: 'New ticket status' },
  { name: 'closedStatus', label: 'Closed status' },
] as const
