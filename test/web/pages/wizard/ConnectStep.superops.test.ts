// The portal's Connect step with SuperOps, in headless Chromium, against the SuperOps simulator: the
// partner picks SuperOps, fills the endpoint, the subdomain and the token, saves (the service tests the
// connection), picks the ticket defaults from SuperOps' own lists — the technician group and the closed
// status — and the test says in plain words which statuses close and that changes are polled.
import assert from 'node:assert/strict'
import { connectStepSuite } from '../../../support/connect-step.js'
import { API_TOKEN, SUBDOMAIN, startSuperOpsSim } from '../../../support/sims/superops/server.js'

connectStepSuite('SuperOps', () => startSuperOpsSim(), {
  'connect SuperOps, pick the defaults from its lists, and read what the test found': async ({
    page,
    sim,
    setup,
  }) => {
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
  },
})
