// The connection settings of each PSA kind (DESIGN §7). Checked per kind so that an error names the
// field that is wrong; secrets are masked whenever settings are shown.
import Type, { type TSchema } from 'typebox'
import { Value } from 'typebox/value'
import { ApiError } from '../http/errors.js'
import type { PsaKind } from './adapter.js'

const Str = (description: string) => Type.String({ minLength: 1, maxLength: 512, description })
const Url = Type.String({
  pattern: '^https?://[^\\s]+$',
  maxLength: 2048,
  description: 'overrides discovery',
})

export const TicketDefaults = Type.Object(
  {
    board: Type.Optional(Str('board / queue')),
    priority: Type.Optional(Str('priority')),
    type: Type.Optional(Str('ticket type')),
    status: Type.Optional(Str('initial status')),
  },
  { description: 'used where a rule leaves a ticket setting empty' },
)

const Entity = Type.Union([
  Type.String({ minLength: 1, maxLength: 128 }),
  Type.Object({ id: Str('id'), name: Type.Optional(Str('name')) }),
])

const byKind: Record<PsaKind, TSchema> = {
  sandbox: Type.Object({
    defaults: Type.Optional(TicketDefaults),
    companies: Type.Optional(Type.Array(Entity, { maxItems: 500 })),
    boards: Type.Optional(Type.Array(Entity, { maxItems: 500 })),
    priorities: Type.Optional(Type.Array(Entity, { maxItems: 500 })),
    statuses: Type.Optional(Type.Array(Entity, { maxItems: 500 })),
  }),
  connectwise: Type.Object({
    baseUrl: Type.Optional(Url),
    site: Type.Optional(Str('e.g. api-na.myconnectwise.net')),
    companyId: Str('ConnectWise company id'),
    publicKey: Str('API member public key'),
    privateKey: Str('API member private key'),
    clientId: Str('ConnectWise developer clientId'),
    defaults: Type.Optional(TicketDefaults),
  }),
  autotask: Type.Object({
    baseUrl: Type.Optional(Url),
    username: Str('API user'),
    secret: Str('API user secret'),
    integrationCode: Str('API tracking identifier'),
    defaults: Type.Optional(TicketDefaults),
  }),
  halopsa: Type.Object({
    baseUrl: Url,
    clientId: Str('client id'),
    clientSecret: Str('client secret'),
    tenant: Type.Optional(Str('tenant (hosted instances)')),
    defaults: Type.Optional(TicketDefaults),
  }),
  'kaseya-bms': Type.Object({
    baseUrl: Url,
    tenant: Str('tenant'),
    username: Str('username'),
    password: Str('password'),
    defaults: Type.Optional(TicketDefaults),
  }),
  syncro: Type.Object({
    baseUrl: Type.Optional(Url),
    subdomain: Type.Optional(Str('subdomain')),
    apiToken: Str('API token'),
    defaults: Type.Optional(TicketDefaults),
  }),
}

const secretFields = new Set(['privateKey', 'secret', 'clientSecret', 'password', 'apiToken'])

/** Validates the settings of a kind; throws a 400 naming the first wrong fields. */
export function checkPsaSettings(kind: PsaKind, settings: Record<string, unknown>): Record<string, unknown> {
  const schema = byKind[kind]
  const errors = [...Value.Errors(schema, settings)].slice(0, 3)
  if (errors.length > 0) {
    const what = errors.map((e) => `psa${e.instancePath} ${e.message}`).join('; ')
    throw new ApiError('VALIDATION_FAILED', `${what} (PSA kind '${kind}').`)
  }
  return settings
}

export function maskPsaSettings(settings: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(settings).map(([k, v]) => [k, secretFields.has(k) ? '********' : v]),
  )
}
