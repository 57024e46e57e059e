// NinjaOne tickets (docs/psa/ninjaone.md#create): POST /v2/ticketing/ticket with the organization,
// the ticket form (the partner's board, else the form NinjaOne marks default), the subject fitted to
// 200 characters, a status id (New, 1000, by default) and a private description. NinjaOne has no
// external-id field, so our reference travels as a tag (a dedupe token) and as the description's
// last line; a retry after a lost answer runs a board with the token as `searchCriteria` and adopts
// the ticket whose tags carry it (adopt.ts).
import { createHash } from 'node:crypto'
import type { Static } from 'typebox'
import { type CreateCall, fail, type NewPsaTicket, ok, type PsaCall, type PsaResult } from '../adapter.js'
import { byIdOrName } from '../core/names.js'
import { fitTicket } from '../core/text.js'
import { findByToken } from './adopt.js'
import { idText, isItem, limits, type NinjaClient, type NinjaItem, psaName } from './client.js'
import { enumList, type NinjaLists, newStatusId, priorities, ticketTypes } from './lists.js'
import { refusal } from './read.js'
import type { NinjaOneSettings } from './settings.js'

type Settings = Static<typeof NinjaOneSettings>

/** The dedupe token of a reference: short, tag-safe, the same for every attempt. */
export const dedupeToken = (ref: string): string =>
  `ab-${createHash('sha256').update(ref).digest('hex').slice(0, 20)}`

export async function createTicket(
  client: NinjaClient,
  lists: NinjaLists,
  s: Settings,
  t: NewPsaTicket,
  call: CreateCall,
): Promise<PsaResult<{ ticketId: string; adopted: boolean }>> {
  if (!/^\d+$/.test(t.companyId))
    return fail(refusal(`NinjaOne organization ids are numbers, not '${t.companyId}'`))
  const token = dedupeToken(call.ref)
  const fitted = fitTicket(
    { summary: t.summary, description: `${t.description.trimEnd()}\n\nalertbridge reference: ${token}` },
    limits,
    psaName,
  )
  if (call.adopt) {
    const found = await findByToken(client, lists, s, { token, clientId: t.companyId }, call)
    if (!found.ok) return found
    if (found.value !== null) return ok({ ticketId: found.value, adopted: true })
  }
  const form = await formFor(lists, t.board, call)
  if (!form.ok) return form
  const status = await statusFor(lists, t.status, call)
  if (!status.ok) return status
  const body: NinjaItem = {
    clientId: Number(t.companyId),
    ticketFormId: Number(form.value),
    subject: fitted.title,
    status: status.value,
    description: { public: false, body: fitted.description },
    tags: [token],
  }
  for (const [field, value, values] of [
    ['priority', t.priority, priorities],
    ['type', t.type, ticketTypes],
  ] as const) {
    if (value === null) continue
    const found = byIdOrName(enumList(values), value)
    if (!found) return fail(refusal(`NinjaOne has no ticket ${field} '${value}' (${values.join(', ')})`))
    body[field] = found.id
  }
  if (s.severity) body.severity = s.severity
  const made = await client.api('POST', '/ticketing/ticket', call, { body })
  if (!made.ok) return made
  const id = isItem(made.value.body) ? idText(made.value.body.id) : null
  if (id === null) return fail(refusal('NinjaOne answered the new ticket without its id'))
  return ok({ ticketId: id, adopted: false })
}

/** The ticket form: the one named, else the form NinjaOne marks default, else its first. */
async function formFor(lists: NinjaLists, board: string | null, call: PsaCall): Promise<PsaResult<string>> {
  const forms = await lists.formList(call)
  if (!forms.ok) return forms
  if (board !== null) {
    const found = byIdOrName(forms.value, board)
    return found ? ok(found.id) : fail(refusal(`NinjaOne has no ticket form '${board}'`))
  }
  const form = forms.value.find((f) => f.isDefault) ?? forms.value[0]
  return form ? ok(form.id) : fail(refusal('NinjaOne lists no ticket form'))
}

async function statusFor(
  lists: NinjaLists,
  status: string | null,
  call: PsaCall,
): Promise<PsaResult<string>> {
  if (status === null) return ok(newStatusId)
  const statuses = await lists.statusList(call)
  if (!statuses.ok) return statuses
  const found = byIdOrName(statuses.value, status)
  return found ? ok(found.id) : fail(refusal(`NinjaOne has no ticket status '${status}'`))
}
