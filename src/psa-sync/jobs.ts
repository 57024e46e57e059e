// Two-way sync's jobs (docs/psa/sync.md), of the one queue: `psa-register` sets a partner's push up
// with its PSA; `psa-read` reads back the tickets pushes named (all a partner's pending ids at once,
// a moment after the first push, so a burst costs one read per ticket); `psa-poll` reads a page of the
// partner's open tickets that were read longest ago and queues its own next round, so every
// partner's poll runs for ever, spread over time, one page at a time.
import Type, { type Static, type TSchema } from 'typebox'
import { v7 as uuidv7 } from 'uuid'
import type { Clock } from '../platform/clock.js'
import type { Store } from '../platform/db/store.js'
import { defineJob, type JobSpec, jobKind } from '../platform/queue/jobs.js'
import type { JobKindEntry, JobProducer, JobResult } from '../platform/queue/port.js'

const Partner = Type.Object({ partnerId: Type.String({ minLength: 1 }) })

export const psaRegisterJob = defineJob({
  kind: 'psa-register',
  payload: Partner,
  retry: { delaysMs: [10_000, 60_000, 300_000, 1_800_000], maxDelayMs: 3_600_000 },
})

export const psaReadJob = defineJob({
  kind: 'psa-read',
  payload: Partner,
  retry: { delaysMs: [2_000, 10_000, 60_000, 300_000], maxDelayMs: 600_000 },
})

export const psaPollJob = defineJob({
  kind: 'psa-poll',
  payload: Type.Object({
    partnerId: Type.String({ minLength: 1 }),
    /** false: a round that goes on with a pass (the next page, or after the budget held it back)
     * whose PSA list of changed tickets was read already (poll.ts); absent: a new pass. */
    list: Type.Optional(Type.Boolean()),
    /** The time the next list of changed tickets starts from (a minute before the last list was
     * read); absent: a minute before the poll last heard the PSA. */
    since: Type.Optional(Type.String({ minLength: 1 })),
  }),
  retry: { delaysMs: [10_000, 60_000, 300_000], maxDelayMs: 1_800_000 },
})

/** Queues the jobs; callers hand them over once their transaction committed. */
export class PsaSyncJobs {
  constructor(
    private readonly queue: Pick<JobProducer, 'enqueue' | 'handOver'>,
    private readonly clock: Clock,
  ) {}

  /** One job of a kind for the partner, coalescing with one of the same kind (and `key`) still queued. */
  private async put<P extends TSchema>(
    tx: Store,
    spec: JobSpec<P>,
    payload: Static<P> & { partnerId: string },
    runAt: Date,
    key: string = spec.kind,
  ): Promise<void> {
    const job = spec.job({ id: uuidv7(), payload, dedupeKey: `${key}:${payload.partnerId}`, runAt })
    await this.queue.enqueue(tx, [job])
  }

  private after(ms: number): Date {
    return new Date(this.clock().getTime() + ms)
  }

  register(tx: Store, partnerId: string): Promise<void> {
    return this.put(tx, psaRegisterJob, { partnerId }, this.clock())
  }

  /**
   * The partner asks: a register job due now that coalesces only with another such request, so that no
   * register job queued for later (an older installation's, an hour after a deactivation) holds it back.
   */
  registerNow(tx: Store, partnerId: string): Promise<void> {
    return this.put(tx, psaRegisterJob, { partnerId }, this.clock(), 'psa-register-asked')
  }

  read(tx: Store, partnerId: string, delayMs: number): Promise<void> {
    return this.put(tx, psaReadJob, { partnerId }, this.after(delayMs))
  }

  /** A poll round at `runAt`; `list: false` goes on with a pass whose changed list was read already. */
  poll(tx: Store, partnerId: string, runAt: Date, o: PollRound = {}): Promise<void> {
    const payload = {
      partnerId,
      ...(o.list === false ? { list: false } : {}),
      ...(o.since ? { since: o.since } : {}),
    }
    return this.put(tx, psaPollJob, payload, runAt)
  }

  handOver(): void {
    this.queue.handOver()
  }
}

export interface PsaSyncHandlers {
  register(partnerId: string): Promise<JobResult>
  readPending(partnerId: string): Promise<JobResult>
  poll(partnerId: string, o?: PollRound): Promise<JobResult>
}

/** What a poll round carries from the one before (psaPollJob's payload beside the partner). */
export interface PollRound {
  list?: boolean
  since?: string
}

export function psaSyncKinds(h: PsaSyncHandlers): JobKindEntry[] {
  return [
    jobKind(psaRegisterJob, (job) => h.register(job.payload.partnerId)),
    jobKind(psaReadJob, (job) => h.readPending(job.payload.partnerId)),
    jobKind(psaPollJob, (job) => h.poll(job.payload.partnerId, job.payload)),
  ]
}
