// Our reference on a Kaseya BMS ticket, so that a retry finds a ticket an earlier attempt made whose
// answer was lost: a last line `(ab-ref:{ref})` of the ticket's Details (the title stays the alert's).
// The look-up asks the ticket list, GET /v2/servicedesk/tickets, for what its OpenAPI documents as
// filters (docs/psa/kaseya-bms.md, "Finding a ticket again"): the title as the create sent it
// (Filter.Title), the account (Filter.AccountIds), opened in the last two days (Filter.OpenDateFrom),
// newest first (Sort), and checks the tag on each candidate. How Filter.Title matches is not published:
// the title itself (up to a `[`, which SQL LIKE reads as a pattern) matches whether BMS looks inside
// the text or at its start. Sort's syntax is not published either, so the answer's order is checked:
// where BMS did not put the newest first (or refused the Sort), the list's last pages are read, where
// a list in the order tickets were made ends. Either way a bounded number of pages is read, however
// many older tickets the account has.
import { ok, type PsaCall, type PsaResult } from '../adapter.js'
import { externalRef } from '../core/names.js'
import type { Query, V2Client } from './client.js'
import { field, str } from './wire.js'

/** The tag's room for the reference; a longer one is a digest of it. */
const refMax = 64
/** How far back a ticket an earlier attempt made is looked for: a vendor's retry of an alert whose
 * answer was lost may come much later than ours, and BMS may keep OpenDate in local time. */
const windowMs = 2 * 24 * 60 * 60 * 1000
/** Pages read from the list's start (its newest, when BMS sorts as asked). */
const headPages = 3
/** Pages read from the list's end, when BMS did not sort. */
const tailPages = 2
/** Newest first, as the look-up asks for it (BMS publishes no Sort syntax: a guess). */
export const newestFirst = 'OpenDate desc'
const path = '/servicedesk/tickets'

/** Our reference as it ends the Details: `(ab-ref:{ref})` — no brackets, which SQL LIKE reads as a pattern. */
export const refTag = (ref: string) => `(ab-ref:${externalRef(ref, refMax)})`

/** What a connection learned about the ticket list. */
export interface TagSearch {
  /** BMS refused the Sort once: the look-up asks without it from then on. */
  sortRefused: boolean
}

/** The part of a title the look-up filters on: up to its first `[`; null when nothing is left. */
export function titleFilter(title: string): string | null {
  const part = title.split('[')[0]!.trim()
  return part === '' ? null : part
}

/**
 * The ticket of `accountId`, titled `title` (as the create sends it), whose Details hold `tag`, opened
 * in the last two days; null: none.
 */
export async function findByTag(
  client: V2Client,
  learned: TagSearch,
  tag: string,
  title: string,
  accountId: string,
  call: PsaCall,
): Promise<PsaResult<string | null>> {
  const match = (list: unknown[]) => {
    const hit = list.find((t) => str(t, 'details')?.includes(tag))
    return hit === undefined ? null : str(hit, 'id')
  }
  const part = titleFilter(title)
  const query: Query = {
    'Filter.AccountIds': accountId,
    'Filter.OpenDateFrom': new Date(Date.now() - windowMs).toISOString(),
    ...(part === null ? {} : { 'Filter.Title': part }),
  }
  let sorted = !learned.sortRefused
  let asked = sorted ? { ...query, Sort: newestFirst } : query
  let head = await client.list(path, call, asked, headPages)
  if (!head.ok && sorted && head.failure.kind === 'rejected') {
    learned.sortRefused = true
    sorted = false
    asked = query
    head = await client.list(path, call, asked, headPages)
  }
  if (!head.ok) return head
  const { rows, total, perPage } = head.value
  const hit = match(rows)
  // Everything read, or the newest read: a ticket not among them is not there.
  if (hit !== null || total === null || rows.length >= total || perPage === 0) return ok(hit)
  if (sorted && newestAhead(rows)) return ok(null)
  // Not the newest first: a list in the order tickets were made ends with them.
  const last = Math.ceil(total / perPage) - 1
  const read = Math.ceil(rows.length / perPage)
  for (let index = last; index > last - tailPages && index >= read; index--) {
    const page = await client.pageAt(path, call, asked, index)
    if (!page.ok) return page
    const found = match(page.value)
    if (found !== null) return ok(found)
  }
  return ok(null)
}

/** Whether the rows come newest first: each one opened no later than the one before it. */
function newestAhead(rows: readonly unknown[]): boolean {
  const opened = rows.map((r) => Date.parse(String(field(r, 'openDate') ?? '')))
  if (opened.some(Number.isNaN)) return false
  return opened.every((at, i) => i === 0 || at <= opened[i - 1]!)
}
