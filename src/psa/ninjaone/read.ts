// One ticket read back (GET /v2/ticketing/ticket/{id}), and the refusal every operation answers for
// what NinjaOne would refuse anyway (docs/psa/ninjaone.md#create).
import { fail, ok, type PsaCall, type PsaResult } from '../adapter.js'
import { isItem, type NinjaClient, type NinjaItem } from './client.js'

export const refusal = (message: string) => ({ kind: 'rejected' as const, retryable: false, message })

/** One ticket as NinjaOne holds it. */
export async function readTicket(
  client: NinjaClient,
  ticketId: string,
  call: PsaCall,
): Promise<PsaResult<NinjaItem>> {
  if (!/^\d+$/.test(ticketId)) return fail(refusal(`NinjaOne ticket ids are numbers, not '${ticketId}'`))
  const res = await client.api('GET', `/ticketing/ticket/${ticketId}`, call)
  if (!res.ok) return res
  return isItem(res.value.body)
    ? ok(res.value.body)
    : fail(refusal(`NinjaOne answered ticket ${ticketId} without its fields`))
}
