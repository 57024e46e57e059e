// Examples for the OpenAPI document where no one was written (docs/vendor-api.md#openapi-document): a
// value made from the schema itself (its example, default, const or first enum value; else a plausible
// value by the field's name and format), so that every body and answer shows one that fits its schema.
import { isObject, type Json } from './schema-walk.js'

/** The one time and the one id every example of the document uses, written or made from a schema. */
export const exampleInstant = '2026-01-31T12:00:00.000Z'
export const exampleId = '01943b2c-5a7e-7b1c-9f3d-2e4a6c8b0d1f'

/** Plausible strings by field name (lower case, without separators), tried in order. */
const byName: [RegExp, string][] = [
  [/correlationid/, 'edr-4711'],
  [/psakind/, 'connectwise'],
  [/psaticketid|ticketid/, '48213'],
  [/granttype/, 'client_credentials'],
  [/^scope$/, 'vendor_manage'],
  [/messageid|^id$|tokenid|deliveryid|ruleid|userid|vendorid|partnerid|integrationid/, exampleId],
  [/accountid|vendoraccountid/, 'acme-001'],
  [/serviceid/, 'edr-seat'],
  [/psacompanyid|companyid/, '100'],
  [/clientid/, 'ab_client_3f9c2e'],
  [/secret|token|apikey|password/, 'redacted-example-value'],
  [/url$|uri$/, 'https://vendor.example.com/alertbridge/webhook'],
  [/email/, 'tech@bestmsp.example'],
  [/productgroup/, 'Endpoint Security'],
  [/alerttype/, 'Malware Detected'],
  [/title|summary/, 'Malware detected on WS-042'],
  [/name$/, 'Acme Security'],
  [/at$|since|until|time/, exampleInstant],
  [/reason|detail|description|message|error/, 'What happened, in one sentence.'],
  [/cursor/, 'eyJrIjpbImFjbWUtMDAxIl19'],
]

function stringExample(s: Json, name: string): string | undefined {
  switch (s.format) {
    case 'date-time':
      return exampleInstant
    case 'uuid':
      return exampleId
    case 'uri':
    case 'url':
      return 'https://vendor.example.com/alertbridge/webhook'
    case 'email':
      return 'tech@bestmsp.example'
  }
  const key = name.toLowerCase().replace(/[^a-z0-9]/g, '')
  const candidates = [...byName.filter(([re]) => re.test(key)).map(([, v]) => v), 'example']
  const pattern = typeof s.pattern === 'string' ? new RegExp(s.pattern, 'u') : null
  const min = typeof s.minLength === 'number' ? s.minLength : 0
  const max = typeof s.maxLength === 'number' ? s.maxLength : Number.POSITIVE_INFINITY
  return candidates.find((v) => v.length >= min && v.length <= max && (!pattern || pattern.test(v)))
}

const nonNull = (list: unknown[]) => list.find((m) => !(isObject(m) && m.type === 'null')) ?? list[0]

/** An example of `schema`; `refs` resolves `#/components/schemas/…`. Undefined when none can be made. */
export function exampleOf(schema: unknown, refs: Json, name = '', depth = 0): unknown {
  if (!isObject(schema) || depth > 12) return undefined
  if (typeof schema.$ref === 'string')
    return exampleOf(refs[schema.$ref.replace('#/components/schemas/', '')], refs, name, depth + 1)
  if ('example' in schema) return schema.example
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0]
  if ('const' in schema) return schema.const
  if ('default' in schema) return schema.default
  if (Array.isArray(schema.enum) && schema.enum.length) return nonNull(schema.enum) ?? schema.enum[0]
  for (const key of ['anyOf', 'oneOf'] as const) {
    const list = schema[key]
    if (Array.isArray(list) && list.length) return exampleOf(nonNull(list), refs, name, depth + 1)
  }
  if (Array.isArray(schema.allOf))
    return Object.assign({}, ...schema.allOf.map((s) => exampleOf(s, refs, name, depth + 1)))
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type
  switch (type) {
    case 'null':
      return null
    case 'boolean':
      return true
    case 'integer':
    case 'number': {
      const min = typeof schema.minimum === 'number' ? schema.minimum : Number.NEGATIVE_INFINITY
      const max = typeof schema.maximum === 'number' ? schema.maximum : Number.POSITIVE_INFINITY
      const wanted = /status/i.test(name) ? 200 : /seconds/i.test(name) ? 60 : 1
      return wanted >= min && wanted <= max ? wanted : Math.max(min, 1)
    }
    case 'string':
      return stringExample(schema, name)
    case 'array': {
      const item = exampleOf(schema.items, refs, name, depth + 1)
      const count = typeof schema.minItems === 'number' ? Math.max(1, schema.minItems) : 1
      return item === undefined ? [] : Array.from({ length: count }, () => item)
    }
  }
  // A schema that takes anything (TypeBox's Unknown): an object says so best.
  if (type === undefined && Object.keys(schema).every((k) => k === 'description' || k === 'title')) return {}
  if (type === 'object' || isObject(schema.properties)) {
    const out: Json = {}
    for (const [key, s] of Object.entries(isObject(schema.properties) ? schema.properties : {})) {
      const value = exampleOf(s, refs, key, depth + 1)
      if (value !== undefined) out[key] = value
    }
    if (!schema.properties && isObject(schema.additionalProperties)) {
      const value = exampleOf(schema.additionalProperties, refs, 'name', depth + 1)
      if (value !== undefined) out[stringExample({}, name) ?? 'key'] = value
    }
    return out
  }
  return undefined
}
