// Sets up a working integration the way a real operator, vendor and partner would: only through
// the HTTP APIs. Every step is asserted, so a broken setup path fails loudly where it breaks.
import assert from 'node:assert/strict'
import type { Response, TestService } from './service.js'

export const catalogue = {
  'Endpoint Security': ['Malware Detected', 'Ransomware Behaviour', 'Agent Offline'],
  Backup: ['Backup Failed', 'Backup Warning'],
}

export interface AlertData {
  title: string
  summary: string
  alertType: string
  accountId: string
  productGroup: string
  incidentStatus: 'OPEN' | 'UPDATE' | 'RESOLVED'
}

export interface Setup {
  vendorId: string
  clientId: string
  clientSecret: string
  partnerId: string
  partnerKey: string
  integrationId: string
  orgToken: string
  /** A vendor bearer token bound to the integration. */
  vendorToken: string
  ruleId: string | null
  /** The alert request body, with the setup's credentials. */
  body(data?: Partial<AlertData>, extra?: Record<string, unknown>): Record<string, unknown>
  sync(data?: Partial<AlertData>, extra?: Record<string, unknown>): Promise<Response>
  partner<T = any>(method: string, path: string, body?: unknown): Promise<Response<T>>
}

export interface SetupOptions {
  vendorName?: string
  partnerName?: string
  catalogue?: Record<string, string[]> | null
  accounts?: string[]
  mapped?: string[]
  /** The first rule; null for none. */
  rule?: Record<string, unknown> | null
  /** Stop before completing the mapping (state stays `mapping`), or before starting it (`created`). */
  stopAt?: 'created' | 'mapping'
  /** Reuse an existing vendor. */
  vendor?: { id: string; clientId: string; clientSecret: string }
  /** A new vendor whose webhooks go to this receiver, which is given their signing secret. */
  webhooksTo?: { url: string; setSecret(secret: string): void }
  /** The partner's PSA connection (default: the sandbox) and the PSA company accounts map to. */
  psa?: Record<string, unknown> & { kind: string }
  psaCompanyId?: string
}

export const defaultAlert: AlertData = {
  title: 'Malware detected on WS-042',
  summary: 'Trojan quarantined on WS-042.',
  alertType: 'Malware Detected',
  accountId: 'acme-001',
  productGroup: 'Endpoint Security',
  incidentStatus: 'OPEN',
}

function expectStatus(res: Response, status: number, what: string): void {
  assert.equal(res.status, status, `${what}: ${res.text}`)
}

export async function setupIntegration(
  svc: Pick<TestService, 'request' | 'adminToken'>,
  o: SetupOptions = {},
): Promise<Setup> {
  const admin = (method: string, path: string, body?: unknown) =>
    svc.request(method, path, { token: svc.adminToken, body })

  let vendor = o.vendor
  if (!vendor) {
    const res = await admin('POST', '/api/admin/vendors', {
      name: o.vendorName ?? 'Acme Security',
      ...(o.catalogue === null ? {} : { productGroups: o.catalogue ?? catalogue }),
      ...(o.webhooksTo ? { webhookUrl: o.webhooksTo.url } : {}),
    })
    expectStatus(res, 201, 'create vendor')
    o.webhooksTo?.setSecret(res.body.webhookSecret)
    vendor = { id: res.body.id, clientId: res.body.clientId, clientSecret: res.body.clientSecret }
  }
  const partnerRes = await admin('POST', '/api/admin/partners', {
    name: o.partnerName ?? 'Best MSP',
    psa: o.psa ?? { kind: 'sandbox' },
  })
  expectStatus(partnerRes, 201, 'create partner')
  const integrationRes = await admin('POST', '/api/admin/integrations', {
    vendorId: vendor.id,
    partnerId: partnerRes.body.id,
  })
  expectStatus(integrationRes, 201, 'create integration')
  const integrationId: string = integrationRes.body.integrationId
  const orgToken: string = integrationRes.body.organizationOemToken
  const partnerKey: string = partnerRes.body.apiKey

  const tokenRes = await svc.request('POST', '/api/oauth/token', {
    body: {
      grant_type: 'client_credentials',
      client_id: vendor.clientId,
      client_secret: vendor.clientSecret,
      scope: 'vendor_manage',
      organization_oem_token: orgToken,
    },
  })
  expectStatus(tokenRes, 200, 'token')
  const vendorToken: string = tokenRes.body.access_token
  const vendorCall = (method: string, path: string, body?: unknown) =>
    svc.request(method, path, { token: vendorToken, body })
  const partner = <T = any>(method: string, path: string, body?: unknown) =>
    svc.request<T>(method, path, { token: partnerKey, body })

  for (const accountId of o.accounts ?? ['acme-001', 'globex-002']) {
    const res = await vendorCall('POST', '/api/vendor-api/organization/accounts', {
      vendorAccountId: accountId,
      name: `Company ${accountId}`,
      externalId: accountId.toUpperCase(),
    })
    expectStatus(res, 201, `create account ${accountId}`)
  }

  let ruleId: string | null = null
  if (o.stopAt !== 'created') {
    expectStatus(await vendorCall('PATCH', '/api/vendor-api/status/mapping', {}), 200, 'status mapping')
    for (const accountId of o.mapped ?? ['acme-001']) {
      const res = await partner('PUT', `/api/partner/integrations/${integrationId}/accounts/${accountId}`, {
        psaCompanyId: o.psaCompanyId ?? '100',
      })
      expectStatus(res, 200, `map ${accountId}`)
    }
    const rule = o.rule === undefined ? { productGroup: 'Endpoint Security' } : o.rule
    if (rule) {
      const res = await partner('POST', `/api/partner/integrations/${integrationId}/rules`, rule)
      expectStatus(res, 201, 'create rule')
      ruleId = res.body.id
    }
    if (o.stopAt !== 'mapping') {
      const res = await partner('POST', `/api/partner/integrations/${integrationId}/complete-mapping`)
      expectStatus(res, 200, 'complete mapping')
      assert.equal(res.body.state, 'pending')
    }
  }

  const body = (data: Partial<AlertData> = {}, extra: Record<string, unknown> = {}) => ({
    clientId: vendor.clientId,
    clientSecret: vendor.clientSecret,
    grantType: 'client_credentials',
    scope: 'vendor_manage',
    organizationOemToken: orgToken,
    integrationId,
    data: { ...defaultAlert, ...data },
    ...extra,
  })

  return {
    vendorId: vendor.id,
    clientId: vendor.clientId,
    clientSecret: vendor.clientSecret,
    partnerId: partnerRes.body.id,
    partnerKey,
    integrationId,
    orgToken,
    vendorToken,
    ruleId,
    body,
    sync: (data, extra) => svc.request('POST', '/api/oem-alerts-api/alert/sync', { body: body(data, extra) }),
    partner,
  }
}

/** A new access token for the vendor's credentials (client_credentials), bound to `orgToken` if given. */
export async function issueToken(
  svc: Pick<TestService, 'request'>,
  s: { clientId: string; clientSecret: string },
  orgToken?: string,
): Promise<string> {
  const res = await svc.request('POST', '/api/oauth/token', {
    body: {
      grant_type: 'client_credentials',
      client_id: s.clientId,
      client_secret: s.clientSecret,
      ...(orgToken ? { organization_oem_token: orgToken } : {}),
    },
  })
  assert.equal(res.status, 200, res.text)
  return res.body.access_token
}
