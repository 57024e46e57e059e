// Partner API: what a rule's templates and conditions work with (docs/partner-api.md#ticket-templates,
// docs/partner-api.md#rule-conditions): a template previewed on a sample alert, rendered as the
// partner's PSA would get it, and the extra data fields the integration's recent alerts carried. Both
// change nothing, so a viewer may use them too.
import Type from 'typebox'
import type { AlertFacts } from '../../../platform/core/types.js'
import type { Store } from '../../../platform/db/store.js'
import type { App } from '../../../platform/http/app-types.js'
import { ApiError, orRefuse } from '../../../platform/http/errors.js'
import { callers, operation } from '../../../platform/http/openapi/operation-doc.js'
import type { PublicAddress } from '../../../platform/http/public-address.js'
import { failures, IdParams, Nullable } from '../../../platform/http/schemas.js'
import type { Integration } from '../../../tenants/index.js'
import { type AuthHooks, type PartnerIntegrations, partnerId } from '../../../tenants/index.js'
import { factsOf } from '../../intake/intake.js'
import { contractFields } from '../../intake/schema.js'
import {
  rendersHtml,
  renderTicketTemplates,
  templateNames,
  templateValues,
} from '../../tickets/ticket-template.js'
import { extraFieldsSeen } from '../conditions.js'
import { type TicketTemplates, templateLimits, templatePlaceholders, templatesProblem } from '../templates.js'

/** How many of the integration's newest events the extra fields are read from. */
const recentEvents = 200

const TemplateSource = (field: 'title' | 'description') =>
  Type.Optional(Nullable(Type.String({ maxLength: templateLimits.source[field] })))

const PreviewBody = Type.Object({
  templates: Type.Object({ title: TemplateSource('title'), description: TemplateSource('description') }),
  alert: Type.Optional(
    Type.Object(
      {
        title: Type.Optional(Type.String({ maxLength: 4096 })),
        summary: Type.Optional(Type.String({ maxLength: 16_384 })),
        accountId: Type.Optional(Type.String({ maxLength: 128 })),
        productGroup: Type.Optional(Type.String({ maxLength: 128 })),
        alertType: Type.Optional(Type.String({ maxLength: 128 })),
        correlationId: Type.Optional(Type.String({ maxLength: 128 })),
      },
      { description: 'the sample alert; missing fields take sample values' },
    ),
  ),
})

export const TicketTextView = Type.Object({
  title: Nullable(Type.String({ description: 'null: the alert’s title, as without a template' })),
  description: Nullable(
    Type.String({
      description:
        'the rendered text; alertbridge adds its reference lines (Correlation ID, Message ID) below it. null: the default text',
    }),
  ),
  html: Type.Boolean({
    description: 'whether the values were escaped for a PSA whose description renders HTML',
  }),
})

const ExtraFieldsView = Type.Object({
  data: Type.Array(
    Type.Object({
      field: Type.String(),
      alerts: Type.Integer({ description: `how many of the ${recentEvents} newest events carried it` }),
      examples: Type.Array(Type.String(), { description: 'up to 5 values seen, cut at 80 characters' }),
    }),
  ),
})

/** What ticketTextFor reads: the names of the alert's account, and the service's public address. */
export interface TicketTextDeps {
  store: Store
  publicAddress: Pick<PublicAddress, 'get'>
}

/** A template's title and description for `alert`, rendered as the integration's partner's PSA gets them. */
export async function ticketTextFor(
  s: TicketTextDeps,
  integration: Integration,
  alert: AlertFacts,
  templates: TicketTemplates,
  psaKind: string,
) {
  const names = await templateNames(s.store, integration, alert.accountId)
  const values = templateValues(alert, names, {
    correlationId: alert.correlationId ?? '(the new ticket’s correlation ID)',
    occurrenceCount: 1,
    publicUrl: s.publicAddress.get(),
  })
  return { ...renderTicketTemplates(templates, values, psaKind), html: rendersHtml(psaKind) }
}

export interface PartnerRuleTemplateRoutesDeps extends TicketTextDeps {
  auth: Pick<AuthHooks, 'partner'>
  partnerIntegrations: Pick<PartnerIntegrations, 'integration'>
}

export function registerPartnerRuleTemplates(app: App, s: PartnerRuleTemplateRoutesDeps): void {
  const meta = { tags: ['partner'], security: [{ partnerKey: [] }] }

  app.post(
    '/api/partner/integrations/:id/template-preview',
    {
      onRequest: s.auth.partner,
      config: { viewerAllowed: true },
      schema: {
        ...meta,
        summary: `A rule's ticket templates rendered on a sample alert (placeholders: ${templatePlaceholders.join(', ')}); changes nothing`,
        ...operation({
          id: 'previewTicketTemplate',
          description: `A rule's title and description templates rendered on a sample alert, escaped as the partner's PSA gets them. ${callers.partner}`,
          body: {
            templates: { title: '[{{accountName}}] {{title}}', description: '{{summary}}\n\n{{portalLink}}' },
          },
        }),
        params: IdParams,
        body: PreviewBody,
        response: { 200: TicketTextView, ...failures(400, 401, 404) },
      },
    },
    async (request) => {
      const integration = orRefuse(
        await s.partnerIntegrations.integration(partnerId(request), request.params.id),
      )
      const { templates, alert } = request.body
      const problem = templatesProblem(templates)
      if (problem) throw new ApiError('VALIDATION_FAILED', problem)
      const partner = await s.store.partners.findById(integration.partnerId)
      if (!partner) throw new ApiError('INTEGRATION_NOT_FOUND', 'The integration no longer exists.')
      const facts = factsOf({
        integrationId: integration.id,
        correlationId: alert?.correlationId ?? null,
        data: {
          title: alert?.title ?? 'Disk C: is 95% full',
          summary: alert?.summary ?? 'Free space fell below 5% on SERVER-01.',
          accountId: alert?.accountId ?? 'sample-account',
          productGroup: alert?.productGroup ?? 'Monitoring',
          alertType: alert?.alertType ?? 'Disk Space',
          incidentStatus: 'OPEN',
        },
      })
      const full = { title: templates.title ?? null, description: templates.description ?? null }
      return ticketTextFor(s, integration, facts, full, partner.psa.kind)
    },
  )

  app.get(
    '/api/partner/integrations/:id/extra-fields',
    {
      onRequest: s.auth.partner,
      schema: {
        ...meta,
        summary: `The extra data fields the integration's ${recentEvents} newest alerts carried, for rule conditions`,
        ...operation({
          id: 'listExtraFields',
          description: `The data fields beyond the contract's that recent alerts carried, with examples: what a rule condition can name. ${callers.partner}`,
        }),
        params: IdParams,
        response: { 200: ExtraFieldsView, ...failures(401, 404) },
      },
    },
    async (request) => {
      const integration = orRefuse(
        await s.partnerIntegrations.integration(partnerId(request), request.params.id),
      )
      const events = await s.store.events.list({ integrationId: integration.id, limit: recentEvents })
      return {
        data: extraFieldsSeen(
          events.map((e) => e.request),
          (name) => contractFields.has(name),
        ),
      }
    },
  )
}
