// Walking JSON Schemas for the OpenAPI document (docs/vendor-api.md#openapi-document): a canonical text per
// schema, so that the same schema built twice (TypeBox copies a schema it marks optional) is recognised as
// one, and a copy with the named schemas inside it replaced by references.

export type Json = Record<string, unknown>

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

/** Keywords whose value is a schema, or a list of schemas. */
const schemaKeywords = new Set(['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains'])
const schemaListKeywords = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems'])
/** Keywords whose value maps names to schemas. */
const schemaMapKeywords = new Set(['properties', 'patternProperties', '$defs', 'definitions'])

const canonicals = new WeakMap<object, string>()

/** The schema as JSON with its keys sorted (own enumerable keys only, as JSON.stringify sees them). */
export function canonical(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'null'
  const known = canonicals.get(value)
  if (known !== undefined) return known
  const text = Array.isArray(value)
    ? `[${value.map(canonical).join(',')}]`
    : `{${Object.keys(value)
        .filter((k) => (value as Json)[k] !== undefined)
        .sort()
        .map((k) => `${JSON.stringify(k)}:${canonical((value as Json)[k])}`)
        .join(',')}}`
  canonicals.set(value, text)
  return text
}

/**
 * A copy of `schema` in which every subschema `name` recognises is `{ $ref }` to it. The root is replaced
 * too unless `keepRoot` (a named schema's own definition).
 */
export function referring(schema: unknown, name: (s: Json) => string | undefined, keepRoot = false): unknown {
  if (!isObject(schema)) return schema
  if (!keepRoot) {
    const found = name(schema)
    if (found) return { $ref: `#/components/schemas/${found}` }
  }
  const copy: Json = {}
  for (const [key, value] of Object.entries(schema)) {
    if (schemaKeywords.has(key) && isObject(value)) copy[key] = referring(value, name)
    else if (schemaListKeywords.has(key) && Array.isArray(value))
      copy[key] = value.map((v) => referring(v, name))
    else if (schemaMapKeywords.has(key) && isObject(value))
      copy[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, referring(v, name)]))
    else copy[key] = value
  }
  return copy
}

/** Every subschema of `schema` (itself first), as `referring` walks them. */
export function* subschemas(schema: unknown): Generator<Json> {
  if (!isObject(schema)) return
  yield schema
  for (const [key, value] of Object.entries(schema)) {
    if (schemaKeywords.has(key)) yield* subschemas(value)
    else if (schemaListKeywords.has(key) && Array.isArray(value)) for (const v of value) yield* subschemas(v)
    else if (schemaMapKeywords.has(key) && isObject(value))
      for (const v of Object.values(value)) yield* subschemas(v)
  }
}

/**
 * The subschema at `path` below `schema`: property names separated by dots, `[]` for the items of an
 * array (`data[]`), `|N` for the Nth member of an anyOf or oneOf (`|1`).
 */
export function schemaAt(schema: unknown, path: string | undefined): Json | undefined {
  let node: unknown = schema
  for (const token of path ? path.split('.') : []) {
    const member = /^\|(\d+)$/.exec(token)
    if (member && isObject(node)) {
      const list = (node.anyOf ?? node.oneOf) as unknown[] | undefined
      node = list?.[Number(member[1])]
      continue
    }
    const items = token.endsWith('[]')
    const prop = items ? token.slice(0, -2) : token
    if (prop) node = isObject(node) && isObject(node.properties) ? node.properties[prop] : undefined
    if (items) node = isObject(node) ? node.items : undefined
  }
  return isObject(node) ? node : undefined
}
