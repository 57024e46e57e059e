// Re-sealing after a rotation: every value of every sealed column (ops/sealed-columns.ts) that is not
// sealed with SECRET_KEY is opened (with SECRET_KEY_PREVIOUS, or the first format's key) and sealed
// again with SECRET_KEY, in small batches with a pause between them, so intake never waits on it.
// Each rewrite is a compare-and-set on the value read, so several processes re-sealing at once, or a
// partner saving new settings meanwhile, lose nothing. A process re-seals only while the database is
// on its own key (the check value is sealed with it): a process still running with the old key as
// SECRET_KEY during a rolling restart does not move values back. /metrics shows how many values each
// key holds; the log says when nothing is left on the previous key.
import type { FastifyBaseLogger } from 'fastify'
import { Counter, Gauge, type Registry } from 'prom-client'
import type { KeyRing } from '../platform/security/crypto-box.js'
import type { SettingsRepository } from '../tenants/index.js'
import { columnName, sealedIn, withSealed } from './sealed-columns.js'
import type { SealedValues, StoredSealed } from './sealed-values.js'
import { keyCheckSetting } from './secret-key.js'

export interface ResealPass {
  /** The database is on another key than this process's SECRET_KEY: nothing was done. */
  idle: boolean
  resealed: number
  unreadable: number
  /** Values still not sealed with SECRET_KEY after the pass (the unreadable ones included). */
  remaining: number
}

export interface ResealerOptions {
  sealed: SealedValues
  settings: SettingsRepository
  ring: KeyRing
  log: FastifyBaseLogger
  registry?: Registry
  batchSize?: number
  pauseMs?: number
  /** A pass runs at start and then this often (values an older process sealed are moved too). */
  everyMs?: number
}

export class Resealer {
  private timer: NodeJS.Timeout | undefined
  private running: Promise<unknown> = Promise.resolve()
  private stopping = false
  private hadWork = false
  private reportedDone = false
  private reportedIdle = false
  /** Unreadable values already named in the log (each is named once, not at every pass). */
  private readonly named = new Set<string>()
  private readonly resealedTotal: { inc(n: number): void } | null

  constructor(private readonly o: ResealerOptions) {
    this.resealedTotal = o.registry
      ? new Counter({
          name: 'alertbridge_resealed_values_total',
          help: 'Sealed values this process re-sealed with SECRET_KEY after a rotation',
          registers: [o.registry],
        })
      : null
  }

  start(): void {
    this.stopping = false
    const run = () => {
      this.running = this.pass()
        .catch((err) => this.o.log.error({ err }, 're-sealing: a pass failed; the next one tries again'))
        .finally(() => {
          if (!this.stopping) this.timer = setTimeout(run, this.o.everyMs ?? 60_000).unref()
        })
    }
    this.timer = setTimeout(run, 0).unref()
  }

  async stop(): Promise<void> {
    this.stopping = true
    clearTimeout(this.timer)
    await this.running
  }

  async pass(): Promise<ResealPass> {
    const { sealed, settings, ring, log } = this.o
    const check = await settings.get(keyCheckSetting)
    if (check === null || ring.sealedBy(check) !== 'current') {
      if (!this.reportedIdle)
        log.info(
          { keyId: ring.currentKeyId },
          're-sealing: the database is on another key than SECRET_KEY; this process does not re-seal',
        )
      this.reportedIdle = true
      return { idle: true, resealed: 0, unreadable: 0, remaining: 0 }
    }
    let resealed = 0
    let unreadable = 0
    let newlyUnreadable = 0
    columns: for (const column of sealed.columns) {
      let after: string | null = null
      for (;;) {
        if (this.stopping) break columns
        const batch = await sealed.notSealedWith(column, ring.currentKeyId, after, this.o.batchSize ?? 100)
        if (batch.length === 0) break
        after = batch.at(-1)!.id
        const rewrites: [StoredSealed, string][] = []
        for (const value of batch) {
          const next = this.resealed(value)
          if (next === null) {
            unreadable++
            const key = `${columnName(column)}:${value.id}`
            if (this.named.has(key)) continue
            this.named.add(key)
            newlyUnreadable++
            log.warn(
              { column: columnName(column), id: value.id },
              're-sealing: a sealed value opens with neither SECRET_KEY nor SECRET_KEY_PREVIOUS; left as it is',
            )
          } else rewrites.push([value, next])
        }
        const done = await sealed.transaction(async (tx) => {
          let n = 0
          for (const [value, next] of rewrites) if (await tx.replace(value, next)) n++
          return n
        })
        resealed += done
        this.resealedTotal?.inc(done)
        await new Promise((resolve) => setTimeout(resolve, this.o.pauseMs ?? 20))
      }
    }
    const counts = await sealed.counts(ring.currentKeyId, ring.previousKeyId)
    const remaining = counts.previous + counts.unversioned + counts.other
    if (resealed > 0 || remaining > 0) this.hadWork = true
    if (remaining === 0 && (this.hadWork || ring.previousKeyId !== null) && !this.reportedDone) {
      log.info(
        { resealed, keyId: ring.currentKeyId },
        ring.previousKeyId
          ? 're-sealing done: every sealed value is sealed with SECRET_KEY; SECRET_KEY_PREVIOUS can be removed'
          : 're-sealing done: every sealed value is sealed with SECRET_KEY',
      )
      this.reportedDone = true
    }
    if (remaining > 0) this.reportedDone = false
    if (newlyUnreadable > 0)
      log.error(
        { unreadable },
        're-sealing: some sealed values open with neither SECRET_KEY nor SECRET_KEY_PREVIOUS and were left as they are',
      )
    return { idle: false, resealed, unreadable, remaining }
  }

  /** The stored value sealed again with the current key; null when no key of the ring opens it. */
  private resealed(value: StoredSealed): string | null {
    const { ring } = this.o
    try {
      const inner = sealedIn(value.column, value.stored)
      if (inner === null || !ring.opens(inner)) return null
      return withSealed(value.column, value.stored, ring.seal(ring.open(inner)))
    } catch {
      return null // a JSON column that does not parse
    }
  }
}

/** `alertbridge_sealed_values{key}`: how many sealed values each key holds, read at each scrape. */
export function registerSealedMetrics(registry: Registry, sealed: SealedValues, ring: KeyRing): void {
  new Gauge({
    name: 'alertbridge_sealed_values',
    help: 'Sealed values (PSA credentials, webhook secrets, catalogue credentials) by the key that sealed them: current (SECRET_KEY), previous (SECRET_KEY_PREVIOUS), unversioned (the first format, re-sealed too), other (neither key)',
    labelNames: ['key'],
    registers: [registry],
    async collect() {
      const counts = await sealed.counts(ring.currentKeyId, ring.previousKeyId)
      for (const [key, n] of Object.entries(counts)) this.set({ key }, n)
    },
  })
}
