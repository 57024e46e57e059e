// Failures and deliveries in headless Chromium: an alert the PSA refused is red in its ticket's
// timeline with the PSA's words, the dashboard charts outcomes and lists the failure cause with a link
// to examples, and a dead webhook delivery is replayed from the dashboard.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Browser } from 'playwright-core'
import { browserSkip, launchBrowser, openPortal, portalUser, signInPage } from '../../support/browser.js'
import { type Hooked, hooked } from '../../support/hooked.js'
import { startService, type TestService } from '../../support/service.js'
import { waitFor } from '../../support/wait.js'

describe('failures, the dashboard and deliveries', { skip: browserSkip }, () => {
  let svc: TestService
  let browser: Browser
  let s: Hooked
  let admin: { email: string; password: string }
  before(async () => {
    browser = await launchBrowser()
    svc = await startService({ env: { ALLOW_PRIVATE_NETWORK: 'true', WEBHOOK_RETRY_SCHEDULE: '0.05,0.05' } })
    s = await hooked(svc)
    admin = await portalUser(svc, s.partnerId, 'admin')
  })
  after(async () => {
    await browser?.close()
    await svc?.close()
    await s?.receiver.close()
  })

  test('a failed alert is red in the timeline with its detail, and a failure cause on the dashboard', async () => {
    const created = await s.sync({ title: 'Backup agent crashed' })
    assert.equal(created.status, 201, created.text)
    const correlationId: string = created.body.data.correlationID
    const fault = await s.partner('PUT', '/api/partner/sandbox/fault', {
      mode: 'error',
      operations: ['append'],
    })
    assert.equal(fault.status, 200, fault.text)
    const failed = await s.sync(
      { incidentStatus: 'UPDATE', title: 'Backup agent crashed again' },
      { correlationId },
    )
    assert.equal(failed.status, 502, failed.text)
    await s.partner('DELETE', '/api/partner/sandbox/fault')

    const { page, problems, close } = await openPortal(browser, svc)
    try {
      await signInPage(page, admin, `/tickets/${correlationId}?integrationId=${s.integrationId}`)
      await page.getByRole('heading', { name: 'Backup agent crashed' }).waitFor()
      const timeline = page.getByRole('list', { name: 'Events, oldest first' })
      const failure = timeline.getByRole('listitem').filter({ hasText: 'Failed To Update Ticket' })
      await failure.waitFor()
      assert.match((await failure.locator('.detail').textContent()) ?? '', /\S/, 'the failure has its detail')
      const color = await failure.evaluate((el) => (globalThis as any).getComputedStyle(el).color as string)
      assert.equal(color, 'rgb(185, 28, 28)', 'failures are shown in red')
      await timeline.getByRole('listitem').filter({ hasText: 'Ticket Created' }).waitFor()

      await page.getByRole('link', { name: 'Dashboard' }).click()
      await page.locator('canvas[role="img"]').waitFor()
      const causes = page.getByRole('region', { name: 'Top failure causes' })
      const cause = causes.getByRole('listitem').filter({ hasText: 'Failed To Update Ticket' })
      await cause.waitFor()
      await cause.getByRole('link', { name: `ticket ${correlationId.slice(-8)}` }).waitFor()
      await cause.getByRole('link', { name: 'all such events' }).click()
      await page.getByRole('heading', { name: 'Activity' }).waitFor()
      await page.getByRole('cell', { name: 'Failed To Update Ticket' }).first().waitFor()
      assert.match(page.url(), /status=failed/)

      // The ticket list's search and filters apply as they change, kept in the URL.
      await page.getByRole('link', { name: 'Tickets' }).first().click()
      await page.getByLabel('Search').fill('crashed')
      await page.waitForURL(/search=crashed/)
      await page.getByRole('link', { name: 'Backup agent crashed' }).waitFor()
      await page.getByLabel('Status').selectOption('closed')
      await page.getByText('No tickets match these filters.').waitFor()
      await page.reload()
      await page.getByText('No tickets match these filters.').waitFor()
      assert.equal(await page.getByLabel('Status').inputValue(), 'closed')
      assert.deepEqual(problems, [])
    } finally {
      await close()
    }
  })

  test('a dead webhook delivery is replayed from the dashboard', async () => {
    let healthy = false
    s.receiver.respond((r) => (r.body?.eventType === 'status_update' && !healthy ? 500 : 204))
    const accepted: any = await s.post({ title: 'Webhook alert', alertType: 'Agent Offline' })
    assert.equal(accepted.status, 201, accepted.text)
    const messageId: string = accepted.body.data.messageId
    const deliveryId: string = await waitFor(
      async () =>
        (await s.partner('GET', '/api/partner/deliveries?status=dead')).body.data.find(
          (d: any) => d.messageId === messageId,
        )?.id,
      { what: 'the delivery to die', timeoutMs: 15_000, intervalMs: 50 },
    )
    healthy = true

    const { page, problems, close } = await openPortal(browser, svc)
    try {
      await signInPage(page, admin, '/dashboard')
      const deliveries = page.getByRole('region', { name: 'Webhook deliveries to the vendor' })
      await deliveries.getByText(deliveryId).waitFor()
      await deliveries.getByRole('button', { name: `Replay delivery ${deliveryId}` }).click()
      await page.getByText(`Delivery ${deliveryId} was sent again.`).waitFor()
      await s.statusUpdate(messageId)
      const one = await s.partner('GET', `/api/partner/deliveries/${deliveryId}`)
      assert.equal(one.body.status, 'delivered', one.text)
      assert.equal(one.body.attemptLog.at(-1).trigger, 'manual')
      assert.deepEqual(problems, [])
    } finally {
      await close()
    }
  })
})
