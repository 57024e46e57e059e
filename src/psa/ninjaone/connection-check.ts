// Checking a NinjaOne connection without changing anything (docs/psa/ninjaone.md#settings): a user's
// token from the refresh token, the ticket forms and statuses tickets need, one organization, and
// the boards (which NinjaOne serves only to a user's token, as it takes ticket writes only from one).
// It says what new tickets will get, or in one sentence what is wrong.
import type { PsaCall, PsaFailure, PsaResult } from '../adapter.js'
import { explain, refused } from '../core/explain.js'
import type { NinjaClient } from './client.js'
import type { NinjaLists } from './lists.js'

export async function checkConnection(
  client: NinjaClient,
  lists: NinjaLists,
  call: PsaCall,
): Promise<PsaResult<{ detail: string }>> {
  const token = await client.tokens.get(call)
  if (!token.ok) return refused(why(token.failure, client.root))
  const forms = await lists.formList(call, true)
  if (!forms.ok) return refused(why(forms.failure, client.root, 'ticket forms'))
  const statuses = await lists.statusList(call, true)
  if (!statuses.ok) return refused(why(statuses.failure, client.root, 'ticket statuses'))
  const orgs = await client.list('/organizations', call, { pageSize: 1 })
  if (!orgs.ok) return refused(why(orgs.failure, client.root, 'organizations'))
  const boards = await lists.boardList(call, true)
  if (!boards.ok)
    return refused(
      boards.failure.kind === 'forbidden'
        ? `NinjaOne refused the boards to this token: connect NinjaOne as a user (the Connect NinjaOne step), not with a machine-to-machine application: ${boards.failure.message}`
        : why(boards.failure, client.root, 'boards'),
    )
  const form = forms.value.find((f) => f.isDefault) ?? forms.value[0]
  if (!form)
    return refused('NinjaOne lists no ticket form; create one (Administration > Ticketing > Ticket forms)')
  const closed = statuses.value.filter((s) => s.closed).map((s) => s.name)
  return {
    ok: true,
    value: {
      detail: `Connected to NinjaOne at ${client.root} as a user: new tickets use the ticket form '${form.name}' unless a board is set, start as New, and close with ${closed.length > 0 ? `'${closed[0]}'` : 'no status (NinjaOne lists none that closes)'}.`,
    },
  }
}

function why(f: PsaFailure, where: string, area?: string): string {
  return explain(f, {
    psa: 'NinjaOne',
    where,
    credentials: 'clientId, clientSecret, and the user grant from Connect NinjaOne',
    account: 'NinjaOne user who connected (its role and the scopes monitoring management offline_access)',
    area,
  })
}
