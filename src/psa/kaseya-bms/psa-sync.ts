// Kaseya BMS's own part of two-way sync (docs/psa/kaseya-bms.md, "Two-way sync";
// docs/decisions/psa/kaseya-bms-pushes-untrusted.md): no push is taken. BMS's webhooks carry a header
// named `Signature` when the webhook has a Secret, but BMS publishes neither the algorithm nor what is
// signed nor its encoding, so no BMS push can be verified, and a push that cannot be verified is never
// taken. The poll hears BMS instead: the engine reads alertbridge's open tickets back and, since the
// kind has no push, first lists the open tickets changed since its last round (../kaseya-v2/changes.ts),
// so that a technician's reopen is heard too. What is left of the webhooks an earlier version
// registered (POST /v2/admin/webhooks) is their removal, DELETE /v2/admin/webhooks/{id}, which the
// register job tries once.
import { fail, ok, type PsaCall, type PsaResult } from '../adapter.js'
import type { V2Client } from '../kaseya-v2/client.js'
import type { RetiredPush } from '../psa-sync-port.js'

/** Why the poll alone hears BMS: the sync status's sentence. */
export const bmsPollOnlyReason =
  'Kaseya BMS signs its webhooks with a Signature header whose scheme it does not publish, so alertbridge takes no BMS push: it reads BMS’s tickets back (the poll).'

/** What the connection test says about two-way sync. */
export const bmsSyncWords =
  'Kaseya BMS does not publish how it signs its webhooks (the Signature header), so alertbridge trusts no BMS push and polls BMS for technicians’ closes, reopens and merges (changes show up on the next poll, not at once).'

/** Removes a webhook an earlier version registered; one already gone (404, "not found") is removed. */
export function bmsRetiredPush(client: V2Client): RetiredPush {
  return {
    async unregister(registrationId: string, call: PsaCall): Promise<PsaResult<null>> {
      if (!/^\d+$/.test(registrationId))
        return fail({
          kind: 'rejected',
          retryable: false,
          message: `Kaseya BMS webhook ids are numbers, not '${registrationId}'`,
        })
      const res = await client.api('DELETE', `/admin/webhooks/${registrationId}`, call)
      if (!res.ok && res.failure.kind !== 'not-found') return res
      return ok(null)
    },
  }
}
