// The catch-all account in headless Chromium (docs/partner-api.md#catch-all-account): on the
// integration's settings page an admin turns the catch-all on, sees an unmapped account with its alert
// count and maps it in a click; its open catch-all ticket is moved (the sandbox can).
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Browser } from 'playwright-core'
import { browserSkip, launchBrowser, openPortal, portalUser, signInPage } from '../../support/browser.js'
import { type Setup, setupIntegration } from '../../support/fixtures.js'
import { startService, type TestService } from '../../support/service.js'

describe('the portal lists unmapped accounts and maps one', { skip: browserSkip }, () => {
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

  test('turn the catch-all on, see the account and its count, map it', async () => {
    const admin = await portalUser(svc, s.partnerId, 'admin')
    const { page, problems, close } = await openPortal(browser, svc)
    try {
      await signInPage(page, admin, `/integrations/${s.integrationId}/settings`)
      const form = page.getByRole('form', { name: 'Catch-all account' })
      await form.getByLabel('Send alerts of unmapped accounts to a catch-all company').check()
      // Companies are picked by name from the PSA's list.
      await form.getByLabel('Catch-all PSA company').selectOption({ label: 'Initech' })
      await form.getByRole('button', { name: 'Save catch-all' }).click()
      await form.getByText('Catch-all saved.').waitFor()
      assert.equal(
        (await s.partner('GET', `/api/partner/integrations/${s.integrationId}`)).body.catchAll.psaCompanyId,
        '102',
      )

      const opened = await s.sync({ accountId: 'globex-002' })
      assert.equal(opened.status, 201, opened.text)
      await s.sync({ accountId: 'globex-002' })
      await page.reload()
      const table = page.getByRole('table', { name: 'Unmapped accounts' })
      const row = table.getByRole('row', { name: /globex-002/ })
      await row.waitFor()
      assert.match((await row.textContent()) ?? '', /Company globex-002.*globex-002\s*2\s*1/)
      await row.getByLabel('PSA company for Company globex-002').selectOption({ label: 'Globex' })
      await row.getByRole('button', { name: 'Map Company globex-002' }).click()
      await page
        .getByText(/Mapped Company globex-002 to Globex: 1 catch-all ticket\(s\) moved, 0 noted/)
        .waitFor()
      await page.getByText('No alert has come for an unmapped account.').waitFor()
      const t = (await s.partner('GET', `/api/partner/tickets/${opened.body.data.correlationID}`)).body
      const sandbox = (await s.partner('GET', '/api/partner/sandbox/tickets')).body.data
      assert.equal(sandbox.find((x: { id: string }) => x.id === t.psaTicketId).companyId, '101')
      assert.deepEqual(problems, [])
    } finally {
      await close()
    }
  })
})
