// The rule tester in headless Chromium, as a service manager uses it: the alert built from fields
// (account by name, product group and alert type from the catalogue, status, title, an extra field),
// the answer in plain words announced in a role="status" region, the technical detail in a closed
// <details>, and "Edit as JSON" round-tripping with the fields.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Browser } from 'playwright-core'
import { browserSkip, launchBrowser, openPortal, portalUser, signInPage } from '../../support/browser.js'
import { type Setup, setupIntegration } from '../../support/fixtures.js'
import { startService, type TestService } from '../../support/service.js'

describe('the rule tester in plain words', { skip: browserSkip }, () => {
  let svc: TestService
  let browser: Browser
  let setup: Setup
  let admin: { email: string; password: string }
  before(async () => {
    browser = await launchBrowser()
    svc = await startService()
    setup = await setupIntegration(svc, {
      rule: { productGroup: 'Endpoint Security', ticket: { board: 'security', priority: 'p1' } },
    })
    admin = await portalUser(svc, setup.partnerId, 'admin')
  })
  after(async () => {
    await browser?.close()
    await svc?.close()
  })

  test('an alert built from fields: the sentence announced, the detail behind a closed disclosure; JSON round-trips', async () => {
    const before = await svc.snapshot()
    const { page, problems, close } = await openPortal(browser, svc)
    try {
      await signInPage(page, admin, `/integrations/${setup.integrationId}/rules`)
      const tester = page.getByRole('region', { name: 'Rule tester' })
      const account = tester.getByLabel('Account', { exact: true })
      await account.locator('option', { hasText: 'Company acme-001' }).waitFor({ state: 'attached' })
      await account.selectOption({ label: 'Company acme-001' })
      await tester.getByLabel('Product group').selectOption('Endpoint Security')
      await tester.getByLabel('Alert type').selectOption('Malware Detected')
      await tester.getByLabel('Status', { exact: true }).selectOption('OPEN')
      await tester.getByLabel('Title', { exact: true }).fill('Malware on WS-7')
      await tester.getByRole('button', { name: 'Add an extra field' }).click()
      await tester.getByLabel('Name of extra field 1').fill('severity')
      await tester.getByLabel('Value of extra field 1').fill('critical')
      await tester.getByRole('button', { name: 'Test alert' }).click()

      const status = tester.getByRole('status')
      await status
        .getByText('This alert would open a ticket in Acme Corporation on the Security board.')
        .waitFor()
      await tester
        .getByText('New ticket: board: Security · priority: P1 - Critical · type: PSA default')
        .waitFor()
      // The technical detail is there, closed: the row and action are not visible until it is opened.
      const details = tester.locator('details', {
        has: page.locator('summary', { hasText: 'Technical detail' }),
      })
      assert.equal(await details.getAttribute('open'), null, 'the technical detail starts closed')
      assert.equal(await tester.getByTestId('dry-run-action').isVisible(), false)
      await details.locator('summary').click()
      await tester.getByTestId('dry-run-action').filter({ hasText: 'create' }).waitFor()
      await details.getByText(/Rule .* matches; a new ticket would be created/).waitFor()

      // Fields → JSON: the same alert, the extra field beside the contract's.
      await tester.getByRole('button', { name: 'Edit as JSON' }).click()
      const json = tester.getByLabel('Alert data (JSON)')
      const shown = JSON.parse(await json.inputValue())
      assert.deepEqual(shown, {
        title: 'Malware on WS-7',
        productGroup: 'Endpoint Security',
        alertType: 'Malware Detected',
        accountId: 'acme-001',
        incidentStatus: 'OPEN',
        severity: 'critical',
      })
      // Edited as JSON, then back to fields: the fields follow the JSON.
      await json.fill(
        JSON.stringify({ ...shown, accountId: 'globex-002', title: 'Disk full', severity: 'low' }),
      )
      await tester.getByRole('button', { name: 'Edit as fields' }).click()
      assert.equal(await tester.getByLabel('Title', { exact: true }).inputValue(), 'Disk full')
      assert.equal(await tester.getByLabel('Account', { exact: true }).inputValue(), 'globex-002')
      assert.equal(await tester.getByLabel('Value of extra field 1').inputValue(), 'low')
      await tester.getByRole('button', { name: 'Test alert' }).click()
      await status
        .getByText(
          'This alert would fail: Company globex-002 is not mapped to a PSA company. Map it on the Map accounts step.',
        )
        .waitFor()

      // JSON that the fields cannot hold stays JSON, said in plain words.
      await tester.getByRole('button', { name: 'Edit as JSON' }).click()
      await json.fill('{"title": ')
      await tester.getByRole('button', { name: 'Edit as fields' }).click()
      await tester.getByText('The alert is not valid JSON').waitFor()
      assert.equal(await json.isVisible(), true)
      assert.deepEqual(problems, [])
    } finally {
      await close()
    }
    const afterwards = await svc.snapshot()
    for (const table of ['tickets', 'events', 'sandbox_tickets', 'rules'] as const)
      assert.deepEqual(afterwards[table], before[table], `${table} unchanged by the tester`)
  })

  test('an integration still being set up: what to do, in words', async () => {
    const setting = await setupIntegration(svc, { stopAt: 'mapping' })
    const user = await portalUser(svc, setting.partnerId, 'admin')
    const { page, problems, close } = await openPortal(browser, svc, { width: 390, height: 844 })
    try {
      await signInPage(page, user, `/integrations/${setting.integrationId}/rules`)
      const tester = page.getByRole('region', { name: 'Rule tester' })
      await tester
        .getByLabel('Account', { exact: true })
        .locator('option', { hasText: 'Company acme-001' })
        .waitFor({ state: 'attached' })
      await tester.getByRole('button', { name: 'Test alert' }).click()
      await tester
        .getByRole('status')
        .getByText(
          'This alert would fail: the integration is still being set up. Finish the set-up on the Review step.',
        )
        .waitFor()
      assert.deepEqual(problems, [])
    } finally {
      await close()
    }
  })
})
