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

/**
 * The shape of the background loops (the job runner, the queue relay): started
 * once, a body that turns while `running` and sleeps between turns, woken early by notifications, and
 * stopped by waiting for the turn in progress to end.
 */
export class BackgroundLoop {
  private on = false
  private done: Promise<void> = Promise.resolve()
  private readonly wakeup = new Wakeup()

  constructor(private readonly body: () => Promise<void>) {}

  get running(): boolean {
    return this.on
  }

  /** Starts the body; false when it was running already. */
  start(): boolean {
    if (this.on) return false
    this.on = true
    this.done = this.body()
    return true
  }

  /** Something may have become due: the body's sleep ends now (or its next one does not begin). */
  wake(): void {
    this.wakeup.wake()
  }

  /** Between turns: `ms`, or until woken or stopped; at once when stopped already. */
  sleep(ms: number): Promise<void> {
    return this.on ? this.wakeup.wait(ms) : Promise.resolve()
  }

  /** Ends the loop and waits for its turn in progress; false when it was not running. */
  async stop(): Promise<boolean> {
    if (!this.on) return false
    this.on = false
    this.wakeup.wake()
    await this.done
    return true
  }
}

/** Waits for the work in flight to settle, or for `graceMs`, whichever comes first. */
export async function waitAtMost(work: Iterable<Promise<unknown>>, graceMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  await Promise.race([
    Promise.allSettled([...work]),
    new Promise((resolve) => {
      timer = setTimeout(resolve, graceMs)
    }),
  ])
  clearTimeout(timer)
}
