// `npm start -- --demo [--webhook-url <url>]`: a test tenancy (src/vendor-api/test-tenancy.ts): a vendor, a partner on
// the sandbox PSA, an integration in state pending with alerting on, one rule and one account mapping,
// made through the same services the APIs use. The credentials are kept in the data directory so that
// a later start shows them again; files written before the webhook secret was kept lack it, and show
// what they have.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Result } from '../platform/core/result.js'
import type { Actor } from '../tenants/index.js'
import {
  provisionTestTenancy,
  type TestTenancyCredentials,
  type TestTenancyDeps,
  testTenancyProductGroups,
} from '../vendor-api/index.js'

/** What demo-credentials.json holds: a test tenancy's credentials; older files lack the newer fields. */
export type DemoCredentials = Pick<
  TestTenancyCredentials,
  | 'vendorId'
  | 'clientId'
  | 'clientSecret'
  | 'partnerId'
  | 'partnerApiKey'
  | 'integrationId'
  | 'organizationOemToken'
> &
  Partial<TestTenancyCredentials>

export const demoProductGroups = testTenancyProductGroups

const demoActor: Actor = { kind: 'operator', id: 'demo', requestId: null }

/** A refusal of the demo's set-up, as the sentence the start stops with. */
function orStop<T>(result: Result<T>): T {
  if (result.ok) return result.value
  const { code, detail } = result.refusal
  // The one refusal a start can meet: the webhook URL given (one on loopback is allowed as it is,
  // another private address needs ALLOW_PRIVATE_NETWORK=true, docs/operations.md).
  if (detail.startsWith('webhookUrl:'))
    throw new Error(
      `DEMO_WEBHOOK_URL (--webhook-url): ${detail.slice('webhookUrl:'.length).trim()}; a receiver on this machine works on http://127.0.0.1, localhost or [::1]; another private address needs ALLOW_PRIVATE_NETWORK=true.`,
    )
  throw new Error(`${code}: ${detail}`)
}

/** The demo of an earlier start (its webhook URL changed if another is given), or a new one. */
export async function ensureDemo(
  s: TestTenancyDeps,
  dataDir: string | null,
  o: { webhookUrl?: string | null } = {},
): Promise<DemoCredentials> {
  const file = dataDir ? join(dataDir, 'demo-credentials.json') : null
  const save = (d: DemoCredentials) => {
    if (file) writeFileSync(file, `${JSON.stringify(d, null, 2)}\n`, { mode: 0o600 })
  }
  if (file && existsSync(file)) {
    const demo = JSON.parse(readFileSync(file, 'utf8')) as DemoCredentials
    const vendor = await s.store.vendors.findById(demo.vendorId)
    if (o.webhookUrl && vendor && vendor.webhookUrl !== o.webhookUrl) {
      const changed = orStop(
        await s.provisioning.updateVendor(vendor.id, { webhookUrl: o.webhookUrl }, demoActor),
      )
      save({ ...demo, webhookUrl: changed.webhookUrl })
      return { ...demo, webhookUrl: changed.webhookUrl }
    }
    return { ...demo, webhookUrl: vendor?.webhookUrl ?? demo.webhookUrl ?? null }
  }
  const demo = orStop(
    await provisionTestTenancy(
      s,
      {
        vendorName: 'Demo Security Vendor',
        partnerName: 'Demo MSP',
        webhookUrl: o.webhookUrl ?? null,
        portalEmail: 'admin@demo-msp.example',
      },
      demoActor,
    ),
  )
  save(demo)
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

/** What a start with --demo prints: every credential, a curl line that makes a ticket, one that lists it. */
export function demoLines(baseUrl: string, d: DemoCredentials): string[] {
  const lines = [
    'demo: vendor, partner (sandbox PSA), integration (pending, alerting on), one rule, one account mapping.',
    'demo vendor:',
    `  clientId:             ${d.clientId}`,
    `  clientSecret:         ${d.clientSecret}`,
    `  webhookSecret:        ${d.webhookSecret ?? '(not kept by the start that made this demo; rotate it: POST /api/vendor-api/credentials/webhook-secret/rotate)'}`,
    `  webhookUrl:           ${d.webhookUrl ?? '(none; --webhook-url <url> sets one)'}`,
    `  integrationId:        ${d.integrationId}`,
    `  organizationOemToken: ${d.organizationOemToken}`,
    `demo partner API key: ${d.partnerApiKey}`,
    'create a ticket:',
    `  ${demoCurl(baseUrl, d)}`,
    'see it:',
    `  curl -s ${baseUrl}/api/partner/tickets -H 'authorization: Bearer ${d.partnerApiKey}'`,
  ]
  if (d.portalInvite)
    lines.push(
      `partner portal: ${baseUrl}/invite#${d.portalInvite}`,
      `  (sets the password of ${d.portalEmail}, an admin; the invite works once, for 7 days)`,
    )
  return lines
}
