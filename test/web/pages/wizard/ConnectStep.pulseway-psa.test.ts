// The wizard's Connect step in headless Chromium, connecting Pulseway PSA against its simulator: the
// partner picks Pulseway PSA, leaves the API host to the simulator's address, enters the tenant and
// the API Employee's credentials, saves (the service tests the connection), then picks the ticket
// source from Pulseway's own list, saves again, and the connection test says in plain words what it
// found — the tables, the closed statuses, and that Pulseway is heard by polling.
import assert from 'node:assert/strict'
import { connectStepSuite } from '../../../support/connect-step.js'
import { startPulsewayPsaSim } from '../../../support/sims/pulseway-psa/server.js'

connectStepSuite('Pulseway PSA', () => startPulsewayPsaSim({ accounts: 30, tickets: 20 }), {
  'connects, picks the ticket source from Pulseway’s list, and the test says sync is by poll': async ({
    page,
    sim,
    setup,
  }) => {
    await page.getByText('mapping', { exact: true }).waitFor()
    await page.getByRole('link', { name: /^Continue setup/ }).click()
    await page.getByRole('heading', { name: 'Set up: Connect PSA' }).waitFor()

    await page.getByLabel('PSA', { exact: true }).selectOption('pulseway-psa')
    await page.getByLabel('API host (optional)').fill(sim.url)
    await page.getByLabel('Tenant').fill('Acme MSP')
    await page.getByLabel('User name').fill('api@acme-msp.example')
    await page.getByLabel('Password').fill('pulseway-password')
    await page.getByRole('button', { name: 'Save connection' }).click()
    await page.getByText('Saved. The PSA answered the test.').waitFor()

    // The source is picked from Pulseway's own list, once the connection is saved.
    const source = page.getByLabel('Ticket source')
    await source.locator('option', { hasText: 'Monitoring System' }).waitFor({ state: 'attached' })
    await source.selectOption({ label: 'Monitoring System' })
    await page.getByRole('button', { name: 'Save connection' }).click()
    await page.getByText('Saved. The PSA answered the test.').waitFor()
    const saved = await setup.partner('GET', '/api/partner/psa')
    assert.equal(saved.body.kind, 'pulseway-psa')
    const sourceId = sim.state.lists.sources.find((s) => s.name === 'Monitoring System')?.id
    assert.equal(saved.body.source, String(sourceId))
    assert.notEqual(saved.body.password, 'pulseway-password', 'the password is never shown back')

    await page.getByRole('button', { name: 'Test connection' }).click()
    await page.getByText('Connected.').waitFor()
    const detail = await page.locator('p', { hasText: 'Connected to Pulseway PSA at ' }).textContent()
    assert.match(String(detail), /Monitoring System/)
    assert.match(String(detail), /statuses that count as closed: /)
    assert.match(String(detail), /publishes no webhooks, so alertbridge polls it/)
  },
})
