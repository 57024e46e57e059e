// Storm control in headless Chromium (docs/partner-api.md#storm-control): on the integration's settings
// page an admin turns storm control on with a cap and a window.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Browser } from 'playwright-core'
import { browserSkip, launchBrowser, openPortal, portalUser, signInPage } from '../../support/browser.js'
import { type Setup, setupIntegration } from '../../support/fixtures.js'
import { startService, type TestService } from '../../support/service.js'

describe('the portal sets storm control', { skip: browserSkip }, () => {
  let svc: TestService
  let browser: Browser
  let s: Setup
  before(async () => {
    browser = await launchBrowser()
    svc = await startService()
    s = await setupIntegration(svc)
  })
  after(async () => {
    await browser?.close()
    await svc?.close()
  })

  test('turn storm control on with a cap and a window', async () => {
    const admin = await portalUser(svc, s.partnerId, 'admin')
    const { page, problems, close } = await openPortal(browser, svc)
    try {
      await signInPage(page, admin, `/integrations/${s.integrationId}/settings`)
      const form = page.getByRole('form', { name: 'Storm control' })
      await form.getByLabel('Fold alert storms into one ticket per account').check()
      await form.getByLabel('New tickets per account').fill('5')
      await form.getByLabel('Within minutes').fill('15')
      await form.getByRole('button', { name: 'Save storm control' }).click()
      await page.getByText('Storm control saved.').waitFor()
      const shown = await s.partner('GET', `/api/partner/integrations/${s.integrationId}`)
      assert.deepEqual(shown.body.storm, {
        enabled: true,
        maxTicketsPerAccount: 5,
        maxTicketsPerIntegration: null,
        windowMinutes: 15,
      })
      assert.deepEqual(problems, [])
    } finally {
      await close()
    }
  })
})
