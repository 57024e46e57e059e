// What a kind on the Kaseya v2 engine states of itself (docs/decisions/psa/kaseya-v2-shared.md): its
// names and host (flavour.ts), why the poll alone hears technicians (no kind pushes: Pulseway PSA
// publishes no webhook, and Kaseya BMS's are signed by a scheme it does not publish), a push an earlier
// version registered that is to be removed, and the sentence its connection test ends with.
import type { RetiredPush } from '../psa-sync-port.js'
import type { V2Client } from './client.js'
import type { V2Flavour } from './flavour.js'

export interface V2Kind {
  flavour: V2Flavour
  /** Why the poll alone hears the PSA, for the sync status (PsaSyncOperations.pollOnlyReason). */
  pollOnlyReason?: string
  /** A push an earlier version registered, which is only removed (PsaSyncOperations.retiredPush). */
  retiredPush?(client: V2Client): RetiredPush
  /** The connection test's last sentence about two-way sync (null: none). */
  syncWords: string | null
}
