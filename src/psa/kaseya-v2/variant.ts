// What a kind on the Kaseya v2 engine states of itself (docs/decisions/psa/kaseya-v2-shared.md): its
// names and host (flavour.ts), how it pushes changes (Kaseya BMS: its webhooks; Pulseway PSA: none
// found, so the poll alone hears technicians), the sentence its connection test ends with about two-way
// sync, and the create body's differences.
import type { PsaPush } from '../psa-sync-port.js'
import type { V2Client } from './client.js'
import type { V2Flavour } from './flavour.js'

export interface V2Kind {
  flavour: V2Flavour
  /** The kind's push on this connection; null: the PSA cannot push, the poll alone hears it. */
  push(client: V2Client): PsaPush | null
  /** The connection test's last sentence about two-way sync (null: none). */
  syncWords: string | null
}
