// The portal's forms in headless Chromium against the ConnectWise simulator: the tickets' filters
// offer the known accounts, product groups and alert types, apply as they change and round-trip
// through the URL (a reload, the back button), folded away on a phone; ConnectWise's statuses and
// types are asked only once a board is chosen (the rule editor, the connection's defaults); the
// connection's ticket defaults are picked from the PSA's lists and saved without typing the private
// key again; a new address needs the key; the settings' switches say their state in words. No
// screen logs a console error.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import { browserSkip, launchBrowser, openPortal, portalUser } from '../../support/browser.js'
import { type Setup, setupIntegration } from '../../support/fixtures.js'
import { signIn } from '../../support/portal.js'
import { startService, type TestService } from '../../support/service.js'
import { type ConnectWiseSim, startConnectWiseSim } from '../../support/sims/connectwise/server.js'

const privateKey = 'cw-private-FORMS-2b7d'

/** Console errors (a refused request logs one) and the PSA look-ups the page asked for. */
function watch(page: Page) {
  const errors: string[] = []
  const lookups: string[] = []
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text())
  })
  page.on('request', (r) => {
    const url = new URL(r.url())
    if (/^\/api\/partner\/psa\/(statuses|types)$/.test(url.pathname)) lookups.push(url.pathname + url.search)
  })
  return { errors, lookups }
}

describe('forms: filters, pick lists and the saved key', { skip: browserSkip }, () => {
  let svc: TestService
  let browser: Browser
  let cw: ConnectWiseSim
  /** Another ConnectWise server: the connection moved there. */
  let other: ConnectWiseSim
  let s: Setup
  let admin: { email: string; password: string }
  before(async () => {
    browser = await launchBrowser()
    cw = await startConnectWiseSim({ privateKey })
    other = await startConnectWiseSim({ privateKey })
    svc = await startService({ env: { ALLOW_PRIVATE_NETWORK: 'true' } })
    s = await setupIntegration(svc, {
      psa: {
        kind: 'connectwise',
        baseUrl: cw.url,
        companyId: 'acme',
        publicKey: 'pub-key',
        privateKey,
        clientId: '00000000-0000-4000-8000-000000000001',
      },
      psaCompanyId: '1',
      mapped: ['acme-001', 'globex-002'],
      rule: { productGroup: 'Endpoint Security', ticket: { board: 'Service Desk' } },
    })
    const backup = await s.partner('POST', `/api/partner/integrations/${s.integrationId}/rules`, {
      productGroup: 'Backup',
      ticket: { board: 'Security' },
    })
    assert.equal(backup.status, 201, backup.text)
    for (const alert of [
      { title: 'Malware on WS-1', accountId: 'acme-001', alertType: 'Malware Detected' },
      { title: 'Agent offline on SRV-2', accountId: 'globex-002', alertType: 'Agent Offline' },
      {
        title: 'Backup failed on NAS',
        accountId: 'acme-001',
        productGroup: 'Backup',
        alertType: 'Backup Failed',
      },
    ]) {
      const res = await s.sync(alert)
      assert.equal(res.status, 201, res.text)
    }
    admin = await portalUser(svc, s.partnerId, 'admin')
  })
  /** A page with a session made through the API (signing in is another test's), watched from then on. */
  const signedIn = async (viewport?: { width: number; height: number }) => {
    const portal = await openPortal(browser, svc, viewport)
    // Several sessions share the machine's two cores: waits are longer than the default.
    portal.context.setDefaultTimeout(30_000)
    const session = await signIn(svc, admin.email, admin.password)
    const [name, value] = session.cookie.split('=') as [string, string]
    await portal.context.addCookies([{ name, value, url: svc.url }])
    return { ...portal, ...watch(portal.page) }
  }
  after(async () => {
    await browser?.close()
    await svc?.close()
    await cw?.close()
    await other?.close()
  })

  test('the tickets’ filters pick known values, apply as they change and live in the URL', async () => {
    const { page, problems, close, errors } = await signedIn()
    try {
      await page.goto('/tickets')
      const rows = page.locator('table tbody tr')
      await page.getByRole('link', { name: 'Backup failed on NAS' }).waitFor()
      assert.equal(await rows.count(), 3)
      assert.equal(await page.getByRole('button', { name: 'Apply filters' }).count(), 0, 'nothing to apply')

      // The account by its name, applied at once.
      const account = page.locator('#t-account')
      await account.locator('option', { hasText: 'Company globex-002' }).waitFor({ state: 'attached' })
      await account.selectOption({ label: 'Company globex-002' })
      await page.waitForURL(/accountId=globex-002/)
      await page.getByRole('link', { name: 'Malware on WS-1' }).waitFor({ state: 'detached' })
      assert.equal(await rows.count(), 1)
      await account.selectOption('')
      await page.getByRole('link', { name: 'Malware on WS-1' }).waitFor()

      // Product groups from the catalogue, and the chosen group's alert types.
      const group = page.locator('#t-group')
      assert.deepEqual(await group.locator('option').allTextContents(), [
        'all groups',
        'Backup',
        'Endpoint Security',
      ])
      await group.selectOption('Backup')
      await page.waitForURL(/productGroup=Backup/)
      await page.locator('#t-type option', { hasText: 'Malware Detected' }).waitFor({ state: 'detached' })
      assert.deepEqual(await page.locator('#t-type option').allTextContents(), [
        'all types',
        'Backup Failed',
        'Backup Warning',
      ])
      await page.getByRole('link', { name: 'Malware on WS-1' }).waitFor({ state: 'detached' })
      assert.equal(await rows.count(), 1)
      await page.getByRole('button', { name: 'Clear filters' }).click()
      await page.waitForURL((url) => url.search === '')
      await page.getByRole('link', { name: 'Malware on WS-1' }).waitFor()

      // The search applies once typing pauses; a reload and the back button keep every filter.
      await page.locator('#t-search').fill('Agent')
      await page.waitForURL(/search=Agent/)
      await page.getByRole('link', { name: 'Malware on WS-1' }).waitFor({ state: 'detached' })
      await page.locator('#t-status').selectOption('open')
      await page.waitForURL(/status=open/)
      await page.reload()
      await page.getByRole('link', { name: 'Agent offline on SRV-2' }).waitFor()
      assert.equal(await rows.count(), 1)
      assert.equal(await page.locator('#t-search').inputValue(), 'Agent')
      assert.equal(await page.locator('#t-status').inputValue(), 'open')
      await page.getByRole('link', { name: 'Agent offline on SRV-2' }).click()
      await page.getByRole('heading', { level: 1, name: 'Ticket' }).waitFor()
      await page.goBack()
      await page.getByRole('link', { name: 'Agent offline on SRV-2' }).waitFor()
      assert.match(page.url(), /search=Agent/)
      assert.match(page.url(), /status=open/)
      assert.equal(await page.locator('#t-search').inputValue(), 'Agent')
      assert.deepEqual(problems, [])
      assert.deepEqual(errors, [])
    } finally {
      await close()
    }
  })

  test('on a phone the filters fold away and the first ticket comes first', async () => {
    const viewport = { width: 390, height: 844 }
    const { page, problems, close, errors } = await signedIn(viewport)
    try {
      await page.goto('/tickets?status=open')
      const first = page.getByRole('link', { name: /on (WS-1|SRV-2|NAS)$/ }).first()
      await first.waitFor()
      const summary = page.locator('details.filters > summary')
      assert.equal((await summary.textContent())?.startsWith('Filters (1 on)'), true)
      assert.equal(await page.locator('#t-search').isVisible(), false, 'folded')
      const box = await first.boundingBox()
      assert.ok(box && box.y + box.height <= viewport.height, `the first ticket is at ${box?.y} px`)
      await summary.click()
      await page.locator('#t-search').waitFor({ state: 'visible' })
      assert.deepEqual(problems, [])
      assert.deepEqual(errors, [])
    } finally {
      await close()
    }
  })

  test('statuses and types wait for a board; defaults are picked and saved without the key', async () => {
    const { page, problems, close, errors, lookups } = await signedIn()
    const withoutBoard = () => lookups.filter((l) => !/[?&]board=/.test(l))
    try {
      // The rule editor: a new rule has no board yet, and the connection has no default board.
      await page.goto(`/integrations/${s.integrationId}/rules`)
      await page.getByRole('button', { name: 'Add rule', exact: true }).click()
      const form = page.getByRole('form', { name: 'New rule' })
      await form.waitFor()
      await form.getByText('Choose a board first: its own statuses are listed then.').first().waitFor()
      await form.getByText('Choose a board first: its own ticket types are listed then.').waitFor()
      const ruleBoard = form.getByLabel('Board / queue')
      await ruleBoard.locator('option', { hasText: 'Security' }).waitFor({ state: 'attached' })
      await ruleBoard.selectOption({ label: 'Security' })
      await form.getByLabel('New ticket status').locator('option', { hasText: 'Investigating' }).waitFor({
        state: 'attached',
      })
      assert.deepEqual(withoutBoard(), [], 'no per-board list asked without a board')
      await page.getByRole('button', { name: 'Cancel', exact: true }).click()
      await form.waitFor({ state: 'detached' })

      // The connection: the private key is kept when left empty.
      await page.goto(`/integrations/${s.integrationId}/setup/connect`)
      await page.getByRole('heading', { name: 'Your PSA connection' }).waitFor()
      assert.equal(await page.getByLabel('PSA', { exact: true }).inputValue(), 'connectwise')
      assert.equal(await page.getByLabel('Private key').inputValue(), '')
      await page.getByText('leave empty to keep the saved private key').waitFor()
      await page.getByText('Choose a board first: its own statuses are listed then.').first().waitFor()
      const board = page.getByLabel('Board / queue')
      await board.locator('option', { hasText: 'Security' }).waitFor({ state: 'attached' })
      await board.selectOption({ label: 'Security' })
      const status = page.getByLabel('New ticket status')
      await status.locator('option', { hasText: 'Investigating' }).waitFor({ state: 'attached' })
      await status.selectOption({ label: 'Investigating' })
      await page.getByLabel('Ticket type').selectOption({ label: 'Alert' })
      await page.getByLabel('Priority').selectOption({ label: 'Priority 2 - High' })
      await page.getByLabel('Closed status').selectOption({ label: 'Closed (resolved)' })
      const picked = {
        board: await board.inputValue(),
        priority: await page.getByLabel('Priority').inputValue(),
        type: await page.getByLabel('Ticket type').inputValue(),
        status: await status.inputValue(),
        closedStatus: await page.getByLabel('Closed status').inputValue(),
      }
      await page.getByRole('button', { name: 'Save connection' }).click()
      await page.getByText('Saved. The PSA answered the test.').waitFor()
      const saved = await s.partner('GET', '/api/partner/psa')
      assert.deepEqual(saved.body.defaults, picked)
      assert.equal(saved.body.privateKey, '********')
      assert.equal(saved.body.baseUrl, cw.url)

      // A new address needs the key again: said before anything is sent.
      const host = other.url
      await page.getByLabel('Base URL').fill(host)
      await page.getByText("The PSA's address changed: enter it again").waitFor()
      await page.getByRole('button', { name: 'Save connection' }).click()
      await page.getByRole('alert').filter({ hasText: 'enter the private key again to save' }).waitFor()
      assert.equal((await s.partner('GET', '/api/partner/psa')).body.baseUrl, cw.url, 'not saved')
      assert.equal(other.calls.length, 0, 'nothing was sent to the new address')
      await page.getByLabel('Private key').fill(privateKey)
      await page.getByRole('button', { name: 'Save connection' }).click()
      await page.getByText('Saved. The PSA answered the test.').waitFor()
      assert.equal((await s.partner('GET', '/api/partner/psa')).body.baseUrl, host)
      assert.deepEqual(withoutBoard(), [], 'no per-board list asked without a board')
      assert.deepEqual(problems, [])
      assert.deepEqual(errors, [])
    } finally {
      await close()
    }
  })

  test('the settings’ switches say their state in words that match the box', async () => {
    const { page, problems, close, errors } = await signedIn()
    try {
      await page.goto(`/integrations/${s.integrationId}/settings`)
      const alerting = page.getByLabel('Alerting', { exact: true })
      await alerting.waitFor()
      const hint = page.locator('#alertsEnabled-hint')
      assert.equal(await alerting.isChecked(), true)
      assert.match((await hint.textContent()) ?? '', /On: alerts are taken/)
      assert.doesNotMatch((await hint.textContent()) ?? '', /Off:/)
      await alerting.uncheck()
      assert.match((await hint.textContent()) ?? '', /Off: the vendor is told alerting is disabled/)
      const healing = page.getByLabel('Self-healing', { exact: true })
      const healingHint = page.locator('#selfHealing-hint')
      const on = await healing.isChecked()
      assert.match((await healingHint.textContent()) ?? '', on ? /On: a resolved alert closes/ : /Off: /)
      await healing.setChecked(!on)
      assert.match((await healingHint.textContent()) ?? '', on ? /Off: / : /On: a resolved alert closes/)
      assert.deepEqual(problems, [])
      assert.deepEqual(errors, [])
    } finally {
      await close()
    }
  })
})
