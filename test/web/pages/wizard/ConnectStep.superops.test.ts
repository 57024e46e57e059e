// The portal's Connect step with SuperOps, in headless Chromium, against the SuperOps simulator: the
// partner picks SuperOps, fills the endpoint, the subdomain and the token, saves (the service tests the
// connection), picks the ticket defaults from SuperOps' own lists — the technician group and the closed
// status — and the test says in plain words which statuses close and that changes are polled.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Browser } from 'playwright-core'
import { browserSkip, launchBrowser, openPortal, portalUser, signInPage } from '../../../support/browser.js'
import { type Setup, setupIntegration } from '../../../support/fixtures.js'
import { startService, type TestService } from '../../../support/service.js'
import {
  API_TOKEN,
  SUBDOMAIN,
  type SuperOpsSim,
  startSuperOpsSim,
} from '../../../support/sims/superops/server.js'

describe('the Connect step with SuperOps', { skip: browserSkip }, () => {
  let svc: TestService
  let sim: SuperOpsSim
  let browser: Browser
  let setup: Setup
  let admin: { email: string; password: string }
  before(async () => {
    browser = await launchBrowser()
    sim = await startSuperOpsSim()
    svc = await startService({ env: { ALLOW_PRIVATE_NETWORK: 'true' } })
    setup = await setupIntegration(svc, { stopAt: 'mapping', accounts: [], mapped: [], rule: null })
    admin = await portalUser(svc, setup.partnerId, 'admin')
  })
  after(async () => {
    await browser?.close()
    await svc?.close()
    await sim?.close()
  })

  test('connect SuperOps, pick the defaults from its lists, and read what the test found', async () => {
    const { page, problems, close } = await openPortal(browser, svc)
    try {
      await signInPage(page, admin)
      await page.getByRole('link', { name: /^Continue setup/ }).click()
      await page.getByRole('heading', { name: 'Set up: Connect PSA' }).waitFor()
      await page.getByLabel('PSA', { exact: true }).selectOption({ label: 'SuperOps' })
      await page.getByLabel('API endpoint').fill(sim.endpoint)
      await page.getByLabel('Subdomain').fill(SUBDOMAIN)
      await page.getByLabel('API token').fill(API_TOKEN)
      await page.getByRole('button', { name: 'Save connection' }).click()
      await page.getByText('Saved. The PSA answered the test.').waitFor()

      // The defaults come from SuperOps' own lists: a technician group, a status that closes.
      const board = page.getByLabel('Board / queue')
      await board.locator('option', { hasText: 'Security Operations' }).waitFor({ state: 'attached' })
      await board.selectOption({ label: 'Security Operations' })
      const closed = page.getByLabel('Closed status')
      await closed.locator('option', { hasText: 'Resolved' }).waitFor({ state: 'attached' })
      await closed.selectOption({ label: 'Resolved' })
      await page.getByRole('button', { name: 'Save connection' }).click()
      await page.getByText('Saved. The PSA answered the test.').waitFor()
      const saved = await setup.partner('GET', '/api/partner/psa')
      assert.equal(saved.body.kind, 'superops')
      assert.deepEqual(saved.body.defaults, { board: '7002', closedStatus: '7' })
      assert.equal(saved.body.apiToken, '********', 'the token is never shown back')

      await page.getByRole('button', { name: 'Test connection' }).click()
      await page.getByText('Connected.').waitFor()
      const detail = await page.getByText(/heard by polling/).textContent()
      assert.match(detail ?? '', /statuses have no closed flag/)
      assert.match(detail ?? '', /closes a ticket with 'Resolved'/)
      assert.deepEqual(problems, [])
    } finally {
      await close()
    }
  })
})
