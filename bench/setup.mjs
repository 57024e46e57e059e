// Sets up one working integration on a running alertbridge through its HTTP APIs only, the way
// test/support/fixtures.ts does (operator → vendor → partner), tuned for load: a vendor rate limit
// at the schema's maximum, so the limiter never refuses during a run, and de-duplication off, so
// that every identical OPEN alert creates a new ticket. Every step checks its status and throws
// naming the step, so a broken setup fails where it breaks.

import { randomBytes, randomUUID } from 'node:crypto'

export const catalogue = {
  'Endpoint Security': ['Malware Detected', 'Ransomware Behaviour', 'Agent Offline'],
  Backup: ['Backup Failed', 'Backup Warning'],
}

/** The maximum `rateLimitPerMinute` of the admin vendor schema (src/admin/routes/vendors.ts). */
export const maxRateLimitPerMinute = 1_000_000

const alert = {
  title: 'Malware detected on WS-042',
  summary: 'Trojan quarantined on WS-042.',
  alertType: 'Malware Detected',
  accountId: 'acme-001',
  productGroup: 'Endpoint Security',
  incidentStatus: 'OPEN',
}

async function call(baseUrl, method, path, { token, body } = {}) {
  const headers = {}
  if (token) headers.authorization = `Bearer ${token}`
  if (body !== undefined) headers['content-type'] = 'application/json'
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  let json = null
  try {
    json = text ? JSON.parse(text) : null
  } catch {
    // not JSON; the text is reported if the status is wrong
  }
  return { status: res.status, text, body: json }
}

function expect(res, status, step) {
  if (res.status !== status) {
    throw new Error(
      `setup step '${step}' answered ${res.status} (expected ${status}): ${res.text.slice(0, 500)}`,
    )
  }
  return res.body
}

/**
 * @param {string} baseUrl the service, e.g. http://127.0.0.1:41234
 * @param {{ adminToken: string, webhookUrl: string, vendor?: any, psa?: Record<string, unknown>,
 *   psaCompanyId?: string, ruleTicket?: Record<string, string> }} o  `vendor`: one a previous call made
 *   (several partners of one vendor); `psa`: the partner's PSA connection (default the sandbox)
 * @returns {Promise<{ vendor: any, integrationId: string, partnerKey: string, alertBody: Record<string, unknown> }>}
 */
export async function setupIntegration(baseUrl, o) {
  const { adminToken, webhookUrl } = o
  const admin = (method, path, body) => call(baseUrl, method, path, { token: adminToken, body })

  const vendor =
    o.vendor ??
    expect(
      await admin('POST', '/api/admin/vendors', {
        name: 'Bench Security',
        productGroups: catalogue,
        webhookUrl,
        rateLimitPerMinute: maxRateLimitPerMinute,
      }),
      201,
      'create vendor',
    )
  const partner = expect(
    await admin('POST', '/api/admin/partners', { name: 'Bench MSP', psa: o.psa ?? { kind: 'sandbox' } }),
    201,
    'create partner',
  )
  const integration = expect(
    await admin('POST', '/api/admin/integrations', { vendorId: vendor.id, partnerId: partner.id }),
    201,
    'create integration',
  )
  const integrationId = integration.integrationId
  const orgToken = integration.organizationOemToken

  const token = expect(
    await call(baseUrl, 'POST', '/api/oauth/token', {
      body: {
        grant_type: 'client_credentials',
        client_id: vendor.clientId,
        client_secret: vendor.clientSecret,
        scope: 'vendor_manage',
        organization_oem_token: orgToken,
      },
    }),
    200,
    'vendor token',
  )
  const asVendor = (method, path, body) => call(baseUrl, method, path, { token: token.access_token, body })
  const asPartner = (method, path, body) => call(baseUrl, method, path, { token: partner.apiKey, body })

  expect(
    await asVendor('POST', '/api/vendor-api/organization/accounts', {
      vendorAccountId: alert.accountId,
      name: 'Company acme-001',
      externalId: 'ACME-001',
    }),
    201,
    'create account',
  )
  expect(await asVendor('PATCH', '/api/vendor-api/status/mapping', {}), 200, 'status mapping')

  const integrationPath = `/api/partner/integrations/${integrationId}`
  expect(
    await asPartner('PUT', `${integrationPath}/accounts/${alert.accountId}`, {
      psaCompanyId: o.psaCompanyId ?? '100',
    }),
    200,
    'map account',
  )
  expect(
    await asPartner('POST', `${integrationPath}/rules`, {
      productGroup: alert.productGroup,
      ...(o.ruleTicket ? { ticket: o.ruleTicket } : {}),
    }),
    201,
    'create rule',
  )
  const completed = expect(
    await asPartner('POST', `${integrationPath}/complete-mapping`),
    200,
    'complete mapping',
  )
  if (completed.state !== 'pending') throw new Error(`complete mapping left state '${completed.state}'`)
  expect(
    await asPartner('PATCH', integrationPath, { deduplication: { enabled: false } }),
    200,
    'turn de-duplication off',
  )

  return {
    vendor,
    integrationId,
    partnerKey: partner.apiKey,
    alertBody: {
      clientId: vendor.clientId,
      clientSecret: vendor.clientSecret,
      grantType: 'client_credentials',
      scope: 'vendor_manage',
      organizationOemToken: orgToken,
      integrationId,
      data: alert,
    },
  }
}

/**
 * The baseline validates the same schema, so it gets a body of the same shape and size: credentials
 * in the formats src/platform/security/secrets.ts issues, an integration id shaped like a UUID.
 */
export function sampleAlertBody() {
  const random = (bytes) => randomBytes(bytes).toString('base64url')
  return {
    clientId: `cli_${random(12)}`,
    clientSecret: `abs_${random(32)}`,
    grantType: 'client_credentials',
    scope: 'vendor_manage',
    organizationOemToken: `abo_${random(32)}`,
    integrationId: randomUUID(),
    data: alert,
  }
}
