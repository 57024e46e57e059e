// The webhook strategy's request path (docs/decision-table.md): rows 1–4 answer at once as on the
// synchronous path; otherwise the decision table runs on what is stored, without the PSA, to give the
// immediate answer, and the alert is queued durably before that answer is sent: with the other alerts
// accepted in the same turn, as one write of the next batch (platform/queue/coalesce.ts, platform/db/write-batch.ts), in the
// lane that goes ahead of background work.
import { LRUCache } from 'lru-cache'
import { v7 as uuidv7 } from 'uuid'
import type { Clock } from '../../platform/clock.js'
import { ok, type Result } from '../../platform/core/result.js'
import type { JobProducer } from '../../platform/queue/port.js'
import { type ContextReads, decideAlert, type ProductGroupLookup } from '../executor/context.js'
import { afterQueuedOpen, type ImmediateAnswer, immediateAnswer } from './immediate-answer.js'
import { type AlertIntake, alertFacts, redactedRequest } from './intake.js'
import type { alertJob, QueuedAlert } from './queued.js'
import type { RateDecision } from './rate-limit.js'
import type { AlertRequest } from './schema.js'

export class AlertAcceptor {
  /**
   * The tickets this process's queued OPENs will create (integration and correlationId), for 15 minutes:
   * an UPDATE or RESOLVED of one is previewed as what it will do, not as TICKET_NOT_FOUND. Another
   * process's OPENs are not known here; their status_update is the outcome as always.
   */
  private readonly queuedOpens = new LRUCache<string, true>({ max: 100_000, ttl: 15 * 60 * 1000 })

  constructor(
    private readonly reads: ContextReads,
    private readonly productGroups: ProductGroupLookup,
    private readonly intake: AlertIntake,
    private readonly queue: JobProducer,
    private readonly job: ReturnType<typeof alertJob>,
    private readonly clock: Clock,
    /** Whether the partner's PSA answers in this process (its alerts need no concurrency group). */
    private readonly inProcessPsa: (partnerId: string) => Promise<boolean>,
  ) {}

  async accept(
    body: AlertRequest,
    messageId: string,
  ): Promise<Result<{ answer: ImmediateAnswer; rate: RateDecision }>> {
    const checked = alertFacts(body, messageId)
    if (!checked.ok) return checked
    const facts = checked.value
    const admitted = await this.intake.admit(body, messageId, facts.correlationId ?? null)
    if (!admitted.ok) return admitted
    const { vendor, integration, rate } = admitted.value
    const newCorrelationId = uuidv7()
    let answer = immediateAnswer(
      await decideAlert(
        this.reads,
        this.productGroups,
        vendor,
        integration,
        facts,
        this.clock(),
        newCorrelationId,
      ),
    )
    const ticketKey = (correlationId: string) => `${integration.id}\n${correlationId}`
    if (facts.correlationId && this.queuedOpens.has(ticketKey(facts.correlationId)))
      answer = afterQueuedOpen(
        answer,
        { incidentStatus: facts.incidentStatus, correlationId: facts.correlationId },
        integration.settings.selfHealing,
      )
    const payload: QueuedAlert = {
      messageId,
      vendorId: vendor.id,
      partnerId: integration.partnerId,
      integrationId: integration.id,
      request: redactedRequest(body),
      newCorrelationId,
    }
    // A partner's alerts run PARTNER_CONCURRENCY at once, so that a slow PSA holds few worker slots;
    // a PSA in this process is never slow, and its partner's alerts need no cap.
    const group = (await this.inProcessPsa(integration.partnerId)) ? undefined : integration.partnerId
    const job = this.job.job({ id: messageId, payload, ...(group ? { group } : {}) })
    // Added with the other alerts accepted in this turn: one write for them all (platform/queue/coalesce.ts).
    await this.queue.add([job])
    if (answer.message === 'created' && answer.correlationId)
      this.queuedOpens.set(ticketKey(answer.correlationId), true)
    return ok({ answer, rate })
  }
}
