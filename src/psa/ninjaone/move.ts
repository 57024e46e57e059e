// A catch-all ticket moved to another organization (docs/psa/ninjaone.md#moving-a-ticket-to-another-company):
// the ticket read, then PUT with the new `clientId` (and the board's ticket form, where the mapping
// names one) and its current version, as a close is (notes.ts).
import { fail, ok, type PsaCall, type PsaResult } from '../adapter.js'
import { byIdOrName } from '../core/names.js'
import type { NinjaClient } from './client.js'
import type { NinjaLists } from './lists.js'
import { updateOf } from './notes.js'
import { readTicket, refusal } from './read.js'

export async function moveTicket(
  client: NinjaClient,
  lists: NinjaLists,
  ticketId: string,
  to: { companyId: string; board: string | null },
  call: PsaCall,
): Promise<PsaResult<null>> {
  if (!/^\d+$/.test(to.companyId))
    return fail(refusal(`NinjaOne organization ids are numbers, not '${to.companyId}'`))
  let formId: number | null = null
  if (to.board !== null) {
    const forms = await lists.formList(call)
    if (!forms.ok) return forms
    const form = byIdOrName(forms.value, to.board)
    if (!form) return fail(refusal(`NinjaOne has no ticket form '${to.board}'`))
    formId = Number(form.id)
  }
  for (let put = 1; put <= 3; put++) {
    const t = await readTicket(client, ticketId, call)
    if (!t.ok) return t
    const status = t.value.status
    const statusId =
      status !== null && typeof status === 'object' && 'statusId' in status
        ? String(status.statusId)
        : String(status)
    const body = {
      ...updateOf(t.value, statusId),
      clientId: Number(to.companyId),
      ...(formId !== null ? { ticketFormId: formId } : {}),
    }
    const res = await client.api('PUT', `/ticketing/ticket/${ticketId}`, call, { body })
    if (res.ok) return ok(null)
    if (res.failure.status !== 409) return res
  }
  return fail({ kind: 'unavailable', retryable: true, message: 'NinjaOne kept refusing the ticket version' })
}
