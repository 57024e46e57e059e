// The examples of the vendor's setup calls in the OpenAPI document (docs/vendor-api.md#openapi-document),
// with the ids and times of the alert calls' (src/alerts/openapi.ts). The routes spread them into their
// `operation({...})`.
import { at } from '../alerts/index.js'

export { at, integrationId } from '../alerts/index.js'

export const account = {
  vendorAccountId: 'acme-001',
  name: 'Acme Corp',
  externalId: 'ACME-001',
  createdAt: at,
  updatedAt: at,
}

export { rotationExample as rotation } from '../tenants/index.js'
