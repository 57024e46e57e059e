// Names, not ids, in headless Chromium (docs/partner-api.md#names): the rules list says the PSA's names of
// a rule's board, priority, type and statuses; the tickets list and a ticket's page name the account,
// the vendor and the PSA company, with ids as secondary text; activity names the vendor. The sandbox PSA
// lists the names (company 100 Acme Corporation, board security Security, priority p1 P1 - Critical…).
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Browser } from 'playwright-core'
import { browserSkip, launchBrowser, openPortal, portalUser, signInPage } from '../../support/browser.js'
import { type Setup, setupIntegration } from '../../support/fixtures.js'
import { startService, type TestService } from '../../support/service.js'

describe('names, not ids, on the rules, tickets and activity screens', { skip: browserSkip }, () => {
  let svc: TestService
  let browser: Browser
  let setup: Setup
  let viewer: { email: string; password: string }
  let correlationId: string
  before(async () => {
    browser = await launchBrowser()
    svc = await startService()
    setup = await setupIntegration(svc, {
      vendorName: 'Contoso Backup',
      rule: {
        productGroup: 'Endpoint Security',
        ticket: { board: 'security', priority: 'p1', type: 'alert', status: 'new', closedStatus: 'Closed' },
      },
    })
    const created = await setup.sync()
    assert.equal(created.status, 201, created.text)
    correlationId = created.body.data.correlationID
    viewer = await portalUser(svc, setup.partnerId, 'viewer')
  })
  after(async () => {
    await browser?.close()
    await svc?.close()
  })

  test('the rules list, the tickets list, a ticket and activity show names', async () => {
    const { page, problems, close } = await openPortal(browser, svc)
    try {
      await signInPage(page, viewer, `/integrations/${setup.integrationId}/rules`)
      // Once signed in (before it, the session check's 401 is expected): no console error.
      const consoleErrors: string[] = []
      page.on('console', (m) => {
        if (m.type() === 'error') consoleErrors.push(m.text())
      })
      const rule = page.getByRole('listitem', { name: 'rule 1 (Endpoint Security: every alert type)' })
      await rule
        .getByText(
          'Tickets with board Security · priority P1 - Critical · type Alert · status New · closes as Closed',
        )
        .waitFor()

      await page.goto('/tickets')
      const row = page.getByRole('row').filter({ hasText: 'Malware detected on WS-042' })
      await row.getByRole('cell', { name: 'Company acme-001 acme-001' }).waitFor()
      await row.getByText('in Acme Corporation').waitFor()
      await row.getByText('Contoso Backup ·').waitFor()

      await row.getByRole('link', { name: 'Malware detected on WS-042' }).click()
      await page.getByRole('heading', { name: 'Malware detected on WS-042' }).waitFor()
      const fact = (term: string) =>
        page.locator('dt', { hasText: term }).locator('xpath=following-sibling::dd[1]')
      assert.equal((await fact('Account').textContent())?.trim(), 'Company acme-001 acme-001')
      assert.equal((await fact('PSA company').textContent())?.trim(), 'Acme Corporation 100')
      assert.equal((await fact('Integration').textContent())?.trim(), 'Contoso Backup')
      assert.ok(!(await page.getByText(setup.integrationId).isVisible()), 'no integration id on the page')

      await page.goto(`/activity?integrationId=${setup.integrationId}`)
      await page.getByText('Integration Contoso Backup.').waitFor()
      const event = page.getByRole('row').filter({ hasText: correlationId })
      await event.getByText('Contoso Backup').waitFor()
      assert.deepEqual(problems, [])
      assert.deepEqual(consoleErrors, [])
    } finally {
      await close()
    }
  })
})
