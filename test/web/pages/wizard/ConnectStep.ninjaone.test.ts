// The Connect step with NinjaOne, in headless Chromium against the NinjaOne simulator: the partner
// saves the API application's credentials, presses "Connect NinjaOne", approves on NinjaOne's consent
// page (the simulator's), and comes back to the Connect step connected: the refresh token is kept
// (masked), and the connection test answers.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Browser } from 'playwright-core'
import { browserSkip, launchBrowser, openPortal, portalUser, signInPage } from '../../../support/browser.js'
import { type Setup, setupIntegration } from '../../../support/fixtures.js'
import { startService, type TestService } from '../../../support/service.js'
import { type NinjaOneSim, startNinjaOneSim } from '../../../support/sims/ninjaone/server.js'

describe('the Connect step with NinjaOne', { skip: browserSkip }, () => {
  let svc: TestService
  let sim: NinjaOneSim
  let browser: Browser
  let setup: Setup
  let admin: { email: string; password: string }
  before(async () => {
    browser = await launchBrowser()
    sim = await startNinjaOneSim({ organizations: 20, tickets: 5 })
    svc = await startService({ env: { ALLOW_PRIVATE_NETWORK: 'true' } })
    setup = await setupIntegration(svc, { stopAt: 'mapping', accounts: [], mapped: [], rule: null })
    admin = await portalUser(svc, setup.partnerId, 'admin')
  })
  after(async () => {
    await browser?.close()
    await svc?.close()
    await sim?.close()
  })

  test('save the application, connect through the consent page, test', async () => {
    const { page, problems, close } = await openPortal(browser, svc)
    try {
      await signInPage(page, admin)
      await page.goto(`/integrations/${setup.integrationId}/setup/connect`)
      await page.getByRole('heading', { name: 'Set up: Connect PSA' }).waitFor()
      await page.getByLabel('PSA', { exact: true }).selectOption({ label: 'NinjaOne' })
      await page.getByLabel('Instance URL').fill(sim.url)
      await page.getByLabel('Client id').fill(sim.state.credentials.clientId)
      await page.getByLabel('Client secret').fill(sim.state.credentials.clientSecret)
      await page.getByRole('button', { name: 'Save connection' }).click()
      // Saved, but NinjaOne has no user yet: the test says how to connect one.
      await page.getByText(/Saved, but the PSA refused the test: .*Connect NinjaOne/).waitFor()

      await page.getByRole('button', { name: 'Connect NinjaOne', exact: true }).click()
      await page.waitForURL(`${sim.url}/ws/oauth/authorize?**`)
      await page.getByRole('heading', { name: 'Allow alertbridge to access NinjaOne?' }).waitFor()
      await page.getByRole('button', { name: 'Approve' }).click()

      await page.waitForURL(`${svc.url}/integrations/${setup.integrationId}/setup/connect?ninjaone=connected`)
      await page.getByText("NinjaOne is connected: alertbridge keeps the user's refresh token.").waitFor()
      await page.getByRole('button', { name: 'Test connection' }).click()
      await page.getByText('Connected.').waitFor()
      await page.getByText(/ticket form 'Default'/).waitFor()
      const saved = await setup.partner('GET', '/api/partner/psa')
      assert.equal(saved.body.kind, 'ninjaone')
      assert.equal(saved.body.refreshToken, '********')
      assert.equal(page.url().includes('ninja-rt-'), false, 'no token in the portal’s URL')
      assert.deepEqual(problems, [])
    } finally {
      await close()
    }
  })
})
