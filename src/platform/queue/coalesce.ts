// Jobs added by many callers before their write runs, written as one: one write (one savepoint and, on
// PostgreSQL, one multi-row INSERT) for a whole burst of accepted alerts instead of one each. The first
// add of a group hands its write to the batches at once, so the group keeps its place in the accept
// lane; later adds join it until the write starts, which closes the group. Every caller's promise
// settles with the shared write: all commit, or all fail.
import type { NewJob } from './port.js'

/** `write` receives `take`, which answers (once, when the write runs) every job of the group. */
export function coalescedAdd(
  write: (take: () => NewJob[]) => Promise<void>,
): (jobs: readonly NewJob[]) => Promise<void> {
  let open: { jobs: NewJob[]; written: Promise<void> } | null = null
  return (jobs) => {
    if (!open) {
      const group: { jobs: NewJob[]; written: Promise<void> } = { jobs: [], written: Promise.resolve() }
      group.written = write(() => {
        if (open === group) open = null
        return group.jobs
      })
      open = group
    }
    open.jobs.push(...jobs)
    return open.written
  }
}
