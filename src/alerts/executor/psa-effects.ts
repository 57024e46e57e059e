// What the PSA did, kept so that it is never done twice (docs/decision-table.md, "What the PSA did is
// never forgotten"): the moment a PSA call succeeds, its effect (the ticket made, noted or closed) is
// written down with the ticket's change, and the outcome recorded in the same write; recording settles
// the effect. If recording fails, the effect stays: the job's next attempt, or the vendor sending the
// same call again, records it instead of asking the PSA a second time (alerts/executor/psa-effect.ts).
//
// Every step answers a value: another attempt of the same message that got there first makes this
// one `adopted`, with nothing of its own written.
import { hash } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import type { Clock } from '../../platform/clock.js'
import type { Outcome } from '../../platform/core/outcome.js'
import type { Store } from '../../platform/db/store.js'
import type { WriteBatcher } from '../../platform/db/write-batch.js'
import type { Integration } from '../../tenants/index.js'
import { internalError } from '../domain/outcome.js'
import type { AlertJob, Execution } from './execution.js'
import { type EffectRow, outcomeOfEffect, type PsaEffect, retryOf } from './psa-effect.js'
import type { OutcomeRecorder } from './recorder.js'

export interface PsaEffectsDeps {
  store: Store
  writes: Pick<WriteBatcher, 'run'>
  clock: Clock
  log: FastifyBaseLogger
  recorder: OutcomeRecorder
  /** How long a reservation may be held: an effect unrecorded for twice that is abandoned. */
  holdMs: () => number
}

/** What the PSA call did, for the effect written down. */
export interface Done {
  ticketId: string
  correlationId: string
  psaTicketId: string
  row: EffectRow
}

/** Stored in place of a request that could not be stored with its outcome. */
const unstorableRequest = {
  unstored: 'alertbridge could not store this request with its outcome; the outcome is recorded without it',
}

/** SHA-256 of the request as received: the same call sent again has the same digest. */
export function requestDigest(request: unknown): string {
  return hash('sha256', JSON.stringify(request) ?? '', 'hex')
}

export class PsaEffects {
  constructor(private readonly d: PsaEffectsDeps) {}

  /**
   * An earlier attempt of this message, seen before doing anything (a queued job run again): its
   * outcome recorded (`adopted`), or its effect written down and recorded now; null when neither.
   */
  async earlier(job: AlertJob): Promise<Execution | null> {
    if (await this.d.store.events.exists(job.messageId)) return { kind: 'adopted' }
    const own = await this.d.store.psaEffects.find(job.messageId)
    return own ? this.recordEffect(job, own) : null
  }

  /**
   * Writes down what the PSA did with the ticket's change that goes with it, and records the outcome,
   * in one write: the outcome under a savepoint of its own, so that if it cannot be written the effect
   * and the change still commit and recordAfterFailure takes over once they have. `adopted`, with
   * nothing of its own written, when another attempt of the message got there first (its effect is
   * written down or its outcome recorded). The effect is inserted before the event is looked for, so on
   * PostgreSQL an insert racing the other attempt's settling waits for it and then sees its event.
   */
  async remember(
    job: AlertJob,
    digest: string,
    integration: Integration,
    done: Done,
    change: (tx: Store) => Promise<void>,
    outcome: Outcome,
  ): Promise<Execution> {
    const effect: PsaEffect = {
      ...done,
      messageId: job.messageId,
      integrationId: integration.id,
      strategy: job.strategy,
      requestDigest: digest,
      orphanedAt: null,
      createdAt: this.d.clock().toISOString(),
    }
    const taken = { keep: false, value: { kind: 'adopted' } as Execution | 'unrecorded' }
    const result = await this.d.writes.run((tx) =>
      tx.savepointUnless('effect', async () => {
        if (!(await tx.psaEffects.insert(effect))) return taken
        if (await tx.events.exists(job.messageId)) return taken
        await change(tx)
        try {
          const recorded = await this.d.recorder.recordIn(tx, job, integration, outcome, (t) =>
            t.psaEffects.remove(job.messageId),
          )
          // Recorded by another attempt after all (a race the checks above narrow): that one counts.
          return recorded.kind === 'adopted' ? taken : { keep: true, value: recorded }
        } catch (err) {
          this.d.log.error({ err, messageId: job.messageId }, 'could not record the outcome of a PSA effect')
          return { keep: true, value: 'unrecorded' as const }
        }
      }),
    )
    return result === 'unrecorded' ? this.recordAfterFailure(job, effect) : result
  }

  /**
   * Recording failed after the PSA acted. Tried once more as is, then without the request (it may
   * be what could not be stored); if that fails too the effect stays for the next attempt of the same
   * call, and the answer names the ticket's correlationId so the vendor can send it again.
   */
  async recordAfterFailure(job: AlertJob, effect: PsaEffect): Promise<Execution> {
    const { store, log, clock } = this.d
    const integration = await store.integrations.findById(job.integrationId).catch(() => null)
    for (const request of [job.request, unstorableRequest]) {
      try {
        return await this.recordOwn({ ...job, request }, integration, outcomeOfEffect(effect))
      } catch (err) {
        log.error({ err, messageId: job.messageId }, 'could not record the outcome of a PSA effect')
      }
    }
    await store.psaEffects.markOrphaned(job.messageId, clock().toISOString()).catch(() => {})
    return { kind: 'unrecorded', outcome: internalError(effect.correlationId) }
  }

  /** The effect of an earlier synchronous call this alert is another attempt of, if it was never recorded. */
  orphanFor(job: AlertJob, digest: string, integrationId: string): Promise<PsaEffect | null> {
    const retry = retryOf(job.facts.incidentStatus)
    const cid = job.facts.correlationId
    return this.d.store.psaEffects.findOrphan({
      integrationId,
      requestDigest: digest,
      bySameRequest: retry.bySameRequest,
      byCorrelationId: cid === undefined ? null : { correlationId: cid, rows: retry.byCorrelationId },
      abandonedBefore: new Date(this.d.clock().getTime() - 2 * this.d.holdMs()).toISOString(),
    })
  }

  /**
   * Records an orphaned effect's outcome as this alert's own, taking the effect so nobody else does;
   * null when another alert took it first (the caller decides again).
   */
  async adopt(job: AlertJob, integration: Integration, orphan: PsaEffect): Promise<Execution | null> {
    const recorded = await this.d.recorder.record(job, integration, outcomeOfEffect(orphan), (tx) =>
      tx.psaEffects.remove(orphan.messageId),
    )
    return recorded.kind === 'adopted' ? null : recorded
  }

  /** A later attempt of a message whose effect is written down: its outcome, without the PSA. */
  private async recordEffect(job: AlertJob, effect: PsaEffect): Promise<Execution> {
    const integration = await this.d.store.integrations.findById(job.integrationId)
    try {
      return await this.recordOwn(job, integration, outcomeOfEffect(effect))
    } catch (err) {
      this.d.log.error({ err, messageId: job.messageId }, 'could not record a PSA effect again')
      return this.recordAfterFailure(job, effect)
    }
  }

  /** Records the outcome of this message's own effect, and forgets the effect. */
  private recordOwn(job: AlertJob, integration: Integration | null, outcome: Outcome) {
    return this.d.recorder.record(job, integration, outcome, async (tx) => {
      await tx.psaEffects.remove(job.messageId)
      return true
    })
  }
}
