// Storm control's parts for the executor (alerts/executor/executor.ts): the folds it carries out for row
// `storm` (docs/decision-table.md#storm), and the batched-note job kind the runtime runs.

import type { JobKindEntry, JobProducer } from '../../../platform/queue/port.js'
import type { ExecutorDeps } from '../../executor/follow-ups.js'
import { StormFolds } from './folds.js'
import { StormNotes } from './notes.js'

/** At most one note per storm ticket a minute. */
export const stormNoteIntervalMs = 60_000

export function stormControl(d: ExecutorDeps & { queue: Pick<JobProducer, 'enqueue' | 'handOver'> }): {
  folds: StormFolds
  /** An ordinary ticket's batched notes near its PSA's limit (docs/psa/README.md, "Near the limit"). */
  batched: StormNotes
  kinds: JobKindEntry[]
} {
  const notes = new StormNotes({ ...d, intervalMs: stormNoteIntervalMs })
  return { folds: new StormFolds(d, notes), batched: notes, kinds: [notes.kind()] }
}
