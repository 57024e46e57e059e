// Generators of hostile requests for one operation of the OpenAPI document: a plan fast-check can
// print and shrink (path parameters, query, headers, body), turned into a real HTTP request only when
// it is sent. Bodies start from a value that fits the operation's own schema (so a mutation reaches
// past validation into the handler) and are then broken in one place: a field dropped, a value of the
// wrong type, an extra field, a NUL or odd Unicode, a huge or deeply nested value; or the body is not
// JSON at all, or comes with another content type.
import fc from 'fast-check'

/** The parts of JSON Schema the service's OpenAPI document uses. */
export interface JsonSchema {
  type?: string | string[]
  const?: unknown
  enum?: unknown[]
  anyOf?: JsonSchema[]
  oneOf?: JsonSchema[]
  properties?: Record<string, JsonSchema>
  required?: string[]
  additionalProperties?: boolean | JsonSchema
  patternProperties?: Record<string, JsonSchema>
  items?: JsonSchema
  minItems?: number
  maxItems?: number
  uniqueItems?: boolean
  minLength?: number
  maxLength?: number
  pattern?: string
  format?: string
  minimum?: number
  maximum?: number
}

export interface Parameter {
  in: 'path' | 'query' | 'header' | 'cookie'
  name: string
  required?: boolean
  schema?: JsonSchema
}

export interface Operation {
  method: string
  path: string
  parameters: Parameter[]
  body: JsonSchema | null
  security: 'vendorToken' | 'partnerKey' | 'adminToken' | null
}

/** Placeholders a plan carries instead of the bulky values they stand for (see `expand`). */
const DEEP = '«deep»'
const BIG = '«big»'
const LONG = '«long»'

/** Strings that have broken services before. */
export const nastyStrings: readonly string[] = [
  '',
  ' ',
  'x\u0000y',
  '\u0000',
  '%00',
  '\ud800',
  'a\udfffb',
  '\ufeffbom',
  '\u202eevil',
  'line\u2028sep',
  'e\u0301',
  '🙂',
  '𝕏𝕐',
  '\uffff',
  '\u007f',
  'null',
  'true',
  '0',
  '-1',
  '1e309',
  'NaN',
  "' OR '1'='1",
  '"; DROP TABLE vendors; --',
  '../../etc/passwd',
  '%2e%2e%2f',
  '$' + '{jndi:ldap://x}',
  '<script>alert(1)</script>',
  '\\',
  '/',
  '?#&=',
  '__proto__',
  'constructor',
  'toString',
  'a'.repeat(129),
  'a'.repeat(513),
  '  padded  ',
  '\t\n',
  '2016-12-31T23:59:60Z',
  '2016-12-31T18:59:60-05:00',
  '+275760-09-13T00:00:00Z',
  '0000-01-01T00:00:00Z',
  '9999-12-31T23:59:59.999999999+14:00',
  '2026-02-30T00:00:00Z',
  'W3siYmVmb3JlIjoxfV0',
  'eyJiZWZvcmUiOiJceDAwIn0',
  DEEP,
  BIG,
  LONG,
]

/** Raw fragments put into a URL as they are, without encoding them. */
const rawUrlFragments = [
  '%',
  '%zz',
  '%E0%A4%A',
  '%00',
  '%C0%80',
  '%FF',
  '..',
  '.',
  '%2F',
  '%252F',
  'a%20b',
  '+',
  ';',
  '%u0041',
]

/** The findings of the first fuzzing come back often: a NUL, a leap second
 * (docs/decisions/hostile-input/no-nul.md, docs/decisions/hostile-input/one-date-time.md). */
const findings = fc.constantFrom(
  'x\u0000y',
  '\u0000',
  'id\u0000',
  '2016-12-31T23:59:60Z',
  '2016-12-31T18:59:60-05:00',
)

const nastyString = fc.oneof(
  { weight: 2, arbitrary: findings },
  { weight: 4, arbitrary: fc.constantFrom(...nastyStrings) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }) },
)

/** A value of any JSON type that a field is unlikely to expect. */
export const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: nastyString },
  fc.constantFrom(null, true, false, 0, -1, 1.5, -0, 1e308, 2 ** 64, [], {}, [null], { '': '' }),
  fc.jsonValue({ maxDepth: 3 }),
)

const nastyKey = fc.oneof(
  fc.constantFrom(
    'extra',
    '',
    'k\u0000',
    '\ud800',
    '__proto__',
    'constructor',
    'prototype',
    'data',
    'a'.repeat(300),
  ),
  fc.string({ unit: 'binary', maxLength: 8 }),
)

/**
 * Field values that get a request past authentication and look-ups, by field name: a value, or an
 * arbitrary of values (seeds: inputs that once hurt the service, sent beside sound ones).
 */
export type GoodValues = ReadonlyMap<string, unknown>

/** A value that fits the schema (as far as the generator can tell), preferring the good values. */
export function validOf(schema: JsonSchema, good: GoodValues, name?: string): fc.Arbitrary<unknown> {
  const own = fromSchema(schema, good)
  if (name !== undefined && good.has(name)) {
    const value = good.get(name)
    const seeded = value instanceof fc.Arbitrary ? value : fc.constant(value)
    return fc.oneof({ weight: 5, arbitrary: seeded }, { weight: 1, arbitrary: own })
  }
  return own
}

function fromSchema(schema: JsonSchema, good: GoodValues): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const)
  if (schema.enum) return fc.constantFrom(...schema.enum)
  const alternatives = schema.anyOf ?? schema.oneOf
  if (alternatives && alternatives.length > 0)
    return fc.oneof(...alternatives.map((s) => fromSchema(s, good)))
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type
  switch (type) {
    case 'string':
      return stringOf(schema)
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1_000_000 })
    case 'number':
      return fc.double({
        min: schema.minimum ?? -1e6,
        max: schema.maximum ?? 1e6,
        noNaN: true,
        noDefaultInfinity: true,
      })
    case 'boolean':
      return fc.boolean()
    case 'null':
      return fc.constant(null)
    case 'array': {
      const items = schema.items ? fromSchema(schema.items, good) : fc.jsonValue({ maxDepth: 1 })
      const bounds = { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 3, 3) }
      return schema.uniqueItems
        ? fc.uniqueArray(items, { ...bounds, selector: (v) => JSON.stringify(v) })
        : fc.array(items, bounds)
    }
    case 'object': {
      if (schema.properties) {
        const required = new Set(schema.required ?? [])
        const fields = Object.fromEntries(
          Object.entries(schema.properties).map(([key, s]) => [key, validOf(s, good, key)]),
        )
        return fc.record(fields, { requiredKeys: [...required] })
      }
      const pattern = Object.values(schema.patternProperties ?? {})[0]
      if (pattern)
        return fc.dictionary(
          fc.constantFrom('Endpoint Security', 'Backup', 'g1'),
          fromSchema(pattern, good),
          { maxKeys: 2 },
        )
      return fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 })
    }
    default:
      return fc.jsonValue({ maxDepth: 2 })
  }
}

function stringOf(schema: JsonSchema): fc.Arbitrary<string> {
  const max = schema.maxLength ?? 64
  const min = schema.minLength ?? 0
  if (schema.format === 'date-time') {
    const instants = fc.date({
      min: new Date('2000-01-01T00:00:00Z'),
      max: new Date('2100-01-01T00:00:00Z'),
      noInvalidDate: true,
    })
    return fc.oneof(
      { weight: 4, arbitrary: instants.map((d) => d.toISOString()) },
      { weight: 1, arbitrary: fc.constantFrom('2016-12-31T23:59:60Z', '2016-12-31T18:59:60-05:00') },
    )
  }
  // Outbound URLs: hosts under .invalid never resolve (RFC 2606), so nothing is ever called.
  if (schema.pattern?.includes('https?://'))
    return fc.constantFrom('https://hooks.invalid/in', 'https://x.invalid/g')
  if (schema.pattern) {
    return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length >= min && s.length <= max)
  }
  return fc.string({ minLength: min, maxLength: Math.max(min, Math.min(max, 24)) })
}

/** How a valid body is broken. */
type Mutation =
  | { op: 'none' }
  | { op: 'drop'; pick: number }
  | { op: 'replace'; pick: number; value: unknown }
  | { op: 'extra'; pick: number; key: string; value: unknown }
  | { op: 'whole'; value: unknown }

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 1, arbitrary: fc.constant({ op: 'none' as const }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('drop' as const), pick: fc.nat() }) },
  {
    weight: 4,
    arbitrary: fc.record({ op: fc.constant('replace' as const), pick: fc.nat(), value: nastyValue }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('extra' as const),
      pick: fc.nat(),
      key: nastyKey,
      value: nastyValue,
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('whole' as const), value: nastyValue }) },
)

type Container = Record<string, unknown> | unknown[]
const isContainer = (v: unknown): v is Container => typeof v === 'object' && v !== null

/** Every place inside a value: the container holding it and its key there. */
function places(root: unknown): { holder: Container; key: string | number }[] {
  const out: { holder: Container; key: string | number }[] = []
  const stack: unknown[] = [root]
  for (let v = stack.pop(); v !== undefined; v = stack.pop()) {
    if (!isContainer(v)) continue
    const keys: (string | number)[] = Array.isArray(v) ? v.map((_, i) => i) : Object.keys(v)
    for (const key of keys) {
      out.push({ holder: v, key })
      stack.push((v as Record<string | number, unknown>)[key])
    }
  }
  return out
}

function mutate(value: unknown, m: Mutation): unknown {
  if (m.op === 'none') return value
  if (m.op === 'whole') return m.value
  const copy: unknown = structuredClone(value)
  const all = places(copy)
  if (m.op === 'extra') {
    const objects = [copy, ...all.map((p) => (p.holder as Record<string | number, unknown>)[p.key])].filter(
      (v): v is Record<string, unknown> => isContainer(v) && !Array.isArray(v),
    )
    const target = objects[m.pick % Math.max(objects.length, 1)]
    if (!target) return { [m.key]: m.value }
    Object.defineProperty(target, m.key, {
      value: m.value,
      enumerable: true,
      writable: true,
      configurable: true,
    })
    return copy
  }
  const place = all[m.pick % Math.max(all.length, 1)]
  if (!place) return m.op === 'replace' ? m.value : copy
  if (m.op === 'drop') {
    if (Array.isArray(place.holder)) place.holder.splice(Number(place.key), 1)
    else delete place.holder[place.key]
  } else {
    ;(place.holder as Record<string | number, unknown>)[place.key] = m.value
  }
  return copy
}

/** A body: JSON text to be made from a value (placeholders expanded), or raw text. */
export type BodyPlan = { kind: 'json'; value: unknown } | { kind: 'raw'; text: string }

const rawBodies = [
  '{"a":1',
  '{"a":}',
  '{"a":1}{"b":2}',
  "{'a':1}",
  'NaN',
  '\ufeff{}',
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
  '{"a\\u0000":1}',
  '[',
  '"just a string"',
  '12345678901234567890123456789',
  ' ',
  'null',
  'grant_type=client_credentials&client_id=%00',
  '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--',
  `${'['.repeat(100_000)}`,
  `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`,
]

export function bodyPlan(schema: JsonSchema | null, good: GoodValues): fc.Arbitrary<BodyPlan> {
  const fromValid = fc
    .tuple(schema ? validOf(schema, good) : fc.jsonValue({ maxDepth: 2 }), mutation)
    .map(([value, m]): BodyPlan => ({ kind: 'json', value: mutate(value, m) }))
  return fc.oneof(
    { weight: 6, arbitrary: fromValid },
    { weight: 1, arbitrary: fc.constantFrom(...rawBodies).map((text): BodyPlan => ({ kind: 'raw', text })) },
  )
}

/** The placeholders' real values: JSON texts in a body, plain strings in a URL or header. */
export function expand(text: string, where: 'json' | 'url'): string {
  const deep = where === 'json' ? `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}` : '['.repeat(2000)
  const big = where === 'json' ? JSON.stringify('x'.repeat(300 * 1024)) : 'x'.repeat(4000)
  const long = 'é🙂\u0301a'.repeat(where === 'json' ? 5000 : 300)
  if (where === 'json') {
    return text
      .replaceAll(JSON.stringify(DEEP), deep)
      .replaceAll(JSON.stringify(BIG), big)
      .replaceAll(JSON.stringify(LONG), JSON.stringify(long))
  }
  return text.replaceAll(DEEP, deep).replaceAll(BIG, big).replaceAll(LONG, long)
}

/** One value in a URL: the good one, a nasty one (encoded), or a raw fragment (not encoded). */
export type UrlValue = { kind: 'good' } | { kind: 'value'; value: string } | { kind: 'raw'; text: string }

const urlValue = (validValue: fc.Arbitrary<unknown> | null): fc.Arbitrary<UrlValue> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constant({ kind: 'good' as const }) },
    ...(validValue
      ? [{ weight: 2, arbitrary: validValue.map((v): UrlValue => ({ kind: 'value', value: String(v) })) }]
      : []),
    { weight: 3, arbitrary: nastyString.map((value): UrlValue => ({ kind: 'value', value })) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(...rawUrlFragments).map((text): UrlValue => ({ kind: 'raw', text })),
    },
  )

export type Auth =
  | 'valid'
  | 'none'
  | 'another-kind'
  | 'another-tenant'
  | 'garbage'
  | 'empty-bearer'
  | 'lowercase-bearer'
  | 'basic-garbage'
  | 'basic-valid'
  | 'huge'

const auth: fc.Arbitrary<Auth> = fc.oneof(
  { weight: 8, arbitrary: fc.constant('valid' as const) },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      'none',
      'another-kind',
      'another-tenant',
      'garbage',
      'empty-bearer',
      'lowercase-bearer',
      'basic-garbage',
      'basic-valid',
      'huge',
    ),
  },
)

const contentTypes = [
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/json; charset=latin1',
  'application/json;;;',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/vnd.api+json',
  '*/*',
  'application/json, text/plain',
  'invalid content type',
]

/** Everything one hostile request is made of. */
export interface RequestPlan {
  params: Record<string, UrlValue>
  query: { name: string; value: UrlValue }[]
  auth: Auth
  contentType: string | null
  body: BodyPlan | null
  headers: Record<string, string>
}

export function requestPlan(op: Operation, good: GoodValues): fc.Arbitrary<RequestPlan> {
  const pathParams = op.parameters.filter((p) => p.in === 'path')
  const queryParams = op.parameters.filter((p) => p.in === 'query')
  const params = fc.record(Object.fromEntries(pathParams.map((p) => [p.name, urlValue(null)])))
  const declared = queryParams.map((p) =>
    fc.option(
      urlValue(p.schema ? validOf(p.schema, good, p.name) : null).map((value) => ({ name: p.name, value })),
      { nil: null },
    ),
  )
  const extras = fc.array(
    fc.record({
      name: fc.oneof(
        fc.constantFrom(...queryParams.map((p) => p.name), 'extra', '__proto__', ''),
        fc.string({ maxLength: 4 }),
      ),
      value: urlValue(null),
    }),
    { maxLength: 2 },
  )
  const query = fc
    .tuple(fc.tuple(...declared), extras)
    .map(([d, e]) => [...d.filter((q): q is { name: string; value: UrlValue } => q !== null), ...e])
  const hasBody = op.body !== null || op.method === 'POST' || op.method === 'PATCH' || op.method === 'PUT'
  const body = hasBody ? fc.option(bodyPlan(op.body, good), { nil: null, freq: 8 }) : fc.constant(null)
  const contentType = fc.oneof(
    { weight: 6, arbitrary: fc.constant('application/json') },
    { weight: 2, arbitrary: fc.constantFrom(...contentTypes) },
    { weight: 1, arbitrary: fc.constant(null) },
  )
  const headers = fc.oneof(
    { weight: 5, arbitrary: fc.constant<Record<string, string>>({}) },
    fc.constantFrom<Record<string, string>>(
      { 'content-encoding': 'gzip' },
      { accept: 'application/xml' },
      { 'x-request-id': '\u00ff\u00fe' },
      { cookie: 'session=%00' },
      { 'x-forwarded-for': 'not an address' },
      { 'accept-charset': 'utf-7' },
    ),
  )
  return fc.record({ params, query, auth, contentType, body, headers })
}
