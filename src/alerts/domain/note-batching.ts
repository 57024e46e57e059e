// Near a PSA's request limit, creates and closes go first and notes are batched (docs/psa/README.md,
// "Near the limit"): past `notesBatchAt` of the connection's fullest budget, an UPDATE (or a repeated
// OPEN) is answered `updated` at once and its note waits for the ticket's next batched note, written at
// most once a minute; past `notesWaitAt` even that note waits, so the last of the budget is left to
// creates and closes. Pure: the limiter measures the share, the executor and the note job act on it.
import type { Outcome } from '../../platform/core/outcome.js'
import { updated } from './outcome.js'

/** The share of the fullest budget from which notes are batched. */
export const notesBatchAt = 0.8
/** The share from which batched notes wait too; creates and closes still go. */
export const notesWaitAt = 0.95

/** Whether a note on an ordinary ticket is batched rather than written now. */
export const batchesNote = (share: number): boolean => share >= notesBatchAt

/** Whether a batched note (or a storm ticket's note) waits for the budget to free. */
export const noteWaits = (share: number): boolean => share >= notesWaitAt

/** The answer to an alert whose note was batched. */
export const batchedUpdate = (row: 'repeat' | 'update', correlationId: string): Outcome => ({
  ...updated(row, correlationId),
  detail:
    "The PSA's request budget is nearly spent: the note goes into the ticket's next batched note, written within a few minutes, so that new tickets and closes go first.",
})

/** One batched note: the alerts' notes that arrived since the last one, oldest first. */
export function batchedNote(notes: readonly string[]): string {
  const head =
    notes.length === 1
      ? "1 update arrived while the PSA's request budget was nearly spent:"
      : `${notes.length} updates arrived while the PSA's request budget was nearly spent:`
  return [head, ...notes].join('\n\n---\n\n')
}
