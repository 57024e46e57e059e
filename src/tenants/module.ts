// The tenants module, built once by the composition root (src/main/services.ts): vendors, partners,
// integrations and their credentials, the portal's users and sessions, the request hooks that say who is
// calling, and each integration's product-group catalogue. What a change tells the modules above is
// said through its ports (ports.ts), met by the root with their services.

import { iso } from '../platform/clock.js'
import type { ModuleParts } from '../platform/composition/module.js'
import type { Platform } from '../platform/composition/platform.js'
import type { PsaRegistry } from '../psa/index.js'
import { type AuthHooks, authHooks } from './auth.js'
import { CredentialRotation } from './credentials/rotation.js'
import { TokenService } from './credentials/token-service.js'
import { IntegrationLifecycle } from './integrations/lifecycle.js'
import { PartnerIntegrations } from './integrations/owned.js'
import { portalAccounts } from './people/accounts.js'
import { partnerOfKey } from './people/api-key.js'
import type { PortalSessions } from './people/sessions.js'
import type { PortalUsers } from './people/users.js'
import type { HeldDeliveries, PsaConnectionChanges, StateSnapshots } from './ports.js'
import { ProductGroupMetrics } from './product-groups/metrics.js'
import { ProductGroupSource } from './product-groups/source.js'
import { createProductGroupFetcher } from './product-groups/vendor-fetch.js'
import { Provisioning } from './provisioning.js'
import { TenantStatus } from './status.js'

export interface TenantsModule extends ModuleParts {
  tokens: TokenService
  auth: AuthHooks
  lifecycle: IntegrationLifecycle
  /** The effective product-group catalogue of each integration (static or the vendor's, cached). */
  productGroups: ProductGroupSource
  /** A partner's own integration, for the partner routes of every module. */
  partnerIntegrations: PartnerIntegrations
  provisioning: Provisioning
  /** Rotating credentials with an overlap window. */
  credentials: CredentialRotation
  /** Disabling and enabling tenants. */
  tenantStatus: TenantStatus
  portalUsers: PortalUsers
  portalSessions: PortalSessions
}

export function tenantsModule(
  p: Platform,
  d: {
    psa: PsaRegistry
    adminTokenDigest: string
    /** Met by the webhooks module and two-way sync, which sit above this one. */
    ports: { snapshots: StateSnapshots; deliveries: HeldDeliveries; psaChanges: PsaConnectionChanges }
  },
): TenantsModule {
  const { store, clock, log, config, notices } = p
  const { snapshots } = d.ports
  const { accessTokenTtlSeconds: ttl, accessTokenLimits } = config
  const tokens = new TokenService(store, clock, ttl, accessTokenLimits, p.limiters)
  const productGroups = new ProductGroupSource({
    store,
    clock,
    log,
    metrics: new ProductGroupMetrics(p.metrics),
    fetcher: createProductGroupFetcher({ http: p.outbound('alertbridge-catalogue/1'), timeoutMs: 10_000 }),
    onListChanged: (integrationId) =>
      snapshots
        .changed(store, [integrationId])
        .catch((err) => log.error({ err, integrationId }, 'catalogue: could not schedule a state_snapshot')),
    onForget: (integrationId) => notices.publish({ kind: 'catalogue', integrationId }),
  })
  notices.subscribe((heard) => {
    if (heard.kind === 'catalogue') productGroups.forgetHere(heard.integrationId)
    else if (heard.kind === 'all') productGroups.forgetAll()
  })
  const { portalSessions, portalUsers } = portalAccounts({
    store,
    clock,
    portal: config.portal,
    limiters: p.limiters,
  })
  // Changes made through the services (not only the routes) clear every process's cached configuration.
  const changed = () => notices.publish({ kind: 'configuration' })
  return {
    tokens,
    auth: authHooks({
      adminTokenDigest: d.adminTokenDigest,
      partnerOfKey: (key) => partnerOfKey(store.partners, key, iso(clock)),
      vendorToken: (token) => tokens.verify(token),
      portalSession: (cookie) => portalSessions.check(cookie),
      touchPortalSession: (id) => portalSessions.touch(id),
    }),
    lifecycle: new IntegrationLifecycle(snapshots),
    productGroups,
    partnerIntegrations: new PartnerIntegrations(store),
    provisioning: new Provisioning(
      store,
      d.psa,
      clock,
      snapshots,
      config.allowPrivateNetwork,
      config.loopbackOrigins,
      d.ports.deliveries,
      d.ports.psaChanges,
    ),
    credentials: new CredentialRotation(store, clock, changed),
    tenantStatus: new TenantStatus({ store, clock, queue: p.queue, snapshots, onChange: changed }),
    portalUsers,
    portalSessions,
    routes: [],
    jobs: [],
  }
}
