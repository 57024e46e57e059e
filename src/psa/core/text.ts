// Fitting an alert's text into a PSA's fields. Intake refuses no title or summary for its length (below
// the 256 KiB body limit), while every PSA has limits of its own (docs/psa/<kind>.md), so each adapter
// fits the text as it sends it:
// - a title becomes one line, cut at a word boundary and ended with "…"; the whole title then opens
//   the description, so nothing the vendor wrote is lost;
// - a description or a note over the limit is cut at a line or word boundary with a line saying how
//   much was cut, and its closing reference lines (Correlation ID, Message ID) are kept: a retry after a
//   lost answer looks for the Message ID to find what it already wrote.
import type { NewPsaTicket } from '../adapter.js'

/** How far back from the limit a word or line boundary is looked for before cutting mid-word. */
const boundaryWindow = 0.2
/** The closing paragraph kept when a text is cut: our reference lines, never longer than this. */
const trailerMax = 400

/** The title on one line, at most `max` characters: cut at a word boundary, ending in "…". */
export function fitTitle(title: string, max: number): string {
  const line = title.replace(/\s+/g, ' ').trim()
  if (line.length <= max) return line
  return `${headOf(line, max - 1).trimEnd()}…`
}

/**
 * The text at most `max` characters long: as is when it fits, else its head cut at a boundary, a line
 * saying how many characters were cut to fit `psa`'s limit, and its closing reference paragraph.
 */
export function fitText(text: string, max: number, psa: string): string {
  if (text.length <= max) return text
  const at = text.lastIndexOf('\n\n')
  const trailer = at > 0 && text.length - at <= trailerMax ? text.slice(at) : ''
  const body = trailer ? text.slice(0, at) : text
  const notice = (n: number) => `\n\n[${n} characters cut here to fit ${psa}'s limit of ${max}]`
  // The longest notice this cut can need: the count is at most the body's length.
  const room = max - trailer.length - notice(body.length).length
  if (room < Math.min(40, max / 2)) return `${headOf(text, max - 1)}…`
  const head = headOf(body, room).trimEnd()
  return `${head}${notice(body.length - head.length)}${trailer}`
}

/**
 * A ticket's title and description for a PSA's two limits. When the title is cut, the whole title
 * opens the description (unless the description already starts with it).
 */
export function fitTicket(
  t: Pick<NewPsaTicket, 'summary' | 'description'>,
  limits: { title: number; description: number },
  psa: string,
): { title: string; description: string } {
  const title = fitTitle(t.summary, limits.title)
  const whole = t.summary.trim()
  const cutTitle = title !== whole.replace(/\s+/g, ' ')
  const description =
    cutTitle && !t.description.startsWith(whole) ? `${whole}\n\n${t.description}` : t.description
  return { title, description: fitText(description, limits.description, psa) }
}

/** At most `max` characters of `text`, ending at a line or word boundary near the limit where there is one. */
function headOf(text: string, max: number): string {
  if (text.length <= max) return text
  let end = max
  // Never split a surrogate pair (an emoji, say).
  if (isHighSurrogate(text.charCodeAt(end - 1))) end--
  const floor = Math.floor(end * (1 - boundaryWindow))
  const line = text.lastIndexOf('\n', end)
  if (line >= floor) return text.slice(0, line)
  const space = text.slice(0, end + 1).search(/\s\S*$/)
  if (space >= floor) return text.slice(0, space)
  return text.slice(0, end)
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff
