// The rule tester (docs/partner-api.md): POST an alert's data and see what alertbridge would do with
// it — which rule matches, create, append, close, suppress or refuse, and why (in plain words:
// alerts/dry-run/summary.ts, and technically) — decided by the same function as a real alert, over the integration's current rules, toggles, mappings and open tickets.
// Nothing is written and no ticket call reaches the PSA (only its kept look-up lists are read, for the
// names: names-view.ts), so a viewer may use it too.
import Type from 'typebox'
import type { Clock } from '../../../platform/clock.js'
import { rateLimited } from '../../../platform/core/result.js'
import type { Store } from '../../../platform/db/store.js'
import type { App } from '../../../platform/http/app-types.js'
import { ApiError, orRefuse } from '../../../platform/http/errors.js'
import { callers, operation } from '../../../platform/http/openapi/operation-doc.js'
import { failures, IdParams, Nullable } from '../../../platform/http/schemas.js'
import type { KeyedLimit } from '../../../platform/redis/limiters.js'
import type { PsaRegistry } from '../../../psa/index.js'
import type { ProductGroupSource } from '../../../tenants/index.js'
import {
  type AuthHooks,
  actorOf,
  type PartnerIntegrations,
  type PsaLookups,
  PsaNames,
  partnerId,
} from '../../../tenants/index.js'
import { factsOf } from '../../intake/intake.js'
import { AlertData, CorrelationId, extrasProblem } from '../../intake/schema.js'
import { ConditionWorkView, RuleChecksView } from '../../rules/routes/rule-conditions-view.js'
import { type TicketTextDeps, TicketTextView, ticketTextFor } from '../../rules/routes/rule-templates.js'
import { RuleView } from '../../rules/routes/rules.js'
import { DryRunNames, dryRunNames } from '../../tickets/names-view.js'
import { dryRun } from '../dry-run.js'
import { dryRunSummary } from '../summary.js'

const DryRunBody = Type.Object(
  {
    data: AlertData,
    correlationId: Type.Optional(CorrelationId),
    correlationID: Type.Optional({ ...CorrelationId, description: 'Accepted spelling of correlationId' }),
  },
  {
    description:
      "An alert as the vendor sends it to the alert endpoints: its data and, for UPDATE and RESOLVED, its correlationId. Other fields (the vendor's credentials among them) are ignored and never stored.",
  },
)

const TicketSettingsView = Type.Object({
  board: Nullable(Type.String()),
  priority: Nullable(Type.String()),
  type: Nullable(Type.String()),
  status: Nullable(Type.String()),
})

const DryRunView = Type.Object({
  matchedRule: Type.Union([RuleView, Type.Null()], {
    description:
      'OPEN: the rule that matches the alert’s group and type; UPDATE/RESOLVED: the rule of its ticket',
  }),
  action: Type.Enum(['create', 'append', 'reopen', 'close', 'suppress', 'refuse', 'fold'], {
    description: 'fold: storm control folds the alert into the account’s storm ticket',
  }),
  summary: Type.String({
    description:
      "what would happen, in a service manager's words, with what to do about it (e.g. “This alert would fail: the integration is still being set up. Finish the set-up on the Review step.”), naming the account, PSA company and board by name where known. For people, its wording may change: programs read action, row and error",
    example: 'This alert would open a ticket in Acme Corporation on the Service Desk board.',
  }),
  reason: Type.String({
    description: 'why, in one sentence, technically: the row, ids, codes and API paths involved',
  }),
  ticket: Type.Union([TicketSettingsView, Type.Null()], {
    description: 'with create: the new ticket’s settings, the PSA connection’s defaults applied',
  }),
  existingTicket: Type.Union(
    [
      Type.Object({
        correlationId: Type.String(),
        psaTicketId: Nullable(Type.String()),
        status: Type.Enum(['open', 'closed']),
      }),
      Type.Null(),
    ],
    { description: 'the ticket the alert would be appended to or close, or that its correlationId names' },
  ),
  row: Nullable(
    Type.String({
      description: 'the case of the decision table (docs/decision-table.md) that decided, by name',
    }),
  ),
  ruleChecks: Type.Optional(RuleChecksView),
  conditionWork: Type.Optional(ConditionWorkView),
  ticketText: Type.Optional({
    ...TicketTextView,
    description: "with create by a rule with templates: the new ticket's title and description rendered",
  }),
  error: Type.Union([Type.String(), Type.Null()], {
    description: 'with refuse: the machine code the vendor would get, e.g. ACCOUNT_NOT_MAPPED',
  }),
  ...DryRunNames.properties,
})

export interface PartnerDryRunRoutesDeps extends TicketTextDeps {
  auth: Pick<AuthHooks, 'partner'>
  store: Store
  clock: Clock
  psa: Pick<PsaRegistry, 'connect'>
  psaConnections: PsaLookups
  productGroups: ProductGroupSource
  /** Dry runs a minute per portal user or API key (DRY_RUNS_PER_MINUTE). */
  dryRunLimit: KeyedLimit
  partnerIntegrations: Pick<PartnerIntegrations, 'integration'>
}

export function registerPartnerDryRun(app: App, s: PartnerDryRunRoutesDeps): void {
  const psaNames = new PsaNames(s.psaConnections)
  app.post(
    '/api/partner/integrations/:id/dry-run',
    {
      onRequest: s.auth.partner,
      config: { viewerAllowed: true },
      schema: {
        tags: ['partner'],
        security: [{ partnerKey: [] }],
        summary:
          'Rule tester: what an alert would do (create, append, close, suppress or refuse) and why; changes nothing. DRY_RUNS_PER_MINUTE a minute per portal user or API key, then 429 with Retry-After',
        ...operation({
          id: 'dryRunAlert',
          description: `The vendor's alert body without credentials: the same decision table as a real alert, nothing written, no PSA call. ${callers.partner}`,
          body: {
            data: {
              title: 'Malware detected on WS-042',
              alertType: 'Malware Detected',
              accountId: 'acme-001',
              productGroup: 'Endpoint Security',
              incidentStatus: 'OPEN',
            },
          },
        }),
        params: IdParams,
        body: DryRunBody,
        response: { 200: DryRunView, ...failures(400, 401, 404, 429) },
      },
    },
    async (request) => {
      const integration = orRefuse(
        await s.partnerIntegrations.integration(partnerId(request), request.params.id),
      )
      // Per portal user, or per partner for its API key (docs/partner-api.md#rules).
      const wait = await s.dryRunLimit.take(actorOf(request).id)
      if (wait !== null)
        orRefuse(rateLimited('Dry runs of this user (or API key)', s.dryRunLimit.spec.points, wait))
      const { correlationId, correlationID, data } = request.body
      if (correlationId !== undefined && correlationID !== undefined && correlationId !== correlationID)
        throw new ApiError(
          'VALIDATION_FAILED',
          'correlationId and correlationID are both given and differ; send one.',
        )
      const extras = extrasProblem(data)
      if (extras) throw new ApiError('VALIDATION_FAILED', extras)
      const [vendor, partner] = await Promise.all([
        s.store.vendors.findById(integration.vendorId),
        s.store.partners.findById(integration.partnerId),
      ])
      if (!vendor || !partner)
        throw new ApiError('INTEGRATION_NOT_FOUND', 'The integration no longer exists.')
      const connected = s.psa.connect(partner.id, partner.psa)
      const facts = factsOf({
        integrationId: integration.id,
        correlationId: correlationId ?? correlationID ?? null,
        data,
      })
      const { run, facts: about } = await dryRun(
        s.store,
        s.productGroups,
        vendor,
        integration,
        facts,
        connected.ok ? connected.defaults : {},
        s.clock(),
      )
      const names = await dryRunNames(s.store, psaNames, integration, partner, run, facts.accountId)
      const summary = dryRunSummary(about, {
        account: names.accountName,
        psaCompany: names.psaCompanyId === about.psaCompanyId ? names.psaCompanyName : null,
        board: names.boardName,
      })
      const named = { ...run, ...names, summary }
      const templates = run.action === 'create' ? run.matchedRule?.templates : undefined
      if (!templates?.title && !templates?.description) return named
      return { ...named, ticketText: await ticketTextFor(s, integration, facts, templates, partner.psa.kind) }
    },
  )
}
