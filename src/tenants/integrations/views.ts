// How an integration is shown to partners and the operator.
import Type, { type Static } from 'typebox'
import { closedTicketPolicies, dedupFields, integrationStates } from '../../platform/core/types.js'
import { Nullable } from '../../platform/http/schemas.js'
import { catchAllOff } from './catch-all-settings.js'
import type { Integration } from './integration.js'
import { isActive } from './state.js'
import { defaultStormSettings } from './storm-settings.js'

export const DedupView = Type.Object({
  enabled: Type.Boolean(),
  keyFields: Type.Array(Type.Enum(dedupFields)),
  windowMinutes: Nullable(Type.Integer({ description: 'null: no time limit' })),
})

export const ClosedTicketsView = Type.Object(
  {
    policy: Type.Enum(closedTicketPolicies, {
      description:
        'what an UPDATE (or an OPEN de-duplicated onto it) does to a closed ticket: refuse (409), reopen it, or open a new ticket that links it',
    }),
    reopenWindowMinutes: Type.Integer({
      minimum: 1,
      maximum: 525600,
      description:
        'minutes, 1 to 525600 (a year; 0 is refused: to never reopen, choose refuse or new): reopen only a ticket closed this recently; an older one gets a new ticket. The poll also reads closed tickets again for this long (at most 7 days) to hear a reopen in the PSA',
    }),
    closeOnlyUntouched: Type.Boolean({
      description: 'RESOLVED leaves a ticket a technician has worked open, with a note',
    }),
  },
  { description: 'docs/decision-table.md#closed-ticket-policy' },
)

export const CatchAllView = Type.Object(
  {
    enabled: Type.Boolean({
      description: 'OPEN alerts of an account that is not mapped (or not declared) go to psaCompanyId',
    }),
    psaCompanyId: Nullable(Type.String({ description: 'the fallback PSA company; needed to turn it on' })),
    board: Nullable(Type.String({ description: "the fallback board; null: the rule's or the default" })),
  },
  { description: 'docs/decision-table.md#catch-all' },
)

export const StormView = Type.Object(
  {
    enabled: Type.Boolean({ description: 'off by default' }),
    maxTicketsPerAccount: Type.Integer({
      minimum: 1,
      maximum: 10000,
      description:
        "new tickets per account within the window; later new incidents fold into the account's storm ticket",
    }),
    maxTicketsPerIntegration: Nullable(
      Type.Integer({
        minimum: 1,
        maximum: 100000,
        description: "the same across the integration's accounts; null: none",
      }),
    ),
    windowMinutes: Type.Integer({ minimum: 1, maximum: 1440, description: 'the rolling window' }),
  },
  { description: 'docs/partner-api.md#storm-control' },
)

export const IntegrationView = Type.Object({
  integrationId: Type.String(),
  vendorId: Type.String(),
  partnerId: Type.String(),
  state: Type.Enum(integrationStates),
  isIntegrationActive: Type.Boolean({ description: 'state is pending or connected' }),
  alertsEnabled: Type.Boolean(),
  ticketCreation: Type.Boolean(),
  selfHealing: Type.Boolean(),
  deduplication: DedupView,
  closedTickets: ClosedTicketsView,
  catchAll: CatchAllView,
  storm: StormView,
  vendorCredentials: Nullable(
    Type.Object(
      { header: Type.String(), configured: Type.Literal(true) },
      { description: "credentials for the vendor's product-groups endpoint; the value is never shown" },
    ),
  ),
  mappingCompletedAt: Nullable(Type.String()),
  connectedAt: Nullable(Type.String()),
  createdAt: Type.String(),
  updatedAt: Type.String(),
})
export type IntegrationView = Static<typeof IntegrationView>

export function integrationView(i: Integration): IntegrationView {
  const s = i.settings
  return {
    integrationId: i.id,
    vendorId: i.vendorId,
    partnerId: i.partnerId,
    state: s.state,
    isIntegrationActive: isActive(s.state),
    alertsEnabled: s.alertsEnabled,
    ticketCreation: s.ticketCreation,
    selfHealing: s.selfHealing,
    deduplication: s.deduplication,
    closedTickets: s.closedTickets,
    catchAll: s.catchAll ?? catchAllOff,
    storm: s.storm ?? defaultStormSettings(),
    vendorCredentials: i.vendorCredentials ? { header: i.vendorCredentials.header, configured: true } : null,
    mappingCompletedAt: i.mappingCompletedAt,
    connectedAt: i.connectedAt,
    createdAt: i.createdAt,
    updatedAt: i.updatedAt,
  }
}
