// The last pass over the OpenAPI document @fastify/swagger built from the routes (docs/vendor-api.md#openapi-document):
// operationIds, descriptions and examples from each route's operation({...}) (operation-doc.ts), every
// response described with its headers, the error codes as an enum in the failure schemas, and the token endpoint's forms.

import { errorCodes } from '../../core/errors.js'
import { exampleOf } from './examples.js'
import { derivedOperationId, type OperationDoc, operationKey } from './operation-doc.js'
import { codesOf, describeStatus, headers, responseHeaders } from './responses.js'
import { isObject, type Json } from './schema-walk.js'
import { documentTokenForms, tokenDescription, tokenPath } from './token.js'

const methods = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'])

/** The named schemas whose `error` is one of the error codes. */
const failureSchemas = ['Failure', 'SyncFailure', 'WebhookFailure', 'WebhookAnswer', 'OAuthFailure']

const idempotencyKeyExample = '7b0c6a2e-4f1d-4c1e-9a57-1f2b3c4d5e6f'

function media(container: unknown): Json[] {
  const content = isObject(container) ? container.content : undefined
  return isObject(content) ? Object.values(content).filter(isObject) : []
}

function setExample(m: Json, value: unknown, refs: Json): void {
  if (m.example !== undefined || m.examples !== undefined) return
  const example = value ?? exampleOf(m.schema, refs)
  if (example !== undefined) m.example = example
}

/** An error answer as the service gives it: its status, its first code, a sentence, a request id. */
function failureExample(m: Json, code: string, oauth: boolean, refs: Json): unknown {
  const example = exampleOf(m.schema, refs)
  if (!isObject(example) || !/^\d+$/.test(code)) return example
  const error = codesOf(Number(code), oauth)[0]
  const detail = describeStatus(code, oauth).replace(/ Error codes: .*$/, '')
  return {
    ...example,
    ...('statusCode' in example ? { statusCode: Number(code) } : {}),
    ...(error && 'error' in example ? { error } : {}),
    ...('detail' in example ? { detail } : {}),
    ...('error_description' in example ? { error_description: detail } : {}),
    ...('requestId' in example ? { requestId: '3f1e5b7c-9a2d-4c8e-b1f0-6d4a2c9e8b7a' } : {}),
  }
}

function finishOperation(
  method: string,
  path: string,
  op: Json,
  entry: OperationDoc | undefined,
  refs: Json,
) {
  const params = Array.isArray(op.parameters) ? op.parameters.filter(isObject) : []
  const idempotent = params.some(
    (p) => p.in === 'header' && String(p.name).toLowerCase() === 'idempotency-key',
  )
  const alert = method === 'post' && path.startsWith('/api/oem-alerts-api/')
  const oauth = path === tokenPath
  const own = typeof op.description === 'string' ? op.description : ''
  const extra = oauth ? tokenDescription : entry?.description
  op.description = [own, extra].filter(Boolean).join('\n\n') || undefined
  if (!op.description) delete op.description
  for (const p of params) {
    if (p.in === 'header' && String(p.name).toLowerCase() === 'idempotency-key') {
      p.name = 'Idempotency-Key'
      p.example ??= idempotencyKeyExample
    } else if (p.in === 'path' && p.example === undefined) {
      const example = exampleOf(p.schema, refs, String(p.name))
      if (example !== undefined) p.example = example
    }
  }
  for (const m of media(op.requestBody)) setExample(m, entry?.body, refs)
  const responses = isObject(op.responses) ? op.responses : {}
  for (const [code, response] of Object.entries(responses)) {
    if (!isObject(response)) continue
    const success = /^2/.test(code)
    const specific =
      response.description !== 'Default Response' && success ? String(response.description) : ''
    response.description = entry?.responses?.[code] ?? (specific || describeStatus(code, oauth))
    response.headers = {
      ...(isObject(response.headers) ? response.headers : {}),
      ...responseHeaders(code, { idempotent, alert }),
    }
    for (const m of media(response))
      setExample(m, success ? entry?.answers?.[code] : failureExample(m, code, oauth, refs), refs)
  }
}

/** Completes the document in place (the swagger plugin's transformObject) and returns it. */
export function finishDocument(doc: Json): Json {
  if (!isObject(doc.components)) doc.components = {}
  const components = doc.components as Json
  components.headers = { ...headers, ...(isObject(components.headers) ? components.headers : {}) }
  const refs = (isObject(components.schemas) ? components.schemas : {}) as Json
  for (const name of failureSchemas) {
    const schema = refs[name]
    const error = isObject(schema) && isObject(schema.properties) ? schema.properties.error : undefined
    if (isObject(error)) error.enum = [...errorCodes]
  }
  const taken = new Set<string>()
  for (const [path, item] of Object.entries(isObject(doc.paths) ? doc.paths : {})) {
    if (!isObject(item)) continue
    for (const [method, op] of Object.entries(item)) {
      if (!methods.has(method) || !isObject(op)) continue
      // The route's own operation({...}), copied here by @fastify/swagger; the document keeps none of it.
      const entry = op[operationKey] as OperationDoc | undefined
      delete op[operationKey]
      let id = entry?.id ?? derivedOperationId(method, path)
      // Unique whatever the table says: a repeated name gets a number (and the test names it).
      for (let n = 2; taken.has(id); n++) id = `${entry?.id ?? derivedOperationId(method, path)}${n}`
      taken.add(id)
      op.operationId = id
      finishOperation(method, path, op, entry, refs)
    }
  }
  documentTokenForms(doc)
  return doc
}
