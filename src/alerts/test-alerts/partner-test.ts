// A partner's test alert (docs/partner-api.md#test-alerts), built on the vendor's (test-alert.ts): the
// same checks before anything runs and the same real alert through the rules to the PSA, the ticket's
// title starting "[TEST] ", but the partner's: it spends none of the vendor's rate limit, the vendor is
// told nothing (no status_update, no state change: recorder.ts), and the ticket closes by itself after
// closeAfterMinutes, a job of the queue (`test-alert-close`), or at once on request. The close is a
// test RESOLVED, which closes a partner's test ticket whatever self-healing and the rule's suppressed
// statuses say (docs/decision-table.md#partner-test-close).
import Type from 'typebox'
import { v7 as uuidv7 } from 'uuid'
import type { Clock } from '../../platform/clock.js'
import type { Outcome } from '../../platform/core/outcome.js'
import { ok, type Result, rateLimited, refuse } from '../../platform/core/result.js'
import type { Ticket } from '../../platform/core/types.js'
import type { Store } from '../../platform/db/store.js'
import { defineJob, jobKind } from '../../platform/queue/jobs.js'
import type { JobKindEntry, JobProducer, JobResult } from '../../platform/queue/port.js'
import type { KeyedLimit } from '../../platform/redis/limiters.js'
import type { PsaRegistry } from '../../psa/index.js'
import type { Integration } from '../../tenants/index.js'
import { type TestAlertInput, TestAlerts } from './test-alert.js'

export const defaultCloseAfterMinutes = 5

export const testCloseJob = defineJob({
  kind: 'test-alert-close',
  payload: Type.Object({
    integrationId: Type.String({ minLength: 1 }),
    correlationId: Type.String({ minLength: 1 }),
  }),
  retry: { delaysMs: [10_000, 60_000, 300_000, 1_800_000], maxDelayMs: 3_600_000 },
})

export interface PartnerTestInput {
  accountId?: string
  /** Minutes until the ticket closes by itself (fractions allowed); 0 keeps it until closed. */
  closeAfterMinutes?: number
}

/** The test ticket as the partner sees it: where it is in the PSA. */
export interface TestTicketView {
  correlationId: string
  title: string
  status: string
  psaTicketId: string | null
  psaTicketUrl: string | null
}

export interface PartnerTestAnswer {
  messageId: string
  outcome: Outcome
  ticket: TestTicketView | null
  /** When the close job runs; null when nothing is scheduled. */
  closesAt: string | null
}

export class PartnerTestAlerts {
  constructor(
    private readonly d: {
      store: Store
      clock: Clock
      psa: PsaRegistry
      tests: Pick<TestAlerts, 'target' | 'run'>
      queue: Pick<JobProducer, 'enqueue' | 'handOver'>
      /** Test alerts a minute per integration, the partner's and the operator's together
       * (PARTNER_TEST_ALERTS_PER_MINUTE): each is a real PSA call. */
      testAlertLimit: Pick<KeyedLimit, 'take' | 'spec'>
    },
  ) {}

  /** Sends the test alert and schedules its close; or why the integration cannot take it (nothing runs). */
  async send(integration: Integration, input: PartnerTestInput): Promise<Result<PartnerTestAnswer>> {
    const { testAlertLimit } = this.d
    const wait = await testAlertLimit.take(integration.id)
    if (wait !== null) return rateLimited('Test alerts of this integration', testAlertLimit.spec.points, wait)
    const alert: TestAlertInput = input.accountId === undefined ? {} : { accountId: input.accountId }
    const answer = await this.run(integration, alert)
    if (!answer.ok) return answer
    const { outcome } = answer.value
    const minutes = input.closeAfterMinutes ?? defaultCloseAfterMinutes
    const cid = outcome.correlationId
    if (outcome.httpStatus >= 300 || cid === null || minutes <= 0 || answer.value.ticket?.status === 'closed')
      return answer
    const runAt = new Date(this.d.clock().getTime() + Math.round(minutes * 60_000))
    const job = testCloseJob.job({
      id: uuidv7(),
      payload: { integrationId: integration.id, correlationId: cid },
      runAt,
    })
    await this.d.queue.enqueue(this.d.store, [job])
    this.d.queue.handOver()
    return ok({ ...answer.value, closesAt: runAt.toISOString() })
  }

  /** Closes a test ticket now: a test RESOLVED (409 for a ticket no test alert opened). */
  close(integration: Integration, correlationId: string): Promise<Result<PartnerTestAnswer>> {
    return this.run(integration, { incidentStatus: 'RESOLVED', correlationId })
  }

  /** The close job: done unless the PSA failed in a way a later try may mend. */
  async closeDue(p: { integrationId: string; correlationId: string }): Promise<JobResult> {
    const integration = await this.d.store.integrations.findById(p.integrationId)
    if (!integration) return { kind: 'done' }
    const ticket = await this.d.store.tickets.findByCorrelation(integration.id, p.correlationId)
    if (!ticket || ticket.status === 'closed') return { kind: 'done' }
    const closed = await this.close(integration, p.correlationId)
    if (!closed.ok) return { kind: 'done' }
    const { outcome } = closed.value
    if (outcome.row !== 'psa-failed' && outcome.row !== 'internal-error') return { kind: 'done' }
    const reason = `closing test ticket ${p.correlationId}: ${outcome.detail ?? outcome.error ?? 'failed'}`
    if (outcome.retryAfterSeconds !== undefined)
      return { kind: 'wait', reason, notBeforeMs: outcome.retryAfterSeconds * 1000 }
    return { kind: 'retry', reason }
  }

  private async run(integration: Integration, input: TestAlertInput): Promise<Result<PartnerTestAnswer>> {
    const { store, tests } = this.d
    const messageId = uuidv7()
    const vendor = await store.vendors.findById(integration.vendorId)
    if (!vendor)
      return refuse('INTEGRATION_NOT_FOUND', `The vendor of integration '${integration.id}' is gone.`)
    const target = await tests.target(vendor, integration, input)
    if (!target.ok) return target
    const outcome = await tests.run(integration, target.value, input, messageId, 'partner')
    const cid = outcome.correlationId
    const ticket = cid === null ? null : await store.tickets.findByCorrelation(integration.id, cid)
    return ok({
      messageId,
      outcome,
      ticket: ticket ? await this.view(integration.partnerId, ticket) : null,
      closesAt: null,
    })
  }

  private async view(partnerId: string, ticket: Ticket): Promise<TestTicketView> {
    const partner = await this.d.store.partners.findById(partnerId)
    return {
      correlationId: ticket.correlationId,
      title: ticket.title,
      status: ticket.status,
      psaTicketId: ticket.psaTicketId,
      psaTicketUrl: partner ? psaTicketUrl(this.d.psa, partner, ticket) : null,
    }
  }
}

/**
 * The ticket's page in the PSA, only through the connection it was made in (a partner that moved to
 * another PSA kind has no link into the old one); null where the PSA has no ticket URLs.
 */
export function psaTicketUrl(
  psa: Pick<PsaRegistry, 'connect'>,
  partner: { id: string; psa: Parameters<PsaRegistry['connect']>[1] },
  ticket: Pick<Ticket, 'psaKind' | 'psaTicketId'>,
): string | null {
  if (ticket.psaTicketId === null || partner.psa.kind !== ticket.psaKind) return null
  const connected = psa.connect(partner.id, partner.psa)
  return connected.ok ? connected.client.ticketUrl(ticket.psaTicketId) : null
}

/** The close job's kind, for the runtime. */
export const testCloseKind = (tests: Pick<PartnerTestAlerts, 'closeDue'>): JobKindEntry =>
  jobKind(testCloseJob, (job) => tests.closeDue(job.payload))

/** The partner's test alerts on the vendor's (services.ts): the service and its close job's kind. */
export function partnerTestAlerts(
  d: Omit<ConstructorParameters<typeof PartnerTestAlerts>[0], 'tests'> &
    ConstructorParameters<typeof TestAlerts>[0],
): { service: PartnerTestAlerts; kind: JobKindEntry } {
  const service = new PartnerTestAlerts({ ...d, tests: new TestAlerts(d) })
  return { service, kind: testCloseKind(service) }
}
