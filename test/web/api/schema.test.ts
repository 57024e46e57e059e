// The portal's typed client is generated from the service's own OpenAPI document (npm run
// api:types); this fails when a partner route changed and the portal's types were not regenerated,
// so the portal is always type-checked against the API it will call.
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { test } from 'node:test'
import { apiTypes, schemaFile } from '../../../scripts/api-types.js'

test("web/src/api/schema.d.ts matches the partner API's OpenAPI document (run npm run api:types)", async () => {
  assert.ok(
    readFileSync(schemaFile, 'utf8') === (await apiTypes()),
    'web/src/api/schema.d.ts is out of date: run `npm run api:types` and commit it',
  )
})
