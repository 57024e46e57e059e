// Ticket notes: writing one (POST Tickets/{id}/Notes, with the note type and publish option the
// connection names or the tenant marks as default) and, on a retry after a lost answer, finding the one
// an earlier attempt wrote. Autotask's query takes a filter on any queryable field, with `contains` for
// text (docs/psa/autotask.md, "Finding what a lost answer made"): the look-up asks for the ticket's
// notes whose description contains the marker, and checks the marker on each note it gets back. Where
// the tenant's field information says the description may not be queried, it asks for the ticket's
// notes alone (every page) and looks for the marker itself.
import type { Static } from 'typebox'
import { fail, ok, type PsaCall, type PsaResult } from '../adapter.js'
import { byIdOrName } from '../core/names.js'
import { fitText, fitTitle } from '../core/text.js'
import type { AutotaskClient, Filter } from './client.js'
import { defaultOf, entries, lengthOf, queryable } from './plan.js'
import type { AutotaskSettings } from './settings.js'

type Settings = Static<typeof AutotaskSettings>

/** Note lengths where the tenant's field information does not say (Autotask's entity pages). */
export const noteLimits = { title: 250, description: 3200 }

/** Whether the ticket has a note whose description carries `marker`. */
export async function hasNoteWith(
  client: AutotaskClient,
  ticketId: string,
  marker: string,
  call: PsaCall,
): Promise<PsaResult<boolean>> {
  const fields = await client.picklists('TicketNotes', call)
  if (!fields.ok) return fields
  const filter: Filter[] = [{ op: 'eq', field: 'ticketID', value: Number(ticketId) }]
  if (queryable(fields.value, 'description'))
    filter.push({ op: 'contains', field: 'description', value: marker })
  const found = await client.query<{ id: number; description?: unknown }>(
    'TicketNotes',
    filter,
    ['id', 'description'],
    call,
  )
  if (!found.ok) return found
  return ok(found.value.some((n) => typeof n.description === 'string' && n.description.includes(marker)))
}

/** The note type and publish option of the ticket's notes: the settings' (id or label), else the defaults. */
function noteValues(
  fields: Parameters<typeof entries>[0],
  s: Settings,
): PsaResult<{ noteType: number; publish: number; labels: { noteType: string; publish: string } }> {
  const out = { noteType: 0, publish: 0, labels: { noteType: '', publish: '' } }
  for (const [field, setting, what, api] of [
    ['noteType', s.noteType, 'note type', 'noteType'],
    ['publish', s.notePublish, 'publish option', 'notePublish'],
  ] as const) {
    const list = entries(fields, field)
    // Publish 1 is All Autotask Users; where the tenant marks no default, the first active value.
    const fallback =
      defaultOf(fields, field) ??
      (field === 'publish' ? list.find((e) => e.id === '1') : undefined) ??
      list[0]
    const found = setting === undefined ? fallback : byIdOrName(list, setting)
    if (!found) {
      return fail({
        kind: 'rejected',
        retryable: false,
        message:
          setting === undefined
            ? `Autotask offers no ${what} for ticket notes`
            : `Autotask has no ${what} '${setting}' for ticket notes (${api}; its values: ${list.map((e) => `'${e.name}'`).join(', ')})`,
      })
    }
    out[field] = Number(found.id)
    out.labels[field] = found.name
  }
  return ok(out)
}

/** What notes are written as, in words, for the connection test; or the refusal. */
export async function describeNotes(
  client: AutotaskClient,
  s: Settings,
  call: PsaCall,
): Promise<PsaResult<string>> {
  const fields = await client.picklists('TicketNotes', call, true)
  if (!fields.ok) return fields
  const values = noteValues(fields.value, s)
  if (!values.ok) return values
  return ok(
    `notes are written as '${values.value.labels.noteType}', visible to '${values.value.labels.publish}'`,
  )
}

/** Writes `text` as a note on the ticket: the title its first line, both fitted to the tenant's lengths. */
export async function writeNote(
  client: AutotaskClient,
  s: Settings,
  ticketId: string,
  text: string,
  call: PsaCall,
): Promise<PsaResult<null>> {
  const fields = await client.picklists('TicketNotes', call)
  if (!fields.ok) return fields
  const values = noteValues(fields.value, s)
  if (!values.ok) return values
  const f = fields.value
  const res = await client.api('POST', `Tickets/${ticketId}/Notes`, call, {
    ticketID: Number(ticketId),
    title: fitTitle(text.split('\n')[0] || 'Alert', lengthOf(f, 'title', noteLimits.title)) || 'Alert',
    description: fitText(text, lengthOf(f, 'description', noteLimits.description), 'Autotask'),
    noteType: values.value.noteType,
    publish: values.value.publish,
  })
  return res.ok ? ok(null) : res
}
