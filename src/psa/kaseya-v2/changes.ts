// What changed since a time, for a kind on the Kaseya v2 engine that takes no push (Pulseway PSA and
// Kaseya BMS; docs/psa/pulseway-psa.md and docs/psa/kaseya-bms.md, "Two-way sync"). BMS's ticket list
// filters by last status or activity update but by no modified time, and Pulseway's filters are not
// known, so the open tickets are listed (Filter.ExcludeCompleted=1: BMS's OpenAPI has it, a working
// Pulseway client uses it) and those whose modifiedOn, lastStatusUpdate, lastActivityUpdate or
// reOpenedDate is at or after the time are kept: a ticket a technician reopened is among them, which
// the poll of alertbridge's open tickets alone would never read again. At most `maxPages` pages (100
// tickets each) are read a round; a tenant with more open tickets than that has its reopens beyond
// them heard only when an alert of the ticket comes again.
import { ok, type PsaCall, type PsaResult } from '../adapter.js'
import type { V2Client } from './client.js'
import { str } from './wire.js'

const maxPages = 10
const stamps = ['modifiedOn', 'lastStatusUpdate', 'lastActivityUpdate', 'reOpenedDate'] as const

/** A date-time as the engine writes it; one without a zone is UTC. */
function at(v: string | null): number {
  if (v === null || v.trim() === '') return Number.NaN
  const text = v.trim()
  return Date.parse(/(Z|[+-]\d\d:?\d\d)$/i.test(text) ? text : `${text}Z`)
}

export async function changedSince(
  client: V2Client,
  since: string,
  call: PsaCall,
): Promise<PsaResult<{ ticketIds: string[] }>> {
  const from = Date.parse(since)
  const listed = await client.all('/servicedesk/tickets', call, { 'Filter.ExcludeCompleted': 1 }, maxPages)
  if (!listed.ok) return listed
  const ids = listed.value
    .filter((t) => stamps.some((f) => at(str(t, f)) >= from))
    .map((t) => str(t, 'id'))
    .filter((id): id is string => id !== null && /^\d+$/.test(id))
  return ok({ ticketIds: [...new Set(ids)] })
}
