// `npm run screenshots`: a screenshot of each main screen of the partner portal, under
// docs/screenshots/, taken in headless Chromium from a service on loopback with believable data
// (an integration of a webhook vendor, mapped accounts, rules, tickets, a failure and a dead delivery).
import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Page } from 'playwright-core'
import { launchBrowser, openPortal, portalUser, signInPage } from '../test/support/browser.js'
import { hooked } from '../test/support/hooked.js'
import { startService } from '../test/support/service.js'

const out = fileURLToPath(new URL('../docs/screenshots/', import.meta.url))
mkdirSync(out, { recursive: true })

const svc = await startService({
  env: { ALLOW_PRIVATE_NETWORK: 'true', WEBHOOK_RETRY_SCHEDULE: '0.05,0.05' },
})
const s = await hooked(svc, {
  accounts: [],
  mapped: [],
  stopAt: 'mapping',
  rule: null,
  vendorFields: { name: 'Acme Security' },
})
const vendor = (method: string, path: string, body: unknown) =>
  svc.request(method, path, { token: s.vendorToken, body })
const accounts = [
  ['acme-001', 'ACME Corp.', '100'],
  ['globex-002', 'Globex Inc', '101'],
  ['initech-003', 'Initech LLC', null],
  ['umbrella-004', 'Umbrella Health', null],
  ['hooli-005', 'Hooli', null],
] as const
for (const [vendorAccountId, name] of accounts)
  await vendor('POST', '/api/vendor-api/organization/accounts', {
    vendorAccountId,
    name,
    externalId: vendorAccountId,
  })
await vendor('POST', '/api/vendor-api/organization/services', { id: 'seats', name: 'Protected endpoints' })
for (const [id, , company] of accounts)
  if (company)
    await s.partner('PUT', `/api/partner/integrations/${s.integrationId}/accounts/${id}`, {
      psaCompanyId: company,
    })
const rules = `/api/partner/integrations/${s.integrationId}/rules`
await s.partner('POST', rules, {
  productGroup: 'Endpoint Security',
  alertTypes: ['Ransomware Behaviour'],
  precedence: 10,
  ticket: { priority: 'p1', board: 'security' },
})
await s.partner('POST', rules, {
  productGroup: 'Endpoint Security',
  precedence: 20,
  ticket: { priority: 'p3' },
})
await s.partner('POST', rules, {
  productGroup: 'Backup',
  alertTypes: ['Backup Warning'],
  action: 'suppress',
  precedence: 30,
})
await s.partner('POST', `/api/partner/integrations/${s.integrationId}/complete-mapping`)

// Alerts: tickets, an update, a close, a suppression, a failure, and a webhook delivery that dies.
const ok = (title: string, data: Record<string, unknown> = {}) => s.sync({ title, ...data })
const first = await ok('Ransomware behaviour on FILESRV-01', { alertType: 'Ransomware Behaviour' })
const corr = first.body.data.correlationID as string
await ok('Malware detected on WS-042')
await ok('Agent offline on LAPTOP-17', { alertType: 'Agent Offline', accountId: 'globex-002' })
await ok('Backup warning on NAS-2', { productGroup: 'Backup', alertType: 'Backup Warning' })
await s.sync(
  { incidentStatus: 'UPDATE', title: 'Ransomware behaviour: 12 files encrypted' },
  { correlationId: corr },
)
await s.partner('PUT', '/api/partner/sandbox/fault', { mode: 'error', operations: ['append'] })
await s.sync(
  { incidentStatus: 'UPDATE', title: 'Ransomware behaviour: process killed' },
  { correlationId: corr },
)
await s.partner('DELETE', '/api/partner/sandbox/fault')
await ok('Alert for an unmapped account', { accountId: 'hooli-005' })
const resolved = await ok('Malware detected on WS-099')
await s.sync(
  { incidentStatus: 'RESOLVED', title: 'Malware removed' },
  { correlationId: resolved.body.data.correlationID },
)
s.receiver.respond((r) => (r.body?.eventType === 'status_update' ? 500 : 204))
await s.post({ title: 'Malware detected on WS-100' })
await new Promise((r) => setTimeout(r, 1500))

const admin = await portalUser(svc, s.partnerId, 'admin', 'dana.dispatch@msp.example')
await portalUser(svc, s.partnerId, 'viewer', 'victor.viewer@msp.example')

const browser = await launchBrowser()
const shoot = async (page: Page, name: string) => {
  await page.waitForLoadState('networkidle')
  await page.screenshot({ path: `${out}${name}.png`, fullPage: true })
  process.stdout.write(`docs/screenshots/${name}.png\n`)
}
try {
  const { page, close } = await openPortal(browser, svc, { width: 1280, height: 800 })
  await page.goto('/sign-in')
  await page.getByLabel('Email').fill(admin.email)
  await shoot(page, 'sign-in')
  await signInPage(page, admin)
  await page.getByText('connected', { exact: true }).first().waitFor()
  await shoot(page, 'integrations')
  await page.goto(`/integrations/${s.integrationId}/setup/accounts`)
  await page.getByText('Suggested:').first().waitFor()
  await page.getByRole('button', { name: 'Choose a company for Initech LLC' }).click()
  await page.getByRole('button', { name: 'Map here — Initech LLC to Initech' }).waitFor()
  await shoot(page, 'wizard-accounts')
  await page.goto(`/integrations/${s.integrationId}/rules`)
  await page.getByRole('button', { name: 'Test alert' }).click()
  await page.getByTestId('dry-run-summary').waitFor()
  await shoot(page, 'rules')
  await page.goto(`/integrations/${s.integrationId}/settings`)
  await page.getByLabel('Alerting').waitFor()
  await shoot(page, 'settings')
  await page.goto('/tickets')
  await page.getByRole('link', { name: 'Ransomware behaviour on FILESRV-01' }).click()
  await page.getByText('Failed To Update Ticket').first().waitFor()
  await shoot(page, 'ticket')
  await page.goto('/tickets')
  await page.getByRole('link', { name: 'Malware detected on WS-042' }).waitFor()
  await shoot(page, 'tickets')
  await page.goto('/dashboard')
  await page.locator('canvas').waitFor()
  await page
    .getByRole('button', { name: /^Replay delivery/ })
    .first()
    .waitFor()
  await shoot(page, 'dashboard')
  await page.goto('/users')
  await page.getByText('victor.viewer@msp.example', { exact: true }).waitFor()
  await shoot(page, 'users')
  await close()

  const phone = await openPortal(browser, svc, { width: 390, height: 844 })
  await signInPage(phone.page, admin)
  await phone.page.getByText('connected', { exact: true }).first().waitFor()
  await shoot(phone.page, 'integrations-phone')
  await phone.close()
} catch (err) {
  const pages = browser.contexts().flatMap((c) => c.pages())
  if (pages[0]) await pages[0].screenshot({ path: `${out}failed.png`, fullPage: true })
  throw err
} finally {
  await browser.close()
  await svc.close()
  await s.receiver.close()
}
