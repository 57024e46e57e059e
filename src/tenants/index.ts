// The tenants module's entry (docs/architecture.md#the-modules): everything other modules use of it, and
// nothing else. A file outside this folder imports only from here.
// Its repositories, registered on the Store (src/platform/db/store.ts) when the module loads.
import './audit/repository.js'
import './credentials/tokens-repository.js'
import './people/repository.js'
import './repositories/integrations.js'
import './repositories/mappings.js'
import './repositories/names.js'
import './repositories/partners.js'
import './repositories/service-mappings.js'
import './repositories/settings.js'
import './repositories/vendor-data.js'
import './repositories/vendors.js'

export type { Actor } from './audit/operator-audit.js'
export { actorKinds, auditActions, auditTargetTypes, fieldsSet } from './audit/operator-audit.js'
export type { AuthHooks } from './auth.js'
export { actorOf, authHooks, partnerId, partnerPrincipal, portalSessionOf, vendorPrincipal } from './auth.js'
export type { TenantKind } from './credentials/credentials.js'
export {
  disabledDetail,
  generationOf,
  holdKey,
  overlapSeconds,
  previousLive,
  tenantHold,
} from './credentials/credentials.js'
export { vendorIdempotency } from './credentials/idempotency-owners.js'
export type { VendorCaller } from './credentials/integration-scope.js'
export { vendorIntegration } from './credentials/integration-scope.js'
export type { RotatingCredential } from './credentials/rotation.js'
export { CredentialRotation } from './credentials/rotation.js'
export { authenticateClient, matchOrgToken, TokenService } from './credentials/token-service.js'
export { catchAllOff } from './integrations/catch-all-settings.js'
export { dedupKey, withinWindow } from './integrations/dedup.js'
export type { Integration, IntegrationSettings } from './integrations/integration.js'
export { IntegrationLifecycle } from './integrations/lifecycle.js'
export { PartnerIntegrations } from './integrations/owned.js'
export { inactiveDetail, isActive, transition } from './integrations/state.js'
export type { StormSettings } from './integrations/storm-settings.js'
export { defaultStormSettings } from './integrations/storm-settings.js'
export { ClosedTicketsView, IntegrationView, integrationView, StormView } from './integrations/views.js'
export type { TenantsModule } from './module.js'
export { tenantsModule } from './module.js'
export type { Partner } from './partner.js'
export {
  ChangePasswordBody,
  EndedSessions,
  PasswordChanged,
  SessionHandleParams,
  SessionList,
} from './people/account-views.js'
export { portalAccounts } from './people/accounts.js'
export { partnerOfKey } from './people/api-key.js'
export { clearedSessionCookie, readCookie, sessionCookie, sessionCookieName } from './people/cookies.js'
export type { PortalSessions, SignInFrom, StartedSession } from './people/sessions.js'
export type { PortalUsers } from './people/users.js'
export {
  AcceptInviteBody,
  InviteBody,
  Invited,
  PartnerUserView,
  PatchUserBody,
  partnerUserView,
  SessionView,
  SignInBody,
  sessionUser,
} from './people/views.js'
export type { HeldDeliveries, PsaConnectionChanges, StateSnapshots } from './ports.js'
export { ProductGroupMetrics } from './product-groups/metrics.js'
export type { ProductGroupsInput } from './product-groups/product-groups.js'
export { checkAgainstProductGroups, productGroupsFromList } from './product-groups/product-groups.js'
export {
  EffectiveProductGroupsView,
  effectiveView,
  ProductGroupList,
  ProductGroupMap,
  ProductGroupsMapping,
  ProductGroupsView,
} from './product-groups/schemas.js'
export type { EffectiveProductGroups } from './product-groups/source.js'
export { ProductGroupSource } from './product-groups/source.js'
export { createProductGroupFetcher } from './product-groups/vendor-fetch.js'
export { Provisioning } from './provisioning.js'
export type { PsaLookups } from './psa-names.js'
export { entryNamed, PsaNames } from './psa-names.js'
export type { SettingsPatch } from './repositories/integrations.js'
export { accountKey } from './repositories/names.js'
export { SettingsRepository } from './repositories/settings.js'
export type { SealedEndpoint } from './repositories/vendor-rows.js'
export { sealedEndpointColumns } from './repositories/vendor-rows.js'
export { TenantStatus } from './status.js'
export type { AccessToken, Vendor, WebhookEndpointState, WebhookTarget } from './vendor.js'
export type { ServiceMapping, UsageCount, VendorAccount } from './vendor-data.js'
export { webhookAuthHeaderProblem } from './vendor-input.js'
export {
  DisabledView,
  disabledView,
  OutboundUrl,
  OverlapSeconds,
  RotateBody,
  RotationView,
  rotationExample,
  rotationView,
  WebhookAuthHeader,
} from './views.js'
