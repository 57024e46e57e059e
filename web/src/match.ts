// Suggested matches between a vendor's account and the PSA's companies, by name. Names are compared
// once normalised: case, accents and punctuation, "&" read as "and", a leading "The", legal forms at
// the end ("Inc.", "L.L.C.", "Pty Ltd", "GmbH & Co. KG"…) and a branch after a separator
// (" - Branch Operations", " – East", " (Head Office)", ": London"). The same name once normalised is
// a confident suggestion; a similar name (words' trigrams in common) a possible one. Each says why, in
// the user's words. Pure: the index over the companies is in match-index.ts.

export type Confidence = 'confident' | 'possible'

export interface Match {
  confidence: Confidence
  /** Why, as the portal shows it: "Same name once 'Inc.' is ignored", "Similar name (87%)". */
  reason: string
  /** 0 to 1; 1 for the same name once normalised. */
  score: number
}

export interface Suggestion<T> extends Match {
  item: T
}

/** A suggestion below this score is not made. */
export const possibleThreshold = 0.6

/** Legal forms, as words once case and dots are gone ("L.L.C." is "llc"); ignored at a name's end. */
const legalForms = new Set(
  (
    'inc incorporated llc llp lp ltd limited plc corp corporation co company gmbh mbh ag kg ohg ug sa sas ' +
    'sarl srl spa sl bv nv vof pty pte sdn bhd oy oyj ab asa aps kk ulc pllc lda ltda sro kft zrt'
  ).split(' '),
)

const letters: Record<string, string> = { ß: 'ss', æ: 'ae', ø: 'o', œ: 'oe', ł: 'l', đ: 'd', þ: 'th', ı: 'i' }

/** A word without case, accents or dots: "S.A." is "sa", "Société" is "societe", "&" is "and". */
export function fold(word: string): string {
  if (word === '&') return 'and'
  return word
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[ßæøœłđþı]/g, (c) => letters[c] ?? c)
    .replace(/[.'’]/g, '')
}

interface Token {
  text: string
  word: string
  start: number
  end: number
}

// A word keeps its inner dots and apostrophes ("L.L.C.", "McDonald's"); "&" is a word of its own.
const tokenPattern = /&|[\p{L}\p{N}]+(?:[.'’][\p{L}\p{N}]+)*\.?/gu

function tokens(text: string): Token[] {
  return [...text.matchAll(tokenPattern)].map((m) => ({
    text: m[0],
    word: fold(m[0]),
    start: m.index,
    end: m.index + m[0].length,
  }))
}

/** The tokens without a leading "The" and legal forms at the end, and the ignored parts as typed. */
function core(text: string, all: Token[]): { kept: Token[]; ignored: string[] } {
  let start = 0
  let end = all.length
  const ignored: string[] = []
  if (end - start > 1 && all[0]?.word === 'the') {
    ignored.push(all[0].text)
    start = 1
  }
  const last = end
  // "Smith & Co." loses "& Co.": an "and" goes only with a legal form after it.
  while (end - start > 1) {
    const word = all[end - 1]?.word ?? ''
    if (legalForms.has(word) || (end < last && word === 'and')) end--
    else break
  }
  if (all[end - 1]?.word === 'and') end++
  if (end < last) ignored.push(text.slice(all[end]?.start, all[last - 1]?.end))
  return { kept: all.slice(start, end), ignored }
}

// A branch follows a spaced dash or bar, a colon, or stands in parentheses at the end.
const branchSeparator = /\s+[-–—|]\s+|\s*:\s+|\s*\([^()]*\)\s*$/

export interface NormalisedName {
  /** As typed, trimmed, lower case, spaces collapsed. */
  raw: string
  /** Every word without case, accents or punctuation, "&" as "and". */
  plain: string
  /** Without a leading "The" and legal forms at the end (a branch kept). */
  legal: string
  /** Without the branch too: the company's own name ("" when nothing is left). */
  base: string
  /** The branch as typed with its separator (" - Branch Operations"), or null. */
  branch: string | null
  /** What `legal` left out, as typed ("The", "Inc."). */
  ignored: string[]
  /** "&" is in the name. */
  ampersand: boolean
  /** The trigrams of the base's words and its words, for similar names. */
  grams: Set<string>
  words: Set<string>
}

export function normalise(name: string): NormalisedName {
  const text = name.trim().replace(/\s+/g, ' ')
  const all = tokens(text)
  const cut = branchSeparator.exec(text)
  let baseTokens = all
  let branch: Token[] = []
  if (cut && cut.index > 0) {
    const before = all.filter((t) => t.end <= cut.index)
    // Only a name left before it makes a branch ("- East" alone is a name).
    if (core(text, before).kept.some((t) => !legalForms.has(t.word))) {
      baseTokens = before
      branch = all.slice(before.length)
    }
  }
  const { kept, ignored } = core(text, baseTokens)
  const words = kept.map((t) => t.word)
  const base = words.join(' ')
  return {
    raw: text.toLowerCase(),
    plain: all.map((t) => t.word).join(' '),
    legal: [...words, ...branch.map((t) => t.word)].join(' '),
    base,
    branch: branch.length > 0 && cut ? text.slice(cut.index) : null,
    ignored,
    ampersand: all.some((t) => t.text === '&'),
    grams: trigrams(words),
    words: new Set(words),
  }
}

/** Each word's trigrams, padded as "  w" … "d " so that a word's start and end count. */
export function trigrams(words: readonly string[]): Set<string> {
  const grams = new Set<string>()
  for (const w of words) {
    const padded = `  ${w} `
    for (let i = 0; i + 3 <= padded.length; i++) grams.add(padded.slice(i, i + 3))
  }
  return grams
}

const quoted = (parts: string[]) => {
  const q = parts.map((p) => `'${p}'`)
  return q.length <= 1 ? (q[0] ?? '') : `${q.slice(0, -1).join(', ')} and ${q.at(-1)}`
}

/** "Same name once 'Inc.' and the branch ' - East' are ignored". */
function onceIgnored(ignored: string[], branch: string | null): string {
  const seen = new Set<string>()
  const parts = ignored.filter((p) => {
    const key = fold(p)
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
  const named = [quoted(parts), branch ? `the branch '${branch}'` : ''].filter(Boolean)
  const verb = parts.length + (branch ? 1 : 0) > 1 ? 'are' : 'is'
  return `Same name once ${named.join(' and ')} ${verb} ignored`
}

const sure = (reason: string): Match => ({ confidence: 'confident', reason, score: 1 })

/**
 * The same name once normalised (raw, then plain, then without legal forms, then without a branch on
 * one side): confident, with what was ignored; null when they differ there.
 */
export function sameName(a: NormalisedName, b: NormalisedName): Match | null {
  if (a.base === '' || b.base === '') return null
  if (a.raw === b.raw) return sure('Same name')
  if (a.plain === b.plain)
    return sure(
      a.ampersand !== b.ampersand
        ? "Same name once '&' is read as 'and'"
        : 'Same name once case, accents and punctuation are ignored',
    )
  if (a.legal === b.legal) return sure(onceIgnored([...a.ignored, ...b.ignored], null))
  if (a.base === b.base && (a.branch === null || b.branch === null))
    return sure(onceIgnored([...a.ignored, ...b.ignored], a.branch ?? b.branch))
  return null
}

/** Two branches of one name ("Woodgrove Bank - East" and "Woodgrove Bank - West"): only possible. */
export function otherBranch(a: NormalisedName, b: NormalisedName): Match | null {
  if (a.base === '' || a.base !== b.base || a.branch === null || b.branch === null) return null
  return {
    confidence: 'possible',
    reason: `Same name but another branch ('${a.branch.trim()}', '${b.branch.trim()}')`,
    score: 0.9,
  }
}

/** The score of similar names from their trigrams in common; one name's words all in the other: 0.6. */
export function fuzzyScore(a: NormalisedName, b: NormalisedName, common?: number): number {
  const size = a.grams.size + b.grams.size
  if (size === 0) return 0
  let shared = common ?? 0
  if (common === undefined) for (const g of a.grams) if (b.grams.has(g)) shared++
  const dice = (2 * shared) / size
  if (dice >= possibleThreshold || shared < Math.min(a.grams.size, b.grams.size)) return dice
  const [short, long] = a.words.size <= b.words.size ? [a.words, b.words] : [b.words, a.words]
  // A short word alone ("IT") is in too many names to say anything.
  const telling = [...short].join('').length >= 4
  return telling && [...short].every((w) => long.has(w)) ? Math.max(dice, possibleThreshold) : dice
}

export const similar = (score: number): Match => ({
  confidence: 'possible',
  reason: `Similar name (${Math.floor(score * 100)}%)`,
  score,
})

/** How two names match, or null below the threshold. */
export function compare(a: NormalisedName, b: NormalisedName): Match | null {
  const match = sameName(a, b) ?? otherBranch(a, b)
  if (match) return match
  const score = fuzzyScore(a, b)
  return score >= possibleThreshold ? similar(score) : null
}

/** 0 (nothing in common) to 1 (the same name once normalised), for ranking a list. */
export function similarity(a: string, b: string): number {
  const na = normalise(a)
  const nb = normalise(b)
  return sameName(na, nb)?.score ?? otherBranch(na, nb)?.score ?? fuzzyScore(na, nb)
}

/** The word to search the PSA for: the name's longest telling word. */
export function searchWord(name: string): string {
  return [...normalise(name).words].sort((a, b) => b.length - a.length)[0] ?? name.trim()
}

/** The best of a few candidates (no index), or null. */
export function best<T extends { name: string }>(
  name: string,
  candidates: readonly T[],
): Suggestion<T> | null {
  const a = normalise(name)
  let top: Suggestion<T> | null = null
  for (const item of candidates) {
    const m = compare(a, normalise(item.name))
    if (m && (!top || m.score > top.score)) top = { item, ...m }
  }
  return top
}
