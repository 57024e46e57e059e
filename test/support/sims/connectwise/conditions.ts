// ConnectWise's `conditions` query language, as far as a ticket client uses it:
//   company/id=12 and closedFlag=False
//   (externalXRef="abc" or summary contains 'disk') and name like "Acme%"
// Operators = != < <= > >= contains like in, each of the last three optionally prefixed by `not`;
// `and`/`or` (any case) with parentheses; strings in double or single quotes; dates in [brackets];
// booleans True/False (any case); null. `like` takes `%` or `*` as the wildcard. String comparisons
// ignore case, as ConnectWise's SQL collation does. Field names are checked against the resource's
// fields: an unknown field is an error, not an empty result.

export class ConditionError extends Error {}

type Scalar = string | number | boolean | null | { date: number }
type Value = Scalar | Scalar[]
type Op = '=' | '!=' | '<' | '<=' | '>' | '>=' | 'contains' | 'like' | 'in'

export type Condition =
  | { kind: 'and' | 'or'; left: Condition; right: Condition }
  | { kind: 'cmp'; field: string[]; op: Op; not: boolean; value: Value }

type Token = { t: 'word' | 'str' | 'num' | 'date' | 'op' | 'punct'; v: string }

function tokenize(src: string): Token[] {
  const out: Token[] = []
  let i = 0
  while (i < src.length) {
    const c = src[i] ?? ''
    if (/\s/.test(c)) {
      i++
    } else if (c === '(' || c === ')' || c === ',') {
      out.push({ t: 'punct', v: c })
      i++
    } else if (c === '"' || c === "'") {
      let s = ''
      i++
      while (i < src.length && src[i] !== c) {
        if (src[i] === '\\' && i + 1 < src.length) i++
        s += src[i]
        i++
      }
      if (i >= src.length) throw new ConditionError(`Unterminated string in conditions: ${src}`)
      i++
      out.push({ t: 'str', v: s })
    } else if (c === '[') {
      const end = src.indexOf(']', i)
      if (end < 0) throw new ConditionError(`Unterminated date in conditions: ${src}`)
      out.push({ t: 'date', v: src.slice(i + 1, end) })
      i = end + 1
    } else if ('=!<>'.includes(c)) {
      const two = src.slice(i, i + 2)
      const op = ['!=', '<=', '>='].includes(two) ? two : c
      if (op === '!') throw new ConditionError(`Unexpected "!" in conditions: ${src}`)
      out.push({ t: 'op', v: op })
      i += op.length
    } else {
      const m = /^-?\d+(\.\d+)?(?![\w/])/.exec(src.slice(i)) ?? /^[A-Za-z_][\w/.]*/.exec(src.slice(i))
      if (!m) throw new ConditionError(`Unexpected character "${c}" in conditions: ${src}`)
      out.push({ t: /^-?\d/.test(m[0]) ? 'num' : 'word', v: m[0] })
      i += m[0].length
    }
  }
  return out
}

export function parseConditions(src: string, knownFields: readonly string[]): Condition {
  const tokens = tokenize(src)
  const known = new Map(knownFields.map((f) => [f.toLowerCase(), f]))
  let pos = 0
  const peek = () => tokens[pos]
  const isWord = (tok: Token | undefined, w: string) => tok?.t === 'word' && tok.v.toLowerCase() === w
  const fail = (what: string): never => {
    throw new ConditionError(`${what} at token ${pos + 1} in conditions: ${src}`)
  }

  const scalar = (): Scalar => {
    const tok = tokens[pos++]
    if (!tok) return fail('Missing value')
    if (tok.t === 'str') return tok.v
    if (tok.t === 'num') return Number(tok.v)
    if (tok.t === 'date') {
      const ms = Date.parse(tok.v)
      return Number.isNaN(ms) ? fail(`Invalid date [${tok.v}]`) : { date: ms }
    }
    if (tok.t === 'word' && ['true', 'false'].includes(tok.v.toLowerCase()))
      return tok.v.toLowerCase() === 'true'
    if (tok.t === 'word' && tok.v.toLowerCase() === 'null') return null
    return fail(`Unexpected value "${tok.v}"`)
  }

  const comparison = (): Condition => {
    const f = tokens[pos++]
    if (f?.t !== 'word') return fail('Expected a field name')
    const path = f.v.split('/')
    const head = known.get((path[0] ?? '').toLowerCase())
    if (!head) throw new ConditionError(`Unknown field "${f.v}" in conditions.`)
    path[0] = head
    let not = false
    if (isWord(peek(), 'not')) {
      not = true
      pos++
    }
    const o = tokens[pos++]
    let op: Op
    if (o?.t === 'op' && !not) op = o.v as Op
    else if (o?.t === 'word' && ['contains', 'like', 'in'].includes(o.v.toLowerCase()))
      op = o.v.toLowerCase() as Op
    else return fail('Expected an operator')
    if (op !== 'in') return { kind: 'cmp', field: path, op, not, value: scalar() }
    if (peek()?.v !== '(') return fail('Expected "(" after in')
    pos++
    const list: Scalar[] = [scalar()]
    while (peek()?.v === ',') {
      pos++
      list.push(scalar())
    }
    if (tokens[pos++]?.v !== ')') return fail('Expected ")"')
    return { kind: 'cmp', field: path, op, not, value: list }
  }

  const unary = (): Condition => {
    if (peek()?.t === 'punct' && peek()?.v === '(') {
      pos++
      const inner = orExpr()
      if (tokens[pos++]?.v !== ')') return fail('Expected ")"')
      return inner
    }
    return comparison()
  }
  const andExpr = (): Condition => {
    let left = unary()
    while (isWord(peek(), 'and')) {
      pos++
      left = { kind: 'and', left, right: unary() }
    }
    return left
  }
  const orExpr = (): Condition => {
    let left = andExpr()
    while (isWord(peek(), 'or')) {
      pos++
      left = { kind: 'or', left, right: andExpr() }
    }
    return left
  }

  const result = orExpr()
  if (pos < tokens.length) fail(`Unexpected "${tokens[pos]?.v}"`)
  return result
}

function lookup(obj: unknown, path: readonly string[]): unknown {
  let cur: unknown = obj
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined
    const rec = cur as Record<string, unknown>
    const actual = Object.keys(rec).find((k) => k.toLowerCase() === key.toLowerCase())
    cur = actual === undefined ? undefined : rec[actual]
  }
  return cur
}

function likeRegex(pattern: string): RegExp {
  const body = pattern
    .split('')
    .map((ch) =>
      ch === '%' || ch === '*' ? '.*' : ch === '_' ? '.' : ch.replace(/[.+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('')
  return new RegExp(`^${body}$`, 'is')
}

function compare(field: unknown, value: Scalar): number | null {
  if (value === null || field === undefined || field === null) return null
  if (typeof value === 'object') {
    const ms = typeof field === 'string' ? Date.parse(field) : Number.NaN
    return Number.isNaN(ms) ? null : Math.sign(ms - value.date)
  }
  if (typeof value === 'number') {
    const n = Number(field)
    return Number.isNaN(n) ? null : Math.sign(n - value)
  }
  if (typeof value === 'boolean') return field === value ? 0 : null
  return String(field).toLowerCase().localeCompare(value.toLowerCase())
}

function equals(field: unknown, value: Scalar): boolean {
  if (value === null) return field === undefined || field === null
  return compare(field, value) === 0
}

function test(field: unknown, op: Op, value: Value): boolean {
  if (Array.isArray(value)) return value.some((v) => equals(field, v))
  switch (op) {
    case '=':
      return equals(field, value)
    case '!=':
      return !equals(field, value)
    case 'contains':
      return typeof field === 'string' && field.toLowerCase().includes(String(value).toLowerCase())
    case 'like':
      return typeof field === 'string' && likeRegex(String(value)).test(field)
    default: {
      const c = compare(field, value)
      if (c === null) return false
      return op === '<' ? c < 0 : op === '<=' ? c <= 0 : op === '>' ? c > 0 : c >= 0
    }
  }
}

export function matches(cond: Condition, obj: unknown): boolean {
  if (cond.kind !== 'cmp') {
    return cond.kind === 'and'
      ? matches(cond.left, obj) && matches(cond.right, obj)
      : matches(cond.left, obj) || matches(cond.right, obj)
  }
  const result = test(lookup(obj, cond.field), cond.op, cond.value)
  return cond.not ? !result : result
}
