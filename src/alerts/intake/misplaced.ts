// Fields of the alert request sent in the wrong place (docs/contract.md#alert-request): a top-level field
// inside `data`, a `data` field at the top level, or a known name in another case (`CorrelationId`,
// `accountID`). The contract ignores unknown fields, so such a field is otherwise silently lost; these
// hints name where it was found and where it belongs. The contract's own two spellings
// (`correlationId`, `correlationID`) are exact names, never a case difference.
// Pure: the caller hands in the known names (the TypeBox schema's) and a bound on the keys looked at.

/** One field found where the schema does not read it. */
export interface MisplacedField {
  /** Where it was found, as validation errors name fields: `body/data/correlationId`. */
  found: string
  /** Where the contract reads it: `body/correlationId`. */
  belongs: string
}

export interface KnownFields {
  /** The request's top-level fields (the schema's `properties`), `data` among them. */
  top: readonly string[]
  /** The fields of `data`. */
  data: readonly string[]
}

/** At most this many keys of each object are looked at (a body may carry thousands). */
export const misplacedKeyLimit = 200
/** At most this many hints are reported. */
export const misplacedHintLimit = 5

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** The first `limit` own keys of an object, without listing them all. */
function firstKeys(o: Record<string, unknown>, limit: number): string[] {
  const keys: string[] = []
  for (const key in o) {
    if (keys.length >= limit) break
    if (Object.hasOwn(o, key)) keys.push(key)
  }
  return keys
}

/** The known names by their lower case; a name known in two spellings maps to the first. */
function byLowerCase(names: readonly string[]): Map<string, string> {
  const map = new Map<string, string>()
  for (const name of names) if (!map.has(name.toLowerCase())) map.set(name.toLowerCase(), name)
  return map
}

/** A level's names, exactly and by lower case. */
interface Names {
  exact: ReadonlySet<string>
  lower: ReadonlyMap<string, string>
}

/** The known names looked up, built once per `KnownFields` (the schema's are fixed): not per alert. */
const prepared = new WeakMap<KnownFields, { top: Names; data: Names }>()

function namesOf(known: KnownFields): { top: Names; data: Names } {
  let names = prepared.get(known)
  if (!names) {
    names = {
      top: { exact: new Set(known.top), lower: byLowerCase(known.top) },
      data: { exact: new Set(known.data), lower: byLowerCase(known.data) },
    }
    prepared.set(known, names)
  }
  return names
}

/** The fields of `body` found in the wrong place, each once, in the body's order; at most `hintLimit`. */
export function misplacedFields(
  body: unknown,
  known: KnownFields,
  keyLimit = misplacedKeyLimit,
  hintLimit = misplacedHintLimit,
): MisplacedField[] {
  if (!isRecord(body)) return []
  const { top, data } = namesOf(known)
  const hints: MisplacedField[] = []
  const look = (keys: string[], here: 'top' | 'data') => {
    const [same, other] = here === 'top' ? [top, data] : [data, top]
    const where = here === 'top' ? 'body' : 'body/data'
    const there = here === 'top' ? 'body/data' : 'body'
    for (const key of keys) {
      if (hints.length >= hintLimit) return
      if (same.exact.has(key)) continue
      const found = `${where}/${key}`
      // A field of the other level, exactly or in another case (the other level's name wins: it is
      // the one the caller meant if this level has no such name).
      const exact = other.exact.has(key) ? key : undefined
      const sameCase = same.lower.get(key.toLowerCase())
      const otherCase = other.lower.get(key.toLowerCase())
      if (exact !== undefined) hints.push({ found, belongs: `${there}/${exact}` })
      else if (sameCase !== undefined) hints.push({ found, belongs: `${where}/${sameCase}` })
      else if (otherCase !== undefined) hints.push({ found, belongs: `${there}/${otherCase}` })
    }
  }
  look(firstKeys(body, keyLimit), 'top')
  const inner = body.data
  if (isRecord(inner)) look(firstKeys(inner, keyLimit), 'data')
  return hints
}

/** A hint as a sentence part: "body/data/correlationId belongs at body/correlationId". */
export function hintText(h: MisplacedField): string {
  return `${h.found} is read nowhere; send it as ${h.belongs}`
}
