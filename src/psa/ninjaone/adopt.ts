// Finding what a lost answer made (docs/psa/ninjaone.md#lost-answers). A ticket: NinjaOne lists
// tickets only through a board's run, so the search board (the setting, else "All tickets", else the
// first system board) is run with the dedupe token as `searchCriteria`, page after page (at most
// five), and a row is ours when its tags, or the ticket read back, carry the token. A note: the
// ticket's COMMENT log entries are read (newest first, at most ten pages) for the alert's marker.
import type { Static } from 'typebox'
import { fail, ok, type PsaCall, type PsaResult } from '../adapter.js'
import { byIdOrName } from '../core/names.js'
import { idText, isItem, type NinjaClient, type NinjaItem } from './client.js'
import type { NinjaLists } from './lists.js'
import { readTicket, refusal } from './read.js'
import type { NinjaOneSettings } from './settings.js'

type Settings = Static<typeof NinjaOneSettings>

const boardPages = 5
const rowsPerPage = 100
const logPages = 10
const logPageSize = 100
/** Rows without tags read back one by one, at most. */
const maxReads = 10

export async function findByToken(
  client: NinjaClient,
  lists: NinjaLists,
  s: Settings,
  where: { token: string; clientId: string },
  call: PsaCall,
): Promise<PsaResult<string | null>> {
  const board = await searchBoard(lists, s, call)
  if (!board.ok) return board
  let cursor: unknown
  let reads = 0
  for (let page = 0; page < boardPages; page++) {
    const res = await client.api('POST', `/ticketing/trigger/board/${board.value}/run`, call, {
      body: {
        searchCriteria: where.token,
        pageSize: rowsPerPage,
        sortBy: [{ field: 'createTime', direction: 'DESC' }],
        ...(cursor !== undefined ? { lastCursorId: cursor } : {}),
      },
    })
    if (!res.ok) return res
    const body = isItem(res.value.body) ? res.value.body : {}
    const rows = Array.isArray(body.data) ? body.data.filter(isItem) : []
    for (const row of rows) {
      const id = idText(row.id)
      if (id === null) continue
      if (Array.isArray(row.tags)) {
        if (row.tags.includes(where.token)) return ok(id)
        continue
      }
      if (reads++ >= maxReads) continue
      const t = await readTicket(client, id, call)
      if (!t.ok) return t
      if (Array.isArray(t.value.tags) && t.value.tags.includes(where.token)) return ok(id)
    }
    const meta = isItem(body.metadata) ? body.metadata : {}
    if (rows.length < rowsPerPage || meta.lastCursorId == null || meta.lastCursorId === cursor) break
    cursor = meta.lastCursorId
  }
  return ok(null)
}

export async function searchBoard(lists: NinjaLists, s: Settings, call: PsaCall): Promise<PsaResult<string>> {
  const boards = await lists.boardList(call)
  if (!boards.ok) return boards
  if (s.searchBoard) {
    const named = byIdOrName(boards.value, s.searchBoard)
    return named ? ok(named.id) : fail(refusal(`NinjaOne has no board '${s.searchBoard}'`))
  }
  const board =
    byIdOrName(boards.value, 'All tickets') ?? boards.value.find((b) => b.system) ?? boards.value[0]
  return board ? ok(board.id) : fail(refusal('NinjaOne lists no board to search tickets with'))
}

/** Whether one of the ticket's comments carries `marker`. */
export async function hasCommentWith(
  client: NinjaClient,
  ticketId: string,
  marker: string,
  call: PsaCall,
): Promise<PsaResult<boolean>> {
  let anchor: string | undefined
  for (let page = 0; page < logPages; page++) {
    const res = await client.list(`/ticketing/ticket/${ticketId}/log-entry`, call, {
      type: 'COMMENT',
      pageSize: logPageSize,
      anchorId: anchor,
    })
    if (!res.ok) return res
    if (res.value.some((e: NinjaItem) => typeof e.body === 'string' && e.body.includes(marker)))
      return ok(true)
    const last = idText(res.value.at(-1)?.id)
    if (res.value.length < logPageSize || last === null || last === anchor) break
    anchor = last
  }
  return ok(false)
}
