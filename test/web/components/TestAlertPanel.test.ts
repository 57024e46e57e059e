// "Send a test alert" in headless Chromium (docs/partner-api.md#test-alerts): on an integration's
// settings page an admin picks an account, sends a test alert, sees its [TEST] ticket (a link to it)
// and closes it with "Close now"; the vendor's webhook receives nothing; a viewer has no such panel.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Browser } from 'playwright-core'
import { browserSkip, launchBrowser, openPortal, portalUser, signInPage } from '../../support/browser.js'
import { type Hooked, hooked } from '../../support/hooked.js'
import { startService, type TestService } from '../../support/service.js'

describe('the portal sends a test alert', { skip: browserSkip }, () => {
  let svc: TestService
  let browser: Browser
  let s: Hooked
  before(async () => {
    browser = await launchBrowser()
    svc = await startService({ env: { ALLOW_PRIVATE_NETWORK: 'true' } })
    s = await hooked(svc, { accounts: ['acme-001', 'globex-002'], mapped: ['acme-001', 'globex-002'] })
  })
  after(async () => {
    await browser?.close()
    await svc?.close()
    await s?.receiver.close()
  })

  test('send a test alert for an account, see its ticket, close it now', async () => {
    const admin = await portalUser(svc, s.partnerId, 'admin')
    const { page, problems, close } = await openPortal(browser, svc)
    try {
      await signInPage(page, admin, `/integrations/${s.integrationId}/settings`)
      const panel = page.getByRole('form', { name: 'Send a test alert' })
      await panel.getByLabel('Account').selectOption('globex-002')
      await panel.getByLabel('Close after minutes').fill('0')
      await panel.getByRole('button', { name: 'Send a test alert' }).click()
      const ticketLink = panel.getByRole('link', { name: /^\[TEST\] / })
      await ticketLink.waitFor()
      await panel.getByText(/Test ticket created/).waitFor()
      await panel.getByText(/\(open\)/).waitFor()
      const href = (await ticketLink.getAttribute('href')) ?? ''
      const correlationId = decodeURIComponent(href.replace(/^\/tickets\//, ''))
      const made = await s.partner('GET', `/api/partner/tickets/${correlationId}`)
      assert.equal(made.body.accountId, 'globex-002')
      assert.equal(made.body.status, 'open')

      await panel.getByRole('button', { name: 'Close now' }).click()
      await panel.getByText('Closed.').waitFor()
      await panel.getByText(/\(closed\)/).waitFor()
      assert.equal(await panel.getByRole('button', { name: 'Close now' }).count(), 0)
      const closed = await s.partner('GET', `/api/partner/tickets/${correlationId}`)
      assert.equal(closed.body.status, 'closed')
      assert.equal(s.receiver.accepted('status_update').length, 0, 'the vendor is told nothing')
      assert.deepEqual(problems, [])
    } finally {
      await close()
    }
  })

  test('a viewer sees no test alert panel: it may not send one', async () => {
    const viewer = await portalUser(svc, s.partnerId, 'viewer')
    const { page, close } = await openPortal(browser, svc)
    try {
      await signInPage(page, viewer, `/integrations/${s.integrationId}/settings`)
      await page.getByRole('heading', { name: 'Storm control' }).waitFor()
      assert.equal(await page.getByRole('heading', { name: 'Send a test alert' }).count(), 0)
      assert.equal(await page.getByRole('button', { name: 'Send a test alert' }).count(), 0)
    } finally {
      await close()
    }
  })
})
