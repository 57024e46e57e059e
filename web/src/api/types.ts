// Names for the API's shapes the portal passes around, taken from the generated schema.
import type { paths } from './schema'

type Json<R> = R extends { content: { 'application/json': infer B } } ? B : never
type Responses<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends { responses: infer R }
  ? R
  : never
/** The body of an operation's 200 (or 201) answer. */
export type Ok<P extends keyof paths, M extends keyof paths[P]> =
  Responses<P, M> extends { 200: infer R }
    ? Json<R>
    : Responses<P, M> extends { 201: infer R }
      ? Json<R>
      : never
/** The JSON body an operation takes. */
export type Body<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  requestBody?: { content: { 'application/json': infer B } }
}
  ? B
  : never
/** The query an operation takes. */
export type Query<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  parameters: { query?: infer Q }
}
  ? NonNullable<Q>
  : never

type Item<L> = L extends { data: (infer I)[] } ? I : never

export type Integration = Ok<'/api/partner/integrations/{id}', 'get'>
export type IntegrationPatch = Body<'/api/partner/integrations/{id}', 'patch'>
export type ProductGroups = Ok<'/api/partner/integrations/{id}/product-groups', 'get'>
export type Account = Item<Ok<'/api/partner/integrations/{id}/accounts', 'get'>>
export type Service = Item<Ok<'/api/partner/integrations/{id}/services', 'get'>>
export type Rule = Item<Ok<'/api/partner/integrations/{id}/rules', 'get'>>
export type RuleInput = Body<'/api/partner/integrations/{id}/rules', 'post'>
export type PsaEntity = Item<Ok<'/api/partner/psa/{what}', 'get'>>
export type LookupKind = paths['/api/partner/psa/{what}']['get']['parameters']['path']['what']
export type BillingLine = Item<Ok<'/api/partner/psa/agreements', 'get'>>
export type Ticket = Item<Ok<'/api/partner/tickets', 'get'>>
export type TicketQuery = Query<'/api/partner/tickets', 'get'>
export type TicketWithHistory = Ok<'/api/partner/tickets/{correlationId}', 'get'>
export type AuditEvent = Item<Ok<'/api/partner/events', 'get'>>
export type EventQuery = Query<'/api/partner/events', 'get'>
export type Metrics = Ok<'/api/partner/metrics', 'get'>
export type Delivery = Item<Ok<'/api/partner/deliveries', 'get'>>
export type PsaView = Ok<'/api/partner/psa', 'get'>
export type PsaInput = Body<'/api/partner/psa', 'put'>
export type OverviewItem = Item<Ok<'/api/partner/overview', 'get'>>
export type FailureCause = Item<Ok<'/api/partner/failures', 'get'>>
export type MaintenanceOccurrence = Item<Ok<'/api/partner/maintenance-occurrences', 'get'>>
