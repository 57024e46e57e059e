// The Connect step with NinjaOne, in headless Chromium against the NinjaOne simulator: the partner
// saves the API application's credentials, presses "Connect NinjaOne", approves on NinjaOne's consent
// page (the simulator's), and comes back to the Connect step connected: the refresh token is kept
// (masked), and the connection test answers.
import assert from 'node:assert/strict'
import { connectStepSuite } from '../../../support/connect-step.js'
import { startNinjaOneSim } from '../../../support/sims/ninjaone/server.js'

connectStepSuite('NinjaOne', () => startNinjaOneSim({ organizations: 20, tickets: 5 }), {
  'save the application, connect through the consent page, test': async ({ page, sim, svc, setup }) => {
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
  },
})
