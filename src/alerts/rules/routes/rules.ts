// Partner API: rules of an integration (docs/partner-api.md, "Rules"), matched by precedence (lower
// first).
import Type from 'typebox'
import { incidentStatuses } from '../../../platform/core/types.js'
import type { Store } from '../../../platform/db/store.js'
import type { App } from '../../../platform/http/app-types.js'
import { orRefuse } from '../../../platform/http/errors.js'
import { callers, operation } from '../../../platform/http/openapi/operation-doc.js'
import { failures, IdParams, Nullable } from '../../../platform/http/schemas.js'
import { type AuthHooks, type PartnerIntegrations, partnerId } from '../../../tenants/index.js'
import { conditionLimits } from '../conditions.js'
import type { PartnerRules } from '../service.js'
import { templateLimits, templatePlaceholders } from '../templates.js'

const Setting = Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 128 })))
const TicketSettingsInput = Type.Object(
  { board: Setting, priority: Setting, type: Setting, status: Setting, closedStatus: Setting },
  {
    description:
      "a PSA id or its name; missing settings take the PSA connection's defaults. status: a new ticket's status; closedStatus: the status a RESOLVED alert closes it with (default: the PSA's own closed status)",
  },
)
const Status = Type.Enum(incidentStatuses)
const Condition = Type.Object(
  {
    field: Type.String({
      minLength: 1,
      maxLength: conditionLimits.field,
      description: "title, summary, or an extra field of the alert's data (e.g. severity)",
    }),
    equals: Type.Optional(
      Type.String({ maxLength: conditionLimits.value, description: 'the whole value, ignoring case' }),
    ),
    contains: Type.Optional(
      Type.String({ maxLength: conditionLimits.value, description: 'a part of the value, ignoring case' }),
    ),
    matches: Type.Optional(
      Type.String({
        maxLength: conditionLimits.pattern,
        description:
          'an RE2 regular expression (linear time; no look-around or back-references); (?i) ignores case',
      }),
    ),
  },
  { additionalProperties: false, description: 'exactly one of equals, contains and matches' },
)
const Conditions = Type.Array(Condition, {
  maxItems: conditionLimits.count,
  description: 'all must hold for the rule to match (docs/partner-api.md#rule-conditions)',
})
const Template = (field: 'title' | 'description') =>
  Nullable(
    Type.String({
      maxLength: templateLimits.source[field],
      description: `Mustache placeholders {{name}} only: ${templatePlaceholders.join(', ')}; null: the default text`,
    }),
  )
const Templates = Type.Object(
  { title: Type.Optional(Template('title')), description: Type.Optional(Template('description')) },
  { description: "the new ticket's title and description (docs/partner-api.md#ticket-templates)" },
)
const Action = Type.Union([Type.Literal('ticket'), Type.Literal('suppress')])

const RuleFields = {
  precedence: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 1_000_000, description: 'lower runs first' }),
  ),
  enabled: Type.Optional(Type.Boolean()),
  alertTypes: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 128 }), {
      maxItems: 200,
      uniqueItems: true,
      description: 'empty: every type of the group',
    }),
  ),
  action: Type.Optional(Action),
  suppressStatuses: Type.Optional(
    Type.Array(Status, { uniqueItems: true, description: 'incidentStatus values this rule suppresses' }),
  ),
  ticket: Type.Optional(TicketSettingsInput),
  conditions: Type.Optional(Conditions),
  templates: Type.Optional(Templates),
}
const Group = Type.String({ minLength: 1, maxLength: 128 })
const CreateRule = Type.Object({ productGroup: Group, ...RuleFields })
const PatchRule = Type.Object({ productGroup: Type.Optional(Group), ...RuleFields })

export const RuleView = Type.Object({
  id: Type.String(),
  precedence: Type.Integer(),
  enabled: Type.Boolean(),
  productGroup: Type.String(),
  alertTypes: Type.Array(Type.String()),
  action: Action,
  suppressStatuses: Type.Array(Status),
  ticket: Type.Object({
    board: Nullable(Type.String()),
    priority: Nullable(Type.String()),
    type: Nullable(Type.String()),
    status: Nullable(Type.String()),
    closedStatus: Nullable(Type.String()),
  }),
  conditions: Type.Array(Condition),
  templates: Type.Object({ title: Nullable(Type.String()), description: Nullable(Type.String()) }),
  createdAt: Type.String(),
})

const RuleParams = Type.Object({
  id: IdParams.properties.id,
  ruleId: Type.String({ minLength: 1, maxLength: 64 }),
})

export interface PartnerRuleRoutesDeps {
  auth: Pick<AuthHooks, 'partner'>
  store: Store
  partnerRules: Pick<PartnerRules, 'create' | 'update' | 'delete'>
  partnerIntegrations: Pick<PartnerIntegrations, 'integration'>
}

export function registerPartnerRules(app: App, s: PartnerRuleRoutesDeps): void {
  const base = { onRequest: s.auth.partner }
  const meta = { tags: ['partner'], security: [{ partnerKey: [] }] }

  app.get(
    '/api/partner/integrations/:id/rules',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'Rules in precedence order (all of them: an integration holds at most 500)',
        ...operation({
          id: 'listRules',
          description: `The first enabled rule matching an alert's product group and type decides what it does. ${callers.partner}`,
        }),
        params: IdParams,
        response: { 200: Type.Object({ data: Type.Array(RuleView) }), ...failures(401, 404) },
      },
    },
    async (request) => {
      const integration = orRefuse(
        await s.partnerIntegrations.integration(partnerId(request), request.params.id),
      )
      return { data: await s.store.rules.list(integration.id) }
    },
  )

  app.post(
    '/api/partner/integrations/:id/rules',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'Add a rule',
        ...operation({
          id: 'createRule',
          description: `Without a matching rule an alert is refused (NO_RULE). ${callers.partner}`,
          body: { productGroup: 'Endpoint Security', alertTypes: ['Malware Detected'], action: 'ticket' },
        }),
        params: IdParams,
        body: CreateRule,
        response: { 201: RuleView, ...failures(400, 401, 404, 409) },
      },
    },
    async (request, reply) => {
      const integration = orRefuse(
        await s.partnerIntegrations.integration(partnerId(request), request.params.id),
      )
      return reply.code(201).send(orRefuse(await s.partnerRules.create(integration, request.body)))
    },
  )

  app.patch(
    '/api/partner/integrations/:id/rules/:ruleId',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'Change a rule',
        ...operation({
          id: 'updateRule',
          description: `Only the fields sent change. ${callers.partner}`,
          body: { enabled: false },
        }),
        params: RuleParams,
        body: PatchRule,
        response: { 200: RuleView, ...failures(400, 401, 404) },
      },
    },
    async (request) => {
      const integration = orRefuse(
        await s.partnerIntegrations.integration(partnerId(request), request.params.id),
      )
      return orRefuse(await s.partnerRules.update(integration, request.params.ruleId, request.body))
    },
  )

  app.delete(
    '/api/partner/integrations/:id/rules/:ruleId',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'Delete a rule',
        ...operation({
          id: 'deleteRule',
          description: `Open tickets it made stay; their next alerts find no rule unless another matches. ${callers.partner}`,
        }),
        params: RuleParams,
        response: { 204: Type.Null(), ...failures(401, 404) },
      },
    },
    async (request, reply) => {
      const integration = orRefuse(
        await s.partnerIntegrations.integration(partnerId(request), request.params.id),
      )
      orRefuse(await s.partnerRules.delete(integration, request.params.ruleId))
      return reply.code(204).send(null)
    },
  )
}
