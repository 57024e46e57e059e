// Waiting for a ticket reservation of another request to settle (created, released or closed).
// Requests in this process are woken at once; requests of other processes notice by polling.
import { setTimeout as sleep } from 'node:timers/promises'

export class ReservationWaits {
  private readonly waiters = new Map<string, Set<() => void>>()

  constructor(private readonly pollMs = 50) {}

  /** Wakes every request waiting on this integration. */
  released(integrationId: string): void {
    const set = this.waiters.get(integrationId)
    if (!set) return
    this.waiters.delete(integrationId)
    for (const wake of set) wake()
  }

  /** Waits one poll interval, or less when a request of this process settles something on the integration. */
  async pause(integrationId: string): Promise<void> {
    await this.waitFor(integrationId, async () => false, Date.now() + this.pollMs)
  }

  /**
   * Resolves when `isSettled` answers true, or when `deadline` passes. Checks again whenever a
   * request of this process settles something on the integration, and every pollMs otherwise.
   */
  async waitFor(integrationId: string, isSettled: () => Promise<boolean>, deadline: number): Promise<void> {
    while (Date.now() < deadline) {
      // Listen before looking, so that a release between the two is not missed.
      let wake: () => void = () => {}
      const woken = new Promise<void>((resolve) => {
        wake = resolve
      })
      const set = this.waiters.get(integrationId) ?? new Set()
      set.add(wake)
      this.waiters.set(integrationId, set)
      try {
        if (await isSettled()) return
        const ac = new AbortController()
        await Promise.race([woken, sleep(this.pollMs, undefined, { signal: ac.signal }).catch(() => {})])
        ac.abort()
      } finally {
        set.delete(wake)
      }
    }
  }
}
