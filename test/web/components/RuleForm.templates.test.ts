// The rule editor's conditions and ticket templates in headless Chromium: the preview follows the
// template as it is typed (an unknown placeholder is said at once), and the saved rule carries both.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Browser } from 'playwright-core'
import { browserSkip, launchBrowser, openPortal, portalUser, signInPage } from '../../support/browser.js'
import { type Setup, setupIntegration } from '../../support/fixtures.js'
import { startService, type TestService } from '../../support/service.js'

describe('rule editor: conditions and templates', { skip: browserSkip }, () => {
  let svc: TestService
  let browser: Browser
  let setup: Setup
  let admin: { email: string; password: string }
  before(async () => {
    browser = await launchBrowser()
    svc = await startService()
    setup = await setupIntegration(svc, { rule: { productGroup: 'Endpoint Security' } })
    admin = await portalUser(svc, setup.partnerId, 'admin')
  })
  after(async () => {
    await browser?.close()
    await svc?.close()
  })

  test('the preview renders as the partner types; the rule saves conditions and templates', async () => {
    const { page, problems, close } = await openPortal(browser, svc)
    try {
      await signInPage(page, admin, `/integrations/${setup.integrationId}/rules`)
      await page.getByRole('button', { name: 'Edit rule 1 (Endpoint Security: every alert type)' }).click()
      const form = page.getByRole('form', { name: 'Change rule' })
      await form.getByLabel('Title template').fill('[{{accountId}}] {{title}}')
      await page
        .getByTestId('preview-title')
        .filter({ hasText: '[sample-account] Disk C: is 95% full' })
        .waitFor()
      await form.getByLabel('Title template').fill('{{nope}} {{title}}')
      await form.getByText('unknown placeholder {{nope}}').waitFor()
      await form.getByLabel('Title template').fill('P1: {{title}}')
      await page.getByTestId('preview-title').filter({ hasText: 'P1: Disk C: is 95% full' }).waitFor()

      await form.getByRole('button', { name: 'Add condition' }).click()
      await form.getByLabel('Field').fill('severity')
      await form.getByLabel('Test').selectOption('equals')
      await form.getByLabel('Value').fill('critical')
      await form.getByRole('button', { name: 'Save rule' }).click()
      await form.waitFor({ state: 'detached' })
      const rules = await setup.partner('GET', `/api/partner/integrations/${setup.integrationId}/rules`)
      assert.deepEqual(rules.body.data[0].templates, { title: 'P1: {{title}}', description: null })
      assert.deepEqual(rules.body.data[0].conditions, [{ field: 'severity', equals: 'critical' }])
      assert.deepEqual(
        problems.filter((p) => !/400/.test(p)),
        [],
      )
    } finally {
      await close()
    }
  })
})
