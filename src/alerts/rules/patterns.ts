// A rule condition's `matches` pattern, compiled by RE2 (re2js) within bounds
// (docs/decisions/rules/condition-limits.md). RE2 matches in time linear in the text times the size of
// the compiled program, so both are bounded: the text a condition reads (rule-conditions.ts) and the
// program here. A pattern's source is short, but a counted repetition multiplies what it repeats
// (`(…){40}`), and RE2 writes every copy out when it compiles; so before compiling, the pattern's size
// with every counted repetition written out is worked out from its source and bounded, and the compiled
// program's size (re2js's programSize) is bounded when the rule is saved. Compiled programs are kept,
// by pattern, in a cache bounded by their total size: the alert path never compiles a pattern twice
// while it stays in use.
import { LRUCache } from 'lru-cache'
import { RE2JS } from 're2js'

export const patternLimits = {
  /** Characters of a pattern's source. */
  source: 256,
  /** Characters of the pattern with every counted repetition written out (checked before compiling). */
  writtenOut: 2_000,
  /** Instructions of the compiled program (RE2's "program size"), when a rule is saved. */
  program: 200,
} as const

/** A compiled pattern and its program's size, in instructions. */
export interface Program {
  re: RE2JS
  size: number
}

/**
 * The pattern's size in characters with every counted repetition (`x{n}`, `x{n,}`, `x{n,m}`) written
 * out: `x{n,m}` counts as m copies of x plus one for each optional copy. About what RE2 compiles it to
 * (an instruction or less per character of the written-out form, plus a few), read from the source in
 * one pass: an escape or a character class is one atom, a group its content and parentheses.
 */
export function writtenOutSize(pattern: string): number {
  interface Group {
    total: number
    /** The size of the last atom, which a following repetition repeats. */
    last: number
  }
  let at: Group = { total: 0, last: 0 }
  const groups: Group[] = [at]
  const atom = (size: number) => {
    at.total += size
    at.last = size
  }
  const counted = /\{(\d+)(,(\d*))?\}/y
  let i = 0
  while (i < pattern.length) {
    const c = pattern[i]
    if (c === '\\') {
      const next = pattern[i + 1]
      if (next === 'Q') {
        // \Q…\E: literal text, one character each.
        const end = pattern.indexOf('\\E', i + 2)
        const stop = end < 0 ? pattern.length : end
        at.total += stop - (i + 2)
        at.last = 1
        i = end < 0 ? pattern.length : end + 2
        continue
      }
      let j = i + 2
      if ((next === 'p' || next === 'P' || next === 'x') && pattern[i + 2] === '{') {
        const close = pattern.indexOf('}', i + 2)
        j = close < 0 ? pattern.length : close + 1
      } else if (next === 'p' || next === 'P') j = i + 3
      atom(j - i)
      i = j
    } else if (c === '[') {
      let j = i + 1
      if (pattern[j] === '^') j++
      if (pattern[j] === ']') j++
      while (j < pattern.length && pattern[j] !== ']') {
        if (pattern[j] === '\\') j += 2
        else if (pattern[j] === '[' && pattern[j + 1] === ':') {
          const close = pattern.indexOf(':]', j + 2)
          j = close < 0 ? pattern.length : close + 2
        } else j++
      }
      j = Math.min(j + 1, pattern.length)
      atom(j - i)
      i = j
    } else if (c === '(') {
      at = { total: 0, last: 0 }
      groups.push(at)
      i++
    } else if (c === ')') {
      const inner = groups.length > 1 ? groups.pop() : undefined
      at = groups[groups.length - 1] ?? at
      atom((inner?.total ?? 0) + 2)
      i++
    } else if (c === '{') {
      counted.lastIndex = i
      const m = counted.exec(pattern)
      if (!m) {
        atom(1)
        i++
        continue
      }
      const min = Number(m[1])
      const max = m[2] === undefined ? min : m[3] === '' ? min + 1 : Number(m[3])
      const copies = Math.max(max, min, 1)
      at.total += at.last * (copies - 1) + Math.max(0, copies - min)
      at.last *= copies
      i += m[0].length
    } else if (c === '*' || c === '+' || c === '?' || c === '|') {
      at.total += 1
      if (c === '|') at.last = 0
      i++
    } else {
      atom(1)
      i++
    }
  }
  // Unclosed groups (RE2 refuses the pattern anyway) count with their content.
  return groups.reduce((sum, g) => sum + g.total, 0)
}

const compiled = new LRUCache<string, Program>({
  // Every pattern of 50 integrations at their limit (rule-conditions.ts); a compiled program takes
  // some 170 bytes an instruction, so the cache holds some 35 MB at most.
  maxSize: 200_000,
  sizeCalculation: (p) => p.size + 1,
})

const number = (n: number) => n.toLocaleString('en-US')

/**
 * The compiled program of `pattern`, or why it is refused (a sentence's end, after the condition's
 * name). Refused before compiling: a source over `patternLimits.source`, a written-out size over
 * `patternLimits.writtenOut`. The program's own size is for the caller to bound (the save-time check
 * does, `patternProblem`): a rule saved before these limits keeps running within the alert's budget.
 */
export function compilePattern(pattern: string): Program | string {
  const known = compiled.get(pattern)
  if (known) return known
  if (pattern.length > patternLimits.source)
    return `is ${number(pattern.length)} characters long; at most ${patternLimits.source} are allowed`
  const written = writtenOutSize(pattern)
  if (written > patternLimits.writtenOut)
    return `repeats its parts to ${number(written)} characters when every counted repetition ({n}) is written out; at most ${number(patternLimits.writtenOut)} are allowed`
  let re: RE2JS
  try {
    re = RE2JS.compile(pattern)
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err)
    return `is not a regular expression RE2 accepts (${why}); RE2 has no look-around or back-references`
  }
  const program = { re, size: re.programSize() }
  compiled.set(pattern, program)
  return program
}

/** Why a pattern may not be saved (a sentence's end), or null: it compiles within every limit. */
export function patternProblem(pattern: string): string | null {
  const p = compilePattern(pattern)
  if (typeof p === 'string') return p
  if (p.size > patternLimits.program)
    return `compiles to a program of ${number(p.size)} instructions; at most ${patternLimits.program} are allowed (repetitions, {n} counts and alternatives make it larger)`
  return null
}
