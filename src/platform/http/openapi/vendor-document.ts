// The vendor's OpenAPI document, /openapi/vendor.json (docs/vendor-api.md#openapi-document): the served
// document cut to what a vendor calls — the alert endpoints, the token, the integration list and
// /api/vendor-api/… — with the webhooks section (the events a vendor receives) and only the components
// those reach. The operator's and the partner's operations stay out, so a client generated from it has
// nothing a vendor cannot call. Every error code links to its explanation in the vendor guide
// (docs/vendors.md#error-codes).
import { errorCodes } from '../../core/errors.js'
import { isObject, type Json } from './schema-walk.js'

/** The tags of the vendor's operations, and the path prefixes they live under: both must match. */
export const vendorTags: readonly string[] = ['alerts', 'vendor']
export const vendorPathPrefixes: readonly string[] = [
  '/api/oem-alerts-api/',
  '/api/oauth/token',
  '/api/oem-api/',
  '/api/vendor-api/',
]

/** The named schemas whose `error` is one of the error codes (finish.ts enumerates them). */
const failureSchemas = ['Failure', 'SyncFailure', 'WebhookFailure', 'WebhookAnswer', 'OAuthFailure']

/** At most this many nodes of the document are walked for references (it has some tens of thousands). */
const walkLimit = 500_000

/** The anchor of an error code's row in docs/vendors.md#error-codes: `error-validation-failed`. */
export const errorAnchor = (code: string): string => `error-${code.toLowerCase().replaceAll('_', '-')}`

const methods = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'])

/** Whether an operation is the vendor's: one of its tags, under one of its prefixes. */
export function isVendorOperation(path: string, op: unknown): boolean {
  if (!isObject(op) || !vendorPathPrefixes.some((p) => path.startsWith(p))) return false
  return Array.isArray(op.tags) && op.tags.some((t) => vendorTags.includes(String(t)))
}

/** Every `#/components/<kind>/<name>` reachable from `roots`, through the components themselves. */
export function reachableRefs(roots: unknown, components: Json): Set<string> {
  const seen = new Set<string>()
  const stack: unknown[] = [roots]
  let walked = 0
  while (stack.length > 0) {
    if (++walked > walkLimit) throw new Error(`the OpenAPI document has more than ${walkLimit} nodes`)
    const node = stack.pop()
    if (Array.isArray(node)) stack.push(...node)
    else if (isObject(node)) {
      for (const [key, value] of Object.entries(node)) {
        if (key !== '$ref' || typeof value !== 'string') {
          stack.push(value)
          continue
        }
        if (!value.startsWith('#/components/') || seen.has(value)) continue
        seen.add(value)
        const [kind, name] = value.slice('#/components/'.length).split('/')
        const entries = components[kind ?? '']
        stack.push(isObject(entries) ? entries[name ?? ''] : undefined)
      }
    }
  }
  return seen
}

/** The code as a Markdown link to its explanation. */
const linked = (code: string, guide: string) => `[\`${code}\`](${guide}#${errorAnchor(code)})`

/** "… Error codes: A, B." in a response's description, each code a link. */
function linkCodes(description: string, guide: string): string {
  return description.replace(/Error codes: ([A-Za-z_, ]+)\./, (_all, list: string) => {
    const codes = list.split(', ').map((c) => (errorCodes.includes(c as never) ? linked(c, guide) : c))
    return `Error codes: ${codes.join(', ')}.`
  })
}

/**
 * The vendor's part of `doc` (not changed: the parts kept are copies). `guide` is the vendor guide's
 * address, absolute where the installation knows its own (PUBLIC_URL): `https://…/docs/vendors.md`.
 */
export function vendorDocument(doc: Json, guide: string): Json {
  const paths: Json = {}
  for (const [path, item] of Object.entries(isObject(doc.paths) ? doc.paths : {})) {
    if (!isObject(item)) continue
    const kept = Object.entries(item).filter(([m, op]) => !methods.has(m) || isVendorOperation(path, op))
    if (kept.some(([m]) => methods.has(m))) paths[path] = structuredClone(Object.fromEntries(kept))
  }
  const webhooks = isObject(doc.webhooks) ? structuredClone(doc.webhooks) : undefined
  const components = isObject(doc.components) ? doc.components : {}
  const used = reachableRefs({ paths, webhooks }, components)
  const kept: Json = {}
  for (const [kind, entries] of Object.entries(components)) {
    if (!isObject(entries) || kind === 'securitySchemes') continue
    const names = Object.keys(entries).filter((name) => used.has(`#/components/${kind}/${name}`))
    if (names.length > 0) kept[kind] = structuredClone(Object.fromEntries(names.map((n) => [n, entries[n]])))
  }
  // Security schemes are named by operations' `security`, not by $ref.
  const schemes = new Set<string>()
  for (const item of Object.values(paths))
    for (const op of Object.values(item as Json))
      for (const requirement of isObject(op) && Array.isArray(op.security) ? op.security : [])
        for (const name of isObject(requirement) ? Object.keys(requirement) : []) schemes.add(name)
  const allSchemes = isObject(components.securitySchemes) ? components.securitySchemes : {}
  kept.securitySchemes = Object.fromEntries(Object.entries(allSchemes).filter(([name]) => schemes.has(name)))
  linkErrorCodes(paths, kept, guide)
  const tags = Array.isArray(doc.tags)
    ? doc.tags.filter((t) => isObject(t) && vendorTags.includes(String(t.name)))
    : []
  const info = isObject(doc.info) ? doc.info : {}
  return {
    ...doc,
    info: {
      ...info,
      title: `${String(info.title ?? 'alertbridge')}: the vendor API`,
      description: `What a vendor calls and receives: the alert endpoints, the token, the integration list, the vendor API and the webhooks. The whole API is at /openapi.json. Versioning and deprecation: ${guide}#versioning-and-deprecation. Every error code is explained at ${guide}#error-codes.`,
    },
    externalDocs: { description: 'The vendor guide', url: guide },
    tags,
    paths,
    components: kept,
    ...(webhooks ? { webhooks } : {}),
  }
}

/** Each error code a link to its explanation: in the failure schemas' `error` and in every response's description. */
function linkErrorCodes(paths: Json, components: Json, guide: string): void {
  const schemas = isObject(components.schemas) ? components.schemas : {}
  for (const name of failureSchemas) {
    const schema = schemas[name]
    const error = isObject(schema) && isObject(schema.properties) ? schema.properties.error : undefined
    if (!isObject(error)) continue
    const codes = Array.isArray(error.enum) ? error.enum.map(String) : []
    const own = typeof error.description === 'string' ? `${error.description}. ` : ''
    error.description = `${own}What each code means and what to do: ${codes.map((c) => linked(c, guide)).join(', ')}.`
    error.externalDocs = { description: 'The error codes', url: `${guide}#error-codes` }
  }
  for (const item of Object.values(paths)) {
    for (const op of Object.values(isObject(item) ? item : {})) {
      const responses = isObject(op) && isObject(op.responses) ? op.responses : {}
      for (const response of Object.values(responses))
        if (isObject(response) && typeof response.description === 'string')
          response.description = linkCodes(response.description, guide)
    }
  }
}
