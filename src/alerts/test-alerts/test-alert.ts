// A vendor's test alert (docs/vendor-api.md#test-tenancies-and-test-alerts): a real alert through the whole path
// (the decision table and its rules, the PSA, the audit log, the status_update webhook), marked as a test
// everywhere: the PSA ticket's title starts with "[TEST] ", the event is `test`, the webhook's payload
// says `test: true`, and a test OPEN folds only into a test ticket (tenants/integrations/dedup.ts). It runs as the
// synchronous strategy (synchronous.ts) and answers its outcome; the status_update is sent besides.
// An integration that cannot take the alert is refused before anything runs, saying why. The partner's
// test alert (partner-test.ts, docs/partner-api.md#test-alerts) runs the same `target` and `run`.

import type { ErrorCode } from '../../platform/core/errors.js'
import type { Outcome } from '../../platform/core/outcome.js'
import { ok, type Result, refuse } from '../../platform/core/result.js'
import type { AlertFacts, IncidentStatus, ProductGroups, Ticket } from '../../platform/core/types.js'
import type { Store } from '../../platform/db/store.js'
import type { Integration, Vendor } from '../../tenants/index.js'
import { inactiveDetail, isActive } from '../../tenants/index.js'
import type { DeliveryJobs } from '../../webhooks/index.js'
import type { ProductGroupLookup } from '../executor/context.js'
import type { AlertIntake } from '../intake/intake.js'
import type { RateDecision } from '../intake/rate-limit.js'
import type { RedactedRequest } from '../intake/schema.js'
import type { SynchronousAlerts } from '../intake/synchronous.js'
import type { Rule } from '../rules/rules.js'
import { matchRule } from '../rules/rules.js'

export const testPrefix = '[TEST] '

const defaultSummary = {
  vendor: 'A test alert sent with POST /api/vendor-api/test-alert; nothing needs to be done.',
  partner:
    'A test alert the partner sent from alertbridge to check its rules and PSA; nothing needs to be done.',
}

export interface TestAlertInput {
  accountId?: string
  incidentStatus?: IncidentStatus
  title?: string
  summary?: string
  correlationId?: string
}

/** What a test alert is about: an account, and a product group and alert type a rule makes tickets for. */
export interface Target {
  accountId: string
  productGroup: string
  alertType: string
}

/** The first product group and alert type of the catalogue for which a rule makes tickets on OPEN. */
export function ticketingPair(
  catalogue: ProductGroups | null,
  rules: readonly Rule[],
): { productGroup: string; alertType: string } | null {
  for (const [productGroup, types] of catalogue ?? []) {
    for (const alertType of types) {
      const match = matchRule(rules, productGroup, alertType)
      if (match.kind !== 'matched') continue
      if (match.rule.action === 'ticket' && !match.rule.suppressStatuses.includes('OPEN'))
        return { productGroup, alertType }
    }
  }
  return null
}

export class TestAlerts {
  constructor(
    private readonly d: {
      store: Store
      productGroups: ProductGroupLookup
      intake: Pick<AlertIntake, 'spend'>
      synchronousAlerts: Pick<SynchronousAlerts, 'run'>
      deliveryJobs: Pick<DeliveryJobs, 'handOver'>
    },
  ) {}

  /** Runs the test alert: its recorded outcome and the vendor's rate decision, or why it cannot run. */
  async send(
    vendor: Vendor,
    integration: Integration,
    input: TestAlertInput,
    messageId: string,
  ): Promise<Result<{ outcome: Outcome; rate: RateDecision }>> {
    const correlationId = input.correlationId ?? null
    const ids = { messageId, correlationId }
    const target = await this.target(vendor, integration, input)
    if (!target.ok) return refuse(target.refusal.code, target.refusal.detail, ids)
    const spent = await this.d.intake.spend(vendor, ids)
    if (!spent.ok) return spent
    const outcome = await this.run(integration, target.value, input, messageId, 'vendor')
    // The status_update the outcome put in the outbox is sent now that it has committed.
    this.d.deliveryJobs.handOver()
    return ok({ outcome, rate: spent.value })
  }

  /** What a test alert is about, or why this integration cannot take it (nothing runs). */
  target(vendor: Vendor, integration: Integration, input: TestAlertInput): Promise<Result<Target>> {
    const incidentStatus = input.incidentStatus ?? 'OPEN'
    return incidentStatus === 'OPEN'
      ? this.openTarget(vendor, integration, input)
      : this.followUpTarget(integration, incidentStatus, input.correlationId ?? null)
  }

  /**
   * Runs a test alert on the target `target` answered: the vendor's (its status_update in the outbox),
   * or the partner's (docs/partner-api.md#test-alerts: the vendor is told nothing). Its recorded outcome.
   */
  run(
    integration: Integration,
    target: Target,
    input: TestAlertInput,
    messageId: string,
    by: 'vendor' | 'partner',
  ): Promise<Outcome> {
    const incidentStatus = input.incidentStatus ?? 'OPEN'
    const correlationId = input.correlationId ?? null
    const title = input.title ?? 'Test alert from alertbridge'
    const data = {
      ...target,
      incidentStatus,
      title: title.startsWith(testPrefix) ? title : `${testPrefix}${title}`,
      summary: input.summary ?? defaultSummary[by],
    }
    const request: RedactedRequest = { integrationId: integration.id, correlationId, data }
    const facts: AlertFacts = {
      ...data,
      correlationId: input.correlationId,
      test: true,
      ...(by === 'partner' ? { partnerTest: true } : {}),
    }
    return this.d.synchronousAlerts.run({
      messageId,
      vendorId: integration.vendorId,
      partnerId: integration.partnerId,
      integrationId: integration.id,
      facts,
      request,
    })
  }

  /** The account, group and type of a test OPEN, or why this integration cannot take one. */
  private async openTarget(
    vendor: Vendor,
    integration: Integration,
    input: TestAlertInput,
  ): Promise<Result<Target>> {
    const { store } = this.d
    const { settings } = integration
    const reasons: { code: ErrorCode; why: string }[] = []
    if (!isActive(settings.state))
      reasons.push({ code: 'INTEGRATION_NOT_ACTIVE', why: inactiveDetail(settings.state) })
    if (!settings.alertsEnabled)
      reasons.push({
        code: 'ALERTING_DISABLED',
        why: 'Alerting is turned off for this integration; the partner turns it on (alertsEnabled).',
      })
    if (!settings.ticketCreation)
      reasons.push({
        code: 'INVALID_STATE',
        why: 'Ticket creation is turned off for this integration; the partner turns it on (ticketCreation).',
      })
    const mappings = await store.mappings.list(integration.id)
    const accountId = input.accountId ?? mappings[0]?.accountId
    if (accountId === undefined) {
      reasons.push({
        code: 'INVALID_STATE',
        why: 'No account is mapped to a PSA company: the vendor creates one (POST /api/vendor-api/organization/accounts) and the partner maps it.',
      })
    } else if (!mappings.some((m) => m.accountId === accountId)) {
      const known = await store.vendorData.accountExists(integration.id, accountId)
      reasons.push({
        code: 'INVALID_STATE',
        why: known
          ? `accountId '${accountId}' is not mapped to a PSA company; the partner maps it.`
          : `accountId '${accountId}' is unknown: create it first (POST /api/vendor-api/organization/accounts).`,
      })
    }
    const [{ catalogue }, rules] = await Promise.all([
      this.d.productGroups.effective(vendor, integration),
      store.rules.list(integration.id),
    ])
    const pair = ticketingPair(catalogue, rules)
    if (!pair)
      reasons.push({
        code: 'INVALID_STATE',
        why: 'No rule makes tickets for a product group of the catalogue on OPEN; the partner adds one (or turns one on).',
      })
    const first = reasons[0]
    if (first || !pair || accountId === undefined) {
      const why = reasons.map((r) => r.why).join(' ')
      return refuse(
        first?.code ?? 'INVALID_STATE',
        `Integration '${integration.id}' cannot take a test alert yet. ${why}`,
      )
    }
    const target = { accountId, ...pair }
    if (input.correlationId === undefined) return ok(target)
    // An OPEN naming a ticket repeats into it: the ticket's own account, group and type.
    const ticket = await store.tickets.findByCorrelation(integration.id, input.correlationId)
    return ticket ? testTicket(ticket) : ok(target)
  }

  /** A test UPDATE or RESOLVED names the ticket a test OPEN made: its account, group and type. */
  private async followUpTarget(
    integration: Integration,
    incidentStatus: IncidentStatus,
    correlationId: string | null,
  ): Promise<Result<Target>> {
    if (correlationId === null)
      return refuse(
        'VALIDATION_FAILED',
        `incidentStatus ${incidentStatus} needs correlationId: the one a test OPEN answered.`,
      )
    const ticket = await this.d.store.tickets.findByCorrelation(integration.id, correlationId)
    if (!ticket) return refuse('TICKET_NOT_FOUND', `No ticket has correlationId '${correlationId}'.`)
    return testTicket(ticket)
  }
}

/** The ticket a test alert names must be a test ticket: a test never touches a real ticket. */
function testTicket(ticket: Ticket): Result<Target> {
  if (!ticket.title.startsWith(testPrefix))
    return refuse(
      'CONFLICT',
      `The ticket of correlationId '${ticket.correlationId}' is not a test alert's; a test alert acts only on tickets test alerts opened.`,
    )
  return ok({ accountId: ticket.accountId, productGroup: ticket.productGroup, alertType: ticket.alertType })
}
