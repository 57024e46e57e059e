// Reading many tickets one call each (a PSA with no batch read), a few at a time: the connection's
// limiter still bounds what is in flight and spent; the first failure stops the rest and is the answer.
import { fail, ok, type PsaFailure, type PsaResult } from '../adapter.js'

/** `read` of every item, at most `atOnce` at a time, in the items' order; the first failure ends it. */
export async function eachAtMost<I, T>(
  items: readonly I[],
  atOnce: number,
  read: (item: I) => Promise<PsaResult<T>>,
): Promise<PsaResult<T[]>> {
  const out: T[] = new Array(items.length)
  const run = { next: 0, failure: null as PsaFailure | null }
  const worker = async () => {
    while (run.failure === null && run.next < items.length) {
      const i = run.next++
      const got = await read(items[i] as I)
      if (!got.ok) {
        run.failure ??= got.failure
        return
      }
      out[i] = got.value
    }
  }
  await Promise.all(Array.from({ length: Math.min(Math.max(1, atOnce), items.length) }, worker))
  return run.failure ? fail(run.failure) : ok(out)
}
