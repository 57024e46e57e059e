// `npm start -- --demo`: a ready vendor, a partner on the sandbox PSA, an integration in state
// pending with alerting on, one rule and one account mapping, all made through the same services the
// APIs use. The credentials are kept in the data directory so the curl line can be shown again.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { must } from './domain/result.js'
import type { Services } from './services.js'

export interface DemoCredentials {
  vendorId: string
  clientId: string
  clientSecret: string
  partnerId: string
  partnerApiKey: string
  integrationId: string
  organizationOemToken: string
  /** The demo partner's first portal user: an admin whose invite opens the portal (once). */
  portalEmail?: string
  portalInvite?: string
}

export const demoCatalogue = {
  'Endpoint Security': ['Malware Detected', 'Ransomware Behaviour', 'Agent Offline'],
  Backup: ['Backup Failed', 'Backup Warning'],
}

export async function provisionDemo(s: Services): Promise<DemoCredentials> {
  // A refusal here is a bug of the demo: must() throws it as a plain error.
  const { vendor, clientSecret } = must(
    await s.provisioning.createVendor({ name: 'Demo Security Vendor', productGroups: demoCatalogue }),
  )
  const { partner, apiKey } = must(
    await s.provisioning.createPartner({
      name: 'Demo MSP',
      psa: { kind: 'sandbox', defaults: { board: 'Service Desk', priority: 'P3 - Medium' } },
    }),
  )
  const { integration, organizationOemToken } = must(
    await s.provisioning.createIntegration({ vendorId: vendor.id, partnerId: partner.id }),
  )
  const now = s.clock().toISOString()
  await s.store.vendorData.upsertAccount(
    integration.id,
    { vendorAccountId: 'acme-001', name: 'Acme Corporation', externalId: 'ACME' },
    now,
  )
  must(await s.vendorSetup.startMapping(integration))
  must(
    await s.partnerSetup.putMapping(integration, { accountId: 'acme-001', psaCompanyId: '100', board: null }),
  )
  // No ticket settings of its own: the PSA connection's defaults apply, so the demo keeps working when
  // the partner connects a real PSA (or a simulator) instead of the sandbox.
  must(await s.partnerRules.create(integration, { productGroup: 'Endpoint Security' }))
  const mapped = await s.store.integrations.findById(integration.id)
  must(await s.partnerSetup.completeMapping(mapped!))
  const portalEmail = 'admin@demo-msp.example'
  const { inviteToken } = must(
    await s.portalUsers.invite(
      partner.id,
      { email: portalEmail, name: 'Demo admin', role: 'admin' },
      { kind: 'operator', id: 'demo', requestId: null },
    ),
  )
  return {
    portalEmail,
    portalInvite: inviteToken,
    vendorId: vendor.id,
    clientId: vendor.clientId,
    clientSecret,
    partnerId: partner.id,
    partnerApiKey: apiKey,
    integrationId: integration.id,
    organizationOemToken,
  }
}

/** The demo of an earlier start, or a new one. */
export async function ensureDemo(s: Services, dataDir: string | null): Promise<DemoCredentials> {
  const file = dataDir ? join(dataDir, 'demo-credentials.json') : null
  if (file && existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as DemoCredentials
  const demo = await provisionDemo(s)
  if (file) writeFileSync(file, `${JSON.stringify(demo, null, 2)}\n`, { mode: 0o600 })
  return demo
}

export function demoCurl(baseUrl: string, d: DemoCredentials): string {
  const body = {
    clientId: d.clientId,
    clientSecret: d.clientSecret,
    grantType: 'client_credentials',
    scope: 'vendor_manage',
    organizationOemToken: d.organizationOemToken,
    integrationId: d.integrationId,
    data: {
      title: 'Malware detected on WS-042',
      summary: 'Trojan.GenericKD quarantined on WS-042 (user jdoe).',
      alertType: 'Malware Detected',
      accountId: 'acme-001',
      productGroup: 'Endpoint Security',
      incidentStatus: 'OPEN',
    },
  }
  return `curl -s -X POST ${baseUrl}/api/oem-alerts-api/alert/sync -H 'content-type: application/json' -d '${JSON.stringify(body)}'`
}
