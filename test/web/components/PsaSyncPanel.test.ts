// Two-way sync and closed tickets in headless Chromium: the closed-ticket policy is set on the
// integration's settings and saved; the PSA connection screen shows how the sandbox is heard (it cannot
// push: alertbridge checks its open tickets), and says when those checks are held back for the alerts'
// sake; a ticket a technician closes in the sandbox PSA reads
// "Closed in the PSA" with the PSA's event in its timeline; a HaloPSA partner's admin gets the webhook
// steps an administrator follows in Halo, with the address and password. Screenshots of the sync panel
// (and held back), HaloPSA's steps and the closed-tickets settings go to docs/screenshots/.
import assert from 'node:assert/strict'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import type { Browser, Locator } from 'playwright-core'
import { browserSkip, launchBrowser, openPortal, portalUser, signInPage } from '../../support/browser.js'
import { type Setup, setupIntegration } from '../../support/fixtures.js'
import { startService, type TestService } from '../../support/service.js'
import { startHaloPsaSim } from '../../support/sims/halopsa/server.js'
import { waitFor } from '../../support/wait.js'

const haloCredentials = { clientId: 'svc-client', clientSecret: 'svc-secret', tenant: 'acme' }

const screenshots = join(process.cwd(), 'docs', 'screenshots')

describe('two-way sync and closed tickets', { skip: browserSkip }, () => {
  let svc: TestService
  let browser: Browser
  let s: Setup
  let admin: { email: string; password: string }
  let viewer: { email: string; password: string }
  before(async () => {
    browser = await launchBrowser()
    // The HaloPSA simulator is on loopback, a private address.
    svc = await startService({ env: { PSA_POLL_INTERVAL_MS: '300', ALLOW_PRIVATE_NETWORK: 'true' } })
    s = await setupIntegration(svc)
    admin = await portalUser(svc, s.partnerId, 'admin', 'dana.dispatch@msp.example')
    viewer = await portalUser(svc, s.partnerId, 'viewer')
  })
  after(async () => {
    await browser?.close()
    await svc?.close()
  })

  const shoot = async (target: Locator, name: string) => {
    mkdirSync(screenshots, { recursive: true })
    await target.screenshot({ path: join(screenshots, `${name}.png`) })
  }

  test('the closed-ticket policy is chosen and saved from the settings', async () => {
    const { page, problems, close } = await openPortal(browser, svc, { width: 1280, height: 800 })
    try {
      await signInPage(page, admin, `/integrations/${s.integrationId}/settings`)
      const section = page.getByRole('group', { name: 'Closed tickets' })
      await section.waitFor()
      assert.equal(await page.getByLabel('Refuse', { exact: true }).isChecked(), true, 'refuse by default')
      assert.equal(await page.getByLabel('Reopen window in hours').count(), 0, 'no window until reopen')
      await page.getByLabel('Reopen the ticket').check()
      await page.getByLabel('Reopen window in hours').fill('6')
      await section.getByText('Within 6 hours of closing').waitFor()
      await page.getByLabel('Only close tickets nobody has worked').check()
      await shoot(section, 'closed-tickets')
      await page.getByRole('button', { name: 'Save settings' }).click()
      await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor()

      const saved = await s.partner('GET', `/api/partner/integrations/${s.integrationId}`)
      assert.deepEqual(saved.body.closedTickets, {
        policy: 'reopen',
        reopenWindowMinutes: 360,
        closeOnlyUntouched: true,
      })
      // After a reload the form reads the saved policy back.
      await page.reload()
      assert.equal(await page.getByLabel('Reopen the ticket').isChecked(), true)
      assert.equal(await page.getByLabel('Reopen window in hours').inputValue(), '6')
      await page.getByLabel('Open a new ticket that links the closed one').check()
      await page.getByRole('button', { name: 'Save settings' }).click()
      await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor()
      const changed = await s.partner('GET', `/api/partner/integrations/${s.integrationId}`)
      assert.equal(changed.body.closedTickets.policy, 'new')
      assert.equal(changed.body.closedTickets.reopenWindowMinutes, 360, 'the window is kept')
      assert.deepEqual(problems, [])
    } finally {
      await close()
    }
  })

  test('a ticket closed in the PSA says so, with the PSA event in its timeline', async () => {
    const created = await s.sync({ title: 'Disk failing on NAS-3' })
    assert.equal(created.status, 201, created.text)
    const correlationId: string = created.body.data.correlationID
    const ticket = await s.partner('GET', `/api/partner/tickets/${correlationId}`)
    const psaTicketId: string = ticket.body.psaTicketId
    assert.ok(psaTicketId, ticket.text)
    // A technician closes it in the (sandbox) PSA; the poll reads it back.
    const closed = await s.partner('PATCH', `/api/partner/sandbox/tickets/${psaTicketId}`, {
      status: 'Closed',
    })
    assert.equal(closed.status, 200, closed.text)
    await waitFor(
      async () => {
        const r = await s.partner('GET', `/api/partner/tickets/${correlationId}`)
        return r.body.closedBy === 'psa'
      },
      { what: 'the poll to read the close back', intervalMs: 100 },
    )

    const { page, problems, close } = await openPortal(browser, svc)
    try {
      await signInPage(page, admin, `/tickets/${correlationId}?integrationId=${s.integrationId}`)
      await page.getByRole('heading', { name: 'Disk failing on NAS-3' }).waitFor()
      await page.getByTestId('ticket-status').getByText("Closed in the PSA (status 'Closed')").waitFor()
      const timeline = page.getByRole('list', { name: 'Events, oldest first' })
      const fromPsa = timeline.getByRole('listitem').filter({ hasText: 'Ticket Closed In PSA' })
      await fromPsa.waitFor()
      await fromPsa.getByText('PSA', { exact: true }).waitFor()
      await fromPsa.getByText('changed in the PSA').waitFor()
      assert.match((await fromPsa.locator('.detail').textContent()) ?? '', /\S/, 'with its detail')
      assert.deepEqual(problems, [])
    } finally {
      await close()
    }
  })
  test('the sync panel says how the sandbox is heard; a viewer gets no register button', async () => {
    await waitFor(
      async () => {
        const r = await s.partner('GET', '/api/partner/psa/sync')
        return r.status === 200 && r.body.lastHeardAt !== null
      },
      { what: 'two-way sync set up', intervalMs: 100 },
    )
    const { page, problems, close } = await openPortal(browser, svc, { width: 1280, height: 800 })
    try {
      await signInPage(page, admin, `/integrations/${s.integrationId}/setup/connect`)
      const panel = page.getByRole('region', { name: 'Two-way sync' })
      // This service polls every 300 ms, so that the test sees a close quickly.
      await panel.getByText('alertbridge checks your open tickets every second.').waitFor()
      await panel.getByText('Last heard from the sandbox').waitFor()
      assert.doesNotMatch((await panel.textContent()) ?? '', /not yet|refused/)
      await panel.getByRole('button', { name: 'Register again' }).click()
      await panel.getByText('Registering again').waitFor()
      assert.deepEqual(problems, [])

      // The screenshot shows the default interval (PSA_POLL_INTERVAL_MS, 5 minutes): the service's own
      // answer with only that changed.
      await page.route('**/api/partner/psa/sync', async (route) => {
        const real = await route.fetch()
        await route.fulfill({ response: real, json: { ...(await real.json()), pollIntervalMs: 300_000 } })
      })
      await page.reload()
      await panel.getByText('alertbridge checks your open tickets every 5 minutes.').waitFor()
      assert.equal(await panel.getByText(/held back/).count(), 0, 'not held: no note')
      await shoot(panel, 'sync-panel')

      // A poll round held back by the PSA's request budget: the panel says so, when the next check
      // comes, and the limiter's reason (the service's answer with only those two fields set).
      await page.unroute('**/api/partner/psa/sync')
      const heldReason = "two-way sync leaves the rest of the sandbox's budget to alerts (50% used)"
      await page.route('**/api/partner/psa/sync', async (route) => {
        const real = await route.fetch()
        const heldUntil = new Date(Date.now() + 40_000).toISOString()
        await route.fulfill({
          response: real,
          json: { ...(await real.json()), pollIntervalMs: 300_000, heldUntil, heldReason },
        })
      })
      await page.reload()
      await panel
        .getByText(
          /Checking the sandbox is held back to leave its request limit to your alerts; the next check is in \d+ seconds\./,
        )
        .waitFor()
      await panel.getByText(heldReason).waitFor()
      await shoot(panel, 'sync-panel-held')
      assert.deepEqual(problems, [])
    } finally {
      await close()
    }
    const other = await openPortal(browser, svc)
    try {
      await signInPage(other.page, viewer, `/integrations/${s.integrationId}/setup/connect`)
      const panel = other.page.getByRole('region', { name: 'Two-way sync' })
      await panel.getByText(/alertbridge checks your open tickets/).waitFor()
      assert.equal(await panel.getByRole('button', { name: 'Register again' }).count(), 0)
      assert.deepEqual(other.problems, [])
    } finally {
      await other.close()
    }
  })

  test('HaloPSA: an admin gets the webhook steps with its address and password; a viewer not the password', async () => {
    const sim = await startHaloPsaSim(haloCredentials)
    try {
      const halo = await setupIntegration(svc, {
        partnerName: 'Fabrikam IT',
        psa: { kind: 'halopsa', baseUrl: sim.url, ...haloCredentials },
        psaCompanyId: '12',
        rule: { productGroup: 'Endpoint Security', ticket: { board: 'Security Operations' } },
      })
      const status = await waitFor(
        async () => {
          const r = await halo.partner('GET', '/api/partner/psa/sync')
          return r.status === 200 && r.body.mechanism === 'manual' ? r.body : null
        },
        { what: 'the push registration', intervalMs: 100 },
      )
      const haloAdmin = await portalUser(svc, halo.partnerId, 'admin', 'sam.service@fabrikam.example')
      const haloViewer = await portalUser(svc, halo.partnerId, 'viewer')
      const { page, problems, close } = await openPortal(browser, svc, { width: 1280, height: 900 })
      try {
        await signInPage(page, haloAdmin, `/integrations/${halo.integrationId}/setup/connect`)
        const panel = page.getByRole('region', { name: 'Two-way sync' })
        await panel.getByText('An administrator sets up the webhook in HaloPSA:').waitFor()
        assert.equal(
          await panel.getByRole('textbox', { name: 'Webhook address' }).inputValue(),
          status.pushUrl,
        )
        assert.equal(
          await panel.getByRole('textbox', { name: 'Webhook password' }).inputValue(),
          status.pushSecret,
        )
        await panel.getByRole('button', { name: 'Copy the webhook address' }).waitFor()
        await shoot(panel, 'sync-halopsa-manual')
        assert.deepEqual(problems, [])
      } finally {
        await close()
      }
      const other = await openPortal(browser, svc)
      try {
        await signInPage(other.page, haloViewer, `/integrations/${halo.integrationId}/setup/connect`)
        const panel = other.page.getByRole('region', { name: 'Two-way sync' })
        await panel.getByText('Only an administrator can see the webhook password.').waitFor()
        assert.equal(await panel.getByRole('textbox', { name: 'Webhook password' }).count(), 0)
        assert.equal(
          await panel.getByRole('textbox', { name: 'Webhook address' }).inputValue(),
          status.pushUrl,
        )
      } finally {
        await other.close()
      }
    } finally {
      await sim.close()
    }
  })
})
