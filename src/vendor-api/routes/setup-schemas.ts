// The vendor's setup and usage calls' schemas (routes/setup.ts, docs/vendor-api.md, "Setup calls"):
// accounts one at a time and in bulk, services, the integration's status and usage counts.
import Type from 'typebox'
import { KeyCursor, LongLimit, VendorIntegrationId } from '../../platform/http/schemas.js'

export const Id = (description: string) => Type.String({ minLength: 1, maxLength: 128, description })
const Text = (description: string) => Type.String({ maxLength: 1024, description })

export const IntegrationQuery = Type.Object({ integrationId: Type.Optional(VendorIntegrationId) })
/** The lists page, 500 at a time unless asked otherwise (they were answered whole once). */
export const ListQuery = Type.Object({
  ...IntegrationQuery.properties,
  limit: Type.Optional(LongLimit),
  cursor: Type.Optional(KeyCursor),
})

export const AccountBody = Type.Object({
  vendorAccountId: Id("the vendor's unique account identifier"),
  name: Type.String({ minLength: 1, maxLength: 255 }),
  externalId: Type.Optional(Text('external reference')),
})
export const AccountView = Type.Object({
  vendorAccountId: Type.String(),
  name: Type.String(),
  externalId: Type.String(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
})

export const AccountList = Type.Array(AccountBody, {
  minItems: 1,
  maxItems: 500,
  description: 'several accounts in one call, written all or nothing',
})
export const BulkAccountsView = Type.Object({
  data: Type.Array(AccountView, { description: 'every account of the call, in the order sent' }),
  created: Type.Integer({ description: 'how many were new' }),
  updated: Type.Integer({ description: 'how many existed already' }),
})

export const ServiceBody = Type.Object({
  id: Id('identifies the product or service'),
  name: Type.String({ minLength: 1, maxLength: 255 }),
  description: Type.Optional(Text('description')),
})
export const ServiceView = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
})

export const StatusBody = Type.Object({
  id: Type.Optional(Type.String({ maxLength: 64, description: 'the integrationId' })),
  name: Type.Optional(Type.String({ maxLength: 255 })),
  description: Type.Optional(Type.String({ maxLength: 1024 })),
})
export const StatusView = Type.Object({ integrationId: Type.String(), state: Type.String() })

export const CountBody = Type.Object({
  unitCount: Type.Number({ minimum: 0, maximum: 1e12, description: 'units used' }),
  accountId: Id('vendorAccountId of the account'),
})
export const CountView = Type.Object({
  id: Type.String(),
  serviceId: Type.String(),
  accountId: Type.String(),
  unitCount: Type.Number(),
  createdAt: Type.String(),
  integrationState: Type.String(),
})
