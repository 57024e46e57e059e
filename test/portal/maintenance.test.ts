// The Maintenance screen in headless Chromium (docs/partner-api.md#maintenance-windows): an admin adds
// a recurring window and sees its next start, sees a one-off window made through the API as active now,
// and deletes one; a viewer sees the list without the buttons.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Browser } from 'playwright-core'
import { browserSkip, launchBrowser, openPortal, portalUser, signIn } from '../helpers/browser.js'
import { type Setup, setupIntegration } from '../helpers/fixtures.js'
import { startService, type TestService } from '../helpers/service.js'

describe('the portal lists, adds and deletes maintenance windows', { skip: browserSkip }, () => {
  let svc: TestService
  let browser: Browser
  let s: Setup
  before(async () => {
    browser = await launchBrowser()
    svc = await startService()
    s = await setupIntegration(svc)
  })
  after(async () => {
    await browser?.close()
    await svc?.close()
  })
  const path = () => `/api/partner/integrations/${s.integrationId}/maintenance-windows`

  test('add a recurring window, see an active one, delete it', async () => {
    const now = Date.now()
    const made = await s.partner('POST', path(), {
      name: 'Firewall swap',
      startsAt: new Date(now - 60_000).toISOString(),
      endsAt: new Date(now + 3_600_000).toISOString(),
    })
    assert.equal(made.status, 201, made.text)
    const admin = await portalUser(svc, s.partnerId, 'admin')
    const { page, problems, close } = await openPortal(browser, svc)
    try {
      await signIn(page, admin, `/integrations/${s.integrationId}/maintenance`)
      await page.getByRole('heading', { level: 1, name: 'Maintenance' }).waitFor()
      const swap = page.getByRole('row', { name: 'window Firewall swap' })
      await swap.getByText(/active until/).waitFor()

      await page.getByRole('button', { name: 'Add a window' }).click()
      const form = page.getByRole('form', { name: 'New maintenance window' })
      await form.getByLabel('Name').fill('Sunday patching')
      await form.getByLabel('Time zone').fill('Europe/Berlin')
      await form.getByLabel('During the window').selectOption('hold')
      await form.getByRole('button', { name: 'Add window' }).click()
      const sunday = page.getByRole('row', { name: 'window Sunday patching' })
      await sunday.getByText('not active').waitFor()
      await sunday.getByText(/hold/).waitFor()
      const listed = await s.partner('GET', path())
      const created = listed.body.data.find((w: { name: string }) => w.name === 'Sunday patching')
      assert.equal(created.mode, 'hold')
      assert.equal(created.recurrence.rrule, 'FREQ=WEEKLY;BYDAY=SU')
      assert.ok(created.nextStart)

      // A bad rule: the service's sentence, nothing added.
      await page.getByRole('button', { name: 'Add a window' }).click()
      await form.getByLabel('Name').fill('Broken')
      await form.getByLabel('Recurrence (RRULE)').fill('FREQ=SOMETIMES')
      await form.getByRole('button', { name: 'Add window' }).click()
      await form.getByRole('alert').getByText(/rrule/).waitFor()
      await form.getByRole('button', { name: 'Cancel' }).click()

      await swap.getByRole('button', { name: 'Delete Firewall swap' }).click()
      await swap.waitFor({ state: 'detached' })
      const after = await s.partner('GET', path())
      assert.deepEqual(
        after.body.data.map((w: { name: string }) => w.name),
        ['Sunday patching'],
      )
      assert.deepEqual(problems, [])
    } finally {
      await close()
    }
  })

  test('a viewer sees the list without buttons', async () => {
    const viewer = await portalUser(svc, s.partnerId, 'viewer')
    const { page, close } = await openPortal(browser, svc)
    try {
      await signIn(page, viewer, `/integrations/${s.integrationId}/maintenance`)
      await page.getByRole('row', { name: 'window Sunday patching' }).waitFor()
      assert.equal(await page.getByRole('button', { name: 'Add a window' }).count(), 0)
      assert.equal(await page.getByRole('button', { name: /^Delete / }).count(), 0)
    } finally {
      await close()
    }
  })
})
