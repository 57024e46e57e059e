// The setup wizard's suggested matches in headless Chromium, for a partner with many accounts: each
// suggestion with its reason and confidence, found without one request per account; every confident
// one taken in one click and one call, the rest left to review; buttons whose accessible names start
// with their visible text (axe-core's label-content-name-mismatch and nothing serious).
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { after, before, describe, test } from 'node:test'
import type { Browser } from 'playwright-core'
import { browserSkip, launchBrowser, openPortal, portalUser, signInPage } from '../../../support/browser.js'
import { type Setup, setupIntegration } from '../../../support/fixtures.js'
import { startService, type TestService } from '../../../support/service.js'

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
// label-content-name-mismatch is experimental in axe-core: named to run.
const runAxe = `(async () => {
  const result = await axe.run(document, {
    resultTypes: ['violations'],
    rules: { 'label-content-name-mismatch': { enabled: true } },
  })
  return result.violations
    .filter((v) => v.id === 'label-content-name-mismatch' || v.impact === 'serious' || v.impact === 'critical')
    .map((v) => v.id + ': ' + v.nodes.slice(0, 4).map((n) => n.target.join(' ')).join(' | '))
})()`

const confident = 40

describe('suggested matches for many accounts', { skip: browserSkip }, () => {
  let svc: TestService
  let browser: Browser
  let setup: Setup
  let admin: { email: string; password: string }
  before(async () => {
    browser = await launchBrowser()
    svc = await startService()
    const companies = [
      ...Array.from({ length: confident }, (_, i) => ({ id: `c${i}`, name: `Harbor ${i} Clinic Ltd` })),
      { id: 'nw', name: 'Northwind Traders' },
      { id: 'wg-west', name: 'Woodgrove Bank - West' },
      { id: 'dental', name: 'Acme Dental' },
    ]
    setup = await setupIntegration(svc, {
      stopAt: 'mapping',
      accounts: [],
      mapped: [],
      rule: null,
      psa: { kind: 'sandbox', companies },
    })
    const accounts = [
      ...Array.from({ length: confident }, (_, i) => ({
        vendorAccountId: `harbor-${String(i).padStart(2, '0')}`,
        name: `HARBOR ${i} CLINIC - Branch Operations`,
      })),
      { vendorAccountId: 'northwind', name: 'Northwind Trader' },
      { vendorAccountId: 'woodgrove-east', name: 'Woodgrove Bank - East' },
      { vendorAccountId: 'acme-legal', name: 'Acme Legal' },
      { vendorAccountId: 'zz-umbrella', name: 'Umbrella Health' },
    ]
    const res = await svc.request('POST', '/api/vendor-api/organization/accounts', {
      token: setup.vendorToken,
      body: accounts,
    })
    assert.equal(res.status, 200, res.text)
    admin = await portalUser(svc, setup.partnerId, 'admin')
  })
  after(async () => {
    await browser?.close()
    await svc?.close()
  })

  test('every confident suggestion in one click, the possible ones left to review', async () => {
    const { page, problems, close } = await openPortal(browser, svc)
    // Console errors once signed in (the sign-in screen's own are the sign-in tests' business).
    const consoleErrors: string[] = []
    let signedIn = false
    page.on('console', (msg) => {
      if (signedIn && msg.type() === 'error') consoleErrors.push(msg.text())
    })
    const calls: string[] = []
    page.on('request', (r) => {
      const url = new URL(r.url())
      if (url.pathname.startsWith('/api/partner/')) calls.push(`${r.method()} ${url.pathname}${url.search}`)
    })
    try {
      await signInPage(page, admin, `/integrations/${setup.integrationId}/setup/accounts`)
      signedIn = true
      await page.getByRole('heading', { name: 'Set up: Map accounts' }).waitFor()
      await page.getByText(`${confident} confident suggestions`, { exact: true }).waitFor()
      // Northwind (similar), Woodgrove East (another branch), Acme Legal (similar to the sandbox's Acme Corporation).
      await page.getByText('3 possible matches', { exact: true }).waitFor()
      // Each row says what it suggests, how sure, and why.
      const harbor = page.getByRole('row', { name: /HARBOR 0 CLINIC/ })
      await harbor
        .getByText("Same name once 'Ltd' and the branch ' - Branch Operations' are ignored")
        .waitFor()
      await harbor.getByText('confident', { exact: true }).waitFor()
      await harbor
        .getByRole('button', {
          name: 'Use suggestion to map HARBOR 0 CLINIC - Branch Operations to Harbor 0 Clinic Ltd',
        })
        .waitFor()
      await page.getByRole('button', { name: 'Choose a company for Acme Legal' }).waitFor()
      const legal = page.getByRole('row', { name: /Acme Legal/ })
      await legal.getByText('possible', { exact: true }).waitFor()
      assert.equal(await legal.getByText('Acme Dental').count(), 0, 'a false friend is not suggested')

      // One look-up of the companies for every suggestion, not one per account.
      const lookups = calls.filter((c) => c.startsWith('GET /api/partner/psa/companies'))
      assert.ok(lookups.length <= 2, lookups.join('\n'))

      await page.evaluate(axeSource)
      assert.deepEqual(await page.evaluate(runAxe), [])

      calls.length = 0
      await page.getByRole('button', { name: `Use all ${confident} confident suggestions` }).click()
      await page
        .getByText(
          `${confident} accounts were mapped to the suggested company. 3 possible matches are left to review.`,
        )
        .waitFor()
      assert.deepEqual(
        calls.filter((c) => !c.startsWith('GET ')),
        [`PATCH /api/partner/integrations/${setup.integrationId}/accounts`],
      )
      // The list now shows the accounts left: three with a possible match, one with none.
      assert.equal(await page.getByLabel('Show').inputValue(), 'unmapped')
      await page
        .getByRole('row', { name: /HARBOR/ })
        .first()
        .waitFor({ state: 'detached' })
      await page.getByRole('row', { name: /Umbrella Health/ }).waitFor()
      assert.equal(await page.getByRole('button', { name: /^Use suggestion/ }).count(), 3)

      const all = await setup.partner('GET', `/api/partner/integrations/${setup.integrationId}/accounts`)
      const mapped = Object.fromEntries(
        all.body.data.map((a: { vendorAccountId: string; mapping: { psaCompanyId: string } | null }) => [
          a.vendorAccountId,
          a.mapping?.psaCompanyId ?? null,
        ]),
      )
      for (let i = 0; i < confident; i++)
        assert.equal(mapped[`harbor-${String(i).padStart(2, '0')}`], `c${i}`)
      assert.deepEqual(
        [mapped.northwind, mapped['woodgrove-east'], mapped['acme-legal'], mapped['zz-umbrella']],
        [null, null, null, null],
      )

      // A possible one taken after review.
      await page
        .getByRole('button', { name: 'Use suggestion to map Northwind Trader to Northwind Traders' })
        .click()
      await page.getByText('Northwind Trader is mapped to Northwind Traders.').waitFor()
      await page.getByText('2 possible matches', { exact: true }).waitFor()
      assert.deepEqual(await page.evaluate(runAxe), [])
      assert.deepEqual(problems, [])
      assert.deepEqual(consoleErrors, [])
    } finally {
      await close()
    }
  })
})
