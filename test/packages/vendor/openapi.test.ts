// The vendor SDK's types are generated from the service's OpenAPI document (npm run sdk:types), as
// the portal's are (test/web/api/schema.test.ts); this fails when a vendor route changed and
// packages/vendor/src/openapi.d.ts was not regenerated, so the SDK always types the API it calls.
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { test } from 'node:test'
import { sdkTypes, sdkTypesFile, vendorDocument } from '../../../scripts/sdk-types.js'

test("packages/vendor/src/openapi.d.ts matches the vendor API's OpenAPI document (run npm run sdk:types)", async () => {
  assert.ok(
    readFileSync(sdkTypesFile, 'utf8') === (await sdkTypes()),
    'packages/vendor/src/openapi.d.ts is out of date: run `npm run sdk:types` and commit it',
  )
})

test("the SDK's document keeps the vendor's paths and the components they use, nothing else", () => {
  const doc = vendorDocument({
    openapi: '3.1.0',
    paths: {
      '/api/oauth/token': { post: { $ref: '#/components/schemas/Token' } },
      '/api/vendor-api/webhook': { get: { $ref: '#/components/schemas/Webhook' } },
      '/api/partner/rules': { get: { $ref: '#/components/schemas/Rule' } },
      '/api/admin/vendors': { get: {} },
    },
    webhooks: { status_update: { post: { $ref: '#/components/schemas/Event' } } },
    components: {
      schemas: {
        Token: {},
        Webhook: { properties: { rotation: { $ref: '#/components/schemas/Rotation' } } },
        Rotation: {},
        Event: {},
        Rule: {},
      },
    },
  })
  assert.deepEqual(Object.keys(doc.paths as object), ['/api/oauth/token', '/api/vendor-api/webhook'])
  assert.deepEqual(Object.keys((doc.components as any).schemas).sort(), [
    'Event',
    'Rotation',
    'Token',
    'Webhook',
  ])
})
