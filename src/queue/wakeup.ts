// Sleeps until something may have become due: a notification, a timer, or a stop. A wake that
// arrives while the loop is busy is remembered, so no notification is lost between checks.
export class Wakeup {
  private woken = false
  private release: (() => void) | null = null

  wake(): void {
    this.woken = true
    this.release?.()
  }

  /** Resolves after `ms`, or at once if woken since the last wait. */
  wait(ms: number): Promise<void> {
    if (this.woken) {
      this.woken = false
      return Promise.resolve()
    }
    return new Promise((resolve) => {
      const timer = setTimeout(done, Math.max(0, ms))
      const self = this
      function done() {
        clearTimeout(timer)
        self.release = null
        self.woken = false
        resolve()
      }
      this.release = done
    })
  }
}

/** Waits for the work in flight to settle, or for `graceMs`, whichever comes first. */
export async function settleWithin(work: Iterable<Promise<unknown>>, graceMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  await Promise.race([
    Promise.allSettled([...work]),
    new Promise((resolve) => {
      timer = setTimeout(resolve, graceMs)
    }),
  ])
  clearTimeout(timer)
}
