// The PSA's companies indexed once, to suggest a company for many accounts (web/src/match.ts): the
// same name once normalised by a look-up, similar names through the trigrams they share, so that 500
// accounts against 1,000 companies take milliseconds, not a comparison of every pair.
import {
  fuzzyScore,
  type NormalisedName,
  normalise,
  otherBranch,
  possibleThreshold,
  type Suggestion,
  sameName,
  similar,
} from './match.js' // '.js': Node's test runner imports this file too

type Level = 'raw' | 'plain' | 'legal' | 'base'
const levels: readonly Level[] = ['raw', 'plain', 'legal', 'base']

export class CompanyIndex<T extends { id: string; name: string }> {
  private readonly names: NormalisedName[]
  private readonly byName = new Map<string, number[]>()
  private readonly byGram = new Map<string, number[]>()
  private readonly byId = new Map<string, T>()
  /** Trigrams in common with the name being matched, per company (zeroed after each name). */
  private readonly common: Uint32Array

  constructor(readonly items: readonly T[]) {
    this.names = items.map((c) => normalise(c.name))
    this.common = new Uint32Array(items.length)
    items.forEach((item, i) => {
      this.byId.set(item.id, item)
      const n = this.names[i]
      if (!n || n.base === '') return
      for (const level of levels) add(this.byName, `${level}:${n[level]}`, i)
      for (const g of n.grams) add(this.byGram, g, i)
    })
  }

  /** The company of this id among those indexed. */
  get(id: string): T | undefined {
    return this.byId.get(id)
  }

  /** The best suggestion for a name, or null. */
  suggest(name: string): Suggestion<T> | null {
    const a = normalise(name)
    if (a.base === '') return null
    for (const level of levels) {
      const hits = (this.byName.get(`${level}:${a[level]}`) ?? []).filter(
        (i) => sameName(a, this.at(i)) !== null,
      )
      if (hits.length > 0) return this.same(a, hits)
    }
    return this.similar(a)
  }

  private at(i: number): NormalisedName {
    return this.names[i] as NormalisedName
  }

  private same(a: NormalisedName, hits: number[]): Suggestion<T> {
    const i = hits[0] as number
    const item = this.items[i] as T
    const match = sameName(a, this.at(i))
    if (hits.length === 1 && match) return { item, ...match }
    // Two companies of one name: the user chooses.
    return {
      item,
      confidence: 'possible',
      reason: `Same name as ${hits.length} PSA companies: choose one`,
      score: 0.95,
    }
  }

  private similar(a: NormalisedName): Suggestion<T> | null {
    const touched: number[] = []
    for (const g of a.grams)
      for (const i of this.byGram.get(g) ?? []) {
        const seen = this.common[i] ?? 0
        if (seen === 0) touched.push(i)
        this.common[i] = seen + 1
      }
    let top: Suggestion<T> | null = null
    const size = a.grams.size
    for (const i of touched) {
      const common = this.common[i] as number
      this.common[i] = 0
      const b = this.at(i)
      // Too few trigrams in common for a similar name, one name in the other, or another branch.
      const other = b.grams.size
      if (2 * common < possibleThreshold * (size + other) && common < Math.min(size, other)) continue
      const score = fuzzyScore(a, b, common)
      const match = otherBranch(a, b) ?? (score >= possibleThreshold ? similar(score) : null)
      if (match && (!top || match.score > top.score)) top = { item: this.items[i] as T, ...match }
    }
    return top
  }
}

function add(map: Map<string, number[]>, key: string, i: number): void {
  const list = map.get(key)
  if (list) list.push(i)
  else map.set(key, [i])
}

export interface SuggestionSet<A, T> {
  /** Each account (by vendorAccountId) with its suggestion; those without one are left out. */
  byAccount: Map<string, Suggestion<T>>
  confident: { account: A; suggestion: Suggestion<T> }[]
  possible: { account: A; suggestion: Suggestion<T> }[]
}

/** Suggestions for many accounts; an account's name is matched once however often it repeats. */
export function suggestAll<
  A extends { vendorAccountId: string; name: string },
  T extends { id: string; name: string },
>(accounts: readonly A[], index: CompanyIndex<T>): SuggestionSet<A, T> {
  const byName = new Map<string, Suggestion<T> | null>()
  const set: SuggestionSet<A, T> = { byAccount: new Map(), confident: [], possible: [] }
  for (const account of accounts) {
    let suggestion = byName.get(account.name)
    if (suggestion === undefined) {
      suggestion = index.suggest(account.name)
      byName.set(account.name, suggestion)
    }
    if (!suggestion) continue
    set.byAccount.set(account.vendorAccountId, suggestion)
    set[suggestion.confidence].push({ account, suggestion })
  }
  return set
}
