// The one way a test waits for something to happen: poll a condition until it holds, and fail naming
// what was awaited when it does not in time. A bare sleep before an assertion guesses how long the
// service takes (flaky on a loaded machine, slow on an idle one); a sleep stays only where the time
// passing is itself what is tested (a lease expiring, a window closing), commented as such.

/** A value a condition answers when it holds: anything but null, undefined, false, 0 or ''. */
export type Held<T> = Exclude<T, null | undefined | false | 0 | ''>

export interface WaitOptions {
  /** What is awaited, for the failure's message ("the delivery to be dead"); a function is asked at the end. */
  what: string | (() => string)
  /** How long to poll before failing (15 s unless told). */
  timeoutMs?: number
  /** The pause between two polls (20 ms unless told). */
  intervalMs?: number
}

/**
 * Polls `condition` until it answers a value that holds (truthy), and returns that value; throws
 * `timed out after …ms waiting for <what>` when it has not held within `timeoutMs`. An error the
 * condition throws ends the wait with that error.
 */
export async function waitFor<T>(
  condition: () => T | Promise<T>,
  { what, timeoutMs = 15_000, intervalMs = 20 }: WaitOptions,
): Promise<Held<T>> {
  const end = Date.now() + timeoutMs
  for (;;) {
    const value = await condition()
    if (value) return value as Held<T>
    if (Date.now() > end)
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${typeof what === 'string' ? what : what()}`,
      )
    await new Promise((r) => setTimeout(r, intervalMs))
  }
}

/**
 * Lets `ms` pass, for a test where the time passing is itself what is tested or staged: a lease or
 * token expiring, a window closing, nothing being sent during a period, an upstream answering slowly.
 * `why` names that reason at the call; a wait for something to happen is `waitFor`, never this.
 */
export function hold(ms: number, why: string): Promise<void> {
  void why
  return new Promise((resolve) => setTimeout(resolve, ms))
}
