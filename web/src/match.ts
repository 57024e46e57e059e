// Suggested matches between a vendor's account and the PSA's companies, by name: the words that
// distinguish a company (not "Inc", "Ltd", "The"…), compared as sets.
const noise = new Set([
  'the',
  'inc',
  'incorporated',
  'ltd',
  'limited',
  'llc',
  'llp',
  'plc',
  'corp',
  'corporation',
  'co',
  'company',
  'gmbh',
  'ag',
  'sa',
  'sarl',
  'bv',
  'nv',
  'pty',
  'group',
  'holdings',
  'and',
  'of',
])

export function words(name: string): string[] {
  return name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0 && !noise.has(w))
}

/** 0 (nothing in common) to 1 (the same distinguishing words). */
export function similarity(a: string, b: string): number {
  const x = new Set(words(a))
  const y = new Set(words(b))
  if (x.size === 0 || y.size === 0) return 0
  let common = 0
  for (const w of x) if (y.has(w)) common++
  // A word that starts the other counts half (e.g. "Acme" and "AcmeCorp").
  let partial = 0
  for (const w of x)
    if (
      !y.has(w) &&
      [...y].some((v) => v.length >= 3 && w.length >= 3 && (v.startsWith(w) || w.startsWith(v)))
    )
      partial++
  return (common + partial / 2) / Math.max(x.size, y.size)
}

/** The word to search the PSA for: the account's longest distinguishing word. */
export function searchWord(name: string): string {
  return [...words(name)].sort((a, b) => b.length - a.length)[0] ?? name.trim()
}

export const suggestThreshold = 0.5

export function best<T extends { name: string }>(
  name: string,
  candidates: T[],
): { item: T; score: number } | null {
  let top: { item: T; score: number } | null = null
  for (const item of candidates) {
    const score = similarity(name, item.name)
    if (score >= suggestThreshold && (!top || score > top.score)) top = { item, score }
  }
  return top
}
