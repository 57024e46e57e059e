// What ConnectWise's ticket and note calls share (docs/psa/connectwise.md): the text limits, how many of
// a search's newest matches are read, and which values a condition may carry as they are.

export const psaName = 'ConnectWise'

/**
 * Text limits (docs/psa/connectwise.md, "Limits"): summary and externalXRef at most 100 characters, as
 * ConnectWise's model says; initialDescription and a note's text have no published limit, so they are
 * kept to 32,000 characters (our own bound: any alert fits, and a request stays small).
 */
export const limits = { summary: 100, description: 32_000, note: 32_000 }

/** How many of a look-up's newest matches are read: ours is among the first (ordered by id, newest first). */
export const lookBack = 100

/**
 * A value that goes into a quoted condition string as is: no quote or backslash to escape, and no LIKE
 * wildcard but `_` (any one character: a `contains` may then match more, and each match is checked).
 */
export const plainValue = /^[A-Za-z0-9._:@+=~-]+$/

/** A list answer's items (none where the answer is not a list). */
export const listOf = <T>(body: unknown): T[] => (Array.isArray(body) ? (body as T[]) : [])
