// Group commit for the hot paths (docs/decisions/speed/write-batcher.md). Writes that arrive in the same
// turn of the event loop share one transaction and so one fsync: the alert accepted, the job claimed, the
// ticket reserved, the sandbox PSA's rows, the outcome with its event and status_update, the finished job
// removed, the delivery claimed and its attempt recorded. Durability is unchanged (synchronous=FULL): a
// write's promise settles only once its batch has committed.
//
// Each write runs inside a SAVEPOINT of its own, so one that throws (a bad row, a message recorded by
// another attempt) rolls back only its own changes and gets its own error; the others commit. If the
// commit itself fails, every write of the batch gets that error, as each would have alone.
//
// A batch of only a few background writes waits a turn or two of the event loop for more before it
// commits: the jobs in flight take their next steps in those turns, and their writes join the commit.
// The worker's drain took 0.8 commits per alert without it, 0.6 with it, and drained 1.16 times as
// fast (docs/performance.md); an accepted alert never waits for it, and an idle loop's turn is
// microseconds.
//
// The batch is the slice of work done in one macrotask: at most `maxAccept` accepted alerts and
// `maxWork` background writes, accepted alerts first. Between batches the writer yields to the event
// loop, and it hands the results back `resolveSlice` at a time with a yield between, so the callers'
// continuations (their next reads, their PSA calls) are bounded slices too. That is what keeps
// /healthz and new requests answering under any backlog.
import { Counter, type Registry } from 'prom-client'
import type { Store } from './store.js'

/** `accept`: the intake (ahead of everything); `work`: the worker's jobs. */
export type WriteLane = 'accept' | 'work'

export interface WriteBatchOptions {
  /** Accepted alerts per batch (default 512). */
  maxAccept?: number
  /** Background writes per batch (default 64). */
  maxWork?: number
  /** Background writes in a batch that also carries accepted alerts (default: maxWork). */
  maxWorkWhileAccepting?: number
  /**
   * A batch of fewer background writes than `gatherBelow` (default 16) and no accepted alert waits
   * up to `gatherTurns` turns of the event loop (default 2) for more before it commits.
   */
  gatherBelow?: number
  gatherTurns?: number
  /** Callers resumed per macrotask once a batch has committed (default 16). */
  resolveSlice?: number
  /** Told about every committed batch: how many writes, how long from BEGIN to COMMIT. */
  onBatch?: (writes: number, ms: number) => void
}

interface Pending {
  work: (tx: Store) => Promise<unknown>
  resolve: (value: unknown) => void
  reject: (err: unknown) => void
}

type Settled = { ok: true; value: unknown } | { ok: false; err: unknown }

/** Lets the event loop run what is waiting (I/O, timers, requests) before going on. */
export const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

export class WriteBatcher {
  private readonly lanes: Record<WriteLane, Pending[]> = { accept: [], work: [] }
  private scheduled = false
  private flushing = false
  private readonly maxAccept: number
  private readonly maxWork: number
  private readonly maxWorkWhileAccepting: number
  private readonly resolveSlice: number
  private readonly gatherBelow: number
  private readonly gatherTurns: number

  constructor(
    private readonly store: Store,
    private readonly o: WriteBatchOptions = {},
  ) {
    this.maxAccept = o.maxAccept ?? 512
    this.maxWork = o.maxWork ?? 64
    this.maxWorkWhileAccepting = o.maxWorkWhileAccepting ?? this.maxWork
    this.resolveSlice = o.resolveSlice ?? 16
    this.gatherBelow = o.gatherBelow ?? 16
    this.gatherTurns = o.gatherTurns ?? 2
  }

  /**
   * Runs `work` in the next batch's transaction; settles once that transaction has committed. `work`
   * must write through `tx` only and must not wait for another batched write (it would wait for
   * its own batch).
   */
  run<T>(work: (tx: Store) => Promise<T>, lane: WriteLane = 'work'): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.lanes[lane].push({ work, resolve: resolve as (value: unknown) => void, reject })
      this.schedule()
    })
  }

  /** Writes waiting for a batch. */
  get waiting(): number {
    return this.lanes.accept.length + this.lanes.work.length
  }

  private schedule(): void {
    if (this.scheduled || this.flushing) return
    this.scheduled = true
    setImmediate(() => {
      this.scheduled = false
      void this.flush()
    })
  }

  private async flush(): Promise<void> {
    this.flushing = true
    try {
      while (this.waiting > 0) {
        // A few background writes and no accepted alert: wait a turn or two for more, so that the
        // next steps of the jobs in flight share this commit (and its fsync) instead of each taking one.
        for (let turn = 0; turn < this.gatherTurns && this.lanes.accept.length === 0; turn++) {
          if (this.lanes.work.length >= this.gatherBelow) break
          await yieldToLoop()
        }
        const accepted = this.lanes.accept.splice(0, this.maxAccept)
        const workCap = accepted.length > 0 ? this.maxWorkWhileAccepting : this.maxWork
        const batch = [...accepted, ...this.lanes.work.splice(0, workCap)]
        const settled = await this.commit(batch)
        // Accepted alerts only answer their request: all at once. Background callers go on to their
        // next reads and writes: in slices, with a yield between.
        for (let i = 0; i < batch.length; i++) {
          const p = batch[i]!
          const s = settled[i]!
          if (s.ok) p.resolve(s.value)
          else p.reject(s.err)
          const done = i + 1 - accepted.length
          if (done > 0 && done % this.resolveSlice === 0 && i + 1 < batch.length) await yieldToLoop()
        }
        await yieldToLoop()
      }
    } finally {
      this.flushing = false
      if (this.waiting > 0) this.schedule()
    }
  }

  private async commit(batch: readonly Pending[]): Promise<Settled[]> {
    const started = performance.now()
    const settled: Settled[] = []
    try {
      await this.store.transaction(async (tx) => {
        if (batch.length === 1) {
          // Alone: its error rolls the transaction back, as an unbatched write's would.
          settled.push({ ok: true, value: await batch[0]!.work(tx) })
          return
        }
        for (const p of batch) {
          try {
            settled.push({ ok: true, value: await tx.savepoint('batched_write', () => p.work(tx)) })
          } catch (err) {
            settled.push({ ok: false, err })
          }
        }
      })
    } catch (err) {
      return batch.map(() => ({ ok: false, err }))
    }
    this.o.onBatch?.(batch.length, performance.now() - started)
    return settled
  }
}

/**
 * The batches at GET /metrics: the transactions committed and the writes they carried (writes per
 * commit says how well they group; on the embedded database each commit is an fsync).
 */
export function writeBatchMetrics(registry: Registry): NonNullable<WriteBatchOptions['onBatch']> {
  const commits = new Counter({
    name: 'alertbridge_db_commits_total',
    help: 'Transactions the write batches committed (on the embedded database, one fsync each)',
    registers: [registry],
  })
  const writes = new Counter({
    name: 'alertbridge_db_batched_writes_total',
    help: 'Writes those transactions carried (an accepted alert, a job claimed, an outcome recorded, ...)',
    registers: [registry],
  })
  return (n) => {
    commits.inc()
    writes.inc(n)
  }
}
