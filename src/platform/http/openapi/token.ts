// The token endpoint in the OpenAPI document (docs/contract.md#authentication): its three forms — a JSON
// body, a form-encoded body (RFC 6749's own), and the client credentials as HTTP Basic — as two request
// content types with examples and a security alternative, and the note on its snake_case spelling.
import { isObject, type Json } from './schema-walk.js'

export const tokenPath = '/api/oauth/token'

const clientId = 'ab_client_3f9c2e'
const clientSecret = 'ab_secret_redacted-example'
const orgToken = 'org_7Hq2-redacted-example'

const fieldNotes: Record<string, string> = {
  grant_type:
    "Required: always `client_credentials`. Snake_case here (RFC 6749); the alert body's field is `grantType`.",
  client_id: 'Your clientId; or send it with client_secret as HTTP Basic instead.',
  client_secret: 'Your clientSecret; or send it with client_id as HTTP Basic instead.',
  scope: 'Optional; the only scope is `vendor_manage`.',
  organization_oem_token:
    "Optional: the partner's organizationOemToken; the token is then bound to that partner's integration (`integration_id` in the answer), and calls need no `?integrationId=`.",
}

export const tokenDescription = [
  'Three forms, one answer: the fields as a JSON body; the same fields form-encoded (`application/x-www-form-urlencoded`, as RFC 6749 has it); or `client_id` and `client_secret` as HTTP Basic (`Authorization: Basic base64(urlencode(client_id):urlencode(client_secret))`, RFC 6749 §2.3.1) with the other fields in either body.',
  'Mind the spelling: this request is snake_case (`grant_type`, `client_id`, `client_secret`, `organization_oem_token`), as OAuth 2.0 has it; the alert body is camelCase (`grantType`, `clientId`, `clientSecret`, `organizationOemToken`). Each endpoint takes its own spelling only.',
  'Refusals carry an RFC 6749 code as `error` (invalid_request, invalid_client, invalid_scope, unsupported_grant_type; 429 RATE_LIMITED past the token limits) and `error_description` beside `detail`. The answer has `Cache-Control: no-store`; a token is opaque and works `expires_in` seconds. docs/contract.md#authentication',
].join('\n\n')

/** Adds the form-encoded body, the HTTP Basic alternative and the examples to the token operation. */
export function documentTokenForms(doc: Json): void {
  const op = (doc.paths as Record<string, Json>)[tokenPath]?.post
  if (!isObject(op)) return
  const body = op.requestBody
  const json = isObject(body) && isObject(body.content) ? body.content['application/json'] : undefined
  if (!isObject(body) || !isObject(json)) return
  const full = {
    grant_type: 'client_credentials',
    client_id: clientId,
    client_secret: clientSecret,
    scope: 'vendor_manage',
    organization_oem_token: orgToken,
  }
  const withoutClient = { grant_type: 'client_credentials', scope: 'vendor_manage' }
  delete json.example
  json.examples = {
    bound: { summary: 'Credentials in the body, bound to a partner integration', value: full },
    unbound: {
      summary: 'Unbound (name the integration with ?integrationId= on each call)',
      value: { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret },
    },
    basic: { summary: 'With Authorization: Basic carrying the client credentials', value: withoutClient },
  }
  ;(body.content as Json)['application/x-www-form-urlencoded'] = {
    schema: json.schema,
    examples: {
      form: { summary: 'RFC 6749 form, credentials in the body', value: full },
      basic: { summary: 'With Authorization: Basic carrying the client credentials', value: withoutClient },
    },
  }
  // Credentials in the body need no scheme; `clientBasic` is the other way.
  op.security = [{}, { clientBasic: [] }]
  const component = (doc.components as Json | undefined)?.schemas
  const request = isObject(component) ? component.TokenRequest : undefined
  if (isObject(request) && isObject(request.properties)) {
    for (const [field, note] of Object.entries(fieldNotes)) {
      const prop = request.properties[field]
      if (isObject(prop)) prop.description = note
    }
  }
}
