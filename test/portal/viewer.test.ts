// A viewer in headless Chromium sees every screen but no control that changes anything, and the API
// refuses the viewer's changes even when they are sent by hand with the session's own CSRF token.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Browser } from 'playwright-core'
import { browserSkip, launchBrowser, openPortal, portalUser, signIn } from '../helpers/browser.js'
import { type Setup, setupIntegration } from '../helpers/fixtures.js'
import { startService, type TestService } from '../helpers/service.js'

describe('a viewer', { skip: browserSkip }, () => {
  let svc: TestService
  let browser: Browser
  let setup: Setup
  let viewer: { email: string; password: string }
  before(async () => {
    browser = await launchBrowser()
    svc = await startService()
    setup = await setupIntegration(svc, { stopAt: 'mapping' })
    viewer = await portalUser(svc, setup.partnerId, 'viewer')
  })
  after(async () => {
    await browser?.close()
    await svc?.close()
  })

  test('sees no control that changes anything, and the API refuses the changes too', async () => {
    const before = await svc.snapshot()
    const { page, problems, close } = await openPortal(browser, svc)
    const id = setup.integrationId
    try {
      await signIn(page, viewer)
      await page.getByText('signed in as a viewer').waitFor()

      await page.goto(`/integrations/${id}/rules`)
      await page.getByRole('listitem', { name: /rule 1/ }).waitFor()
      // (The rule tester's "Edit as JSON" changes only the tester's own alert.)
      for (const name of ['Add rule', /^Move /, /^Edit (?!as )/, /^Delete /])
        assert.equal(await page.getByRole('button', { name }).count(), 0, `no ${name} button`)
      assert.equal(await page.getByRole('checkbox', { name: /^Enabled/ }).count(), 0)
      // The rule tester changes nothing, so a viewer may use it.
      await page.getByRole('button', { name: 'Test alert' }).click()
      await page.getByTestId('dry-run-summary').waitFor()

      await page.goto(`/integrations/${id}/settings`)
      await page.getByLabel('Alerting').waitFor()
      assert.ok(await page.getByLabel('Alerting').isDisabled())
      assert.equal(await page.getByRole('button', { name: 'Save settings' }).count(), 0)

      await page.goto(`/integrations/${id}/setup/connect`)
      await page.getByRole('button', { name: 'Test connection' }).waitFor()
      assert.ok(await page.getByLabel('PSA', { exact: true }).isDisabled())
      assert.equal(await page.getByRole('button', { name: 'Save connection' }).count(), 0)

      await page.goto(`/integrations/${id}/setup/accounts`)
      await page.getByRole('cell', { name: /Company acme-001/ }).waitFor()
      assert.equal(await page.getByRole('button', { name: /^(Map|Choose|Change|Unmap|Use)/ }).count(), 0)

      await page.goto(`/integrations/${id}/setup/review`)
      await page.getByRole('heading', { name: 'Set up: Review' }).waitFor()
      assert.equal(await page.getByRole('button', { name: 'Complete mapping' }).count(), 0)

      await page.goto('/users')
      await page.getByRole('cell', { name: /Viewer User/ }).waitFor()
      assert.equal(await page.getByRole('button', { name: /^(Invite|Remove)/ }).count(), 0)
      assert.equal(await page.getByRole('combobox', { name: /^Role of/ }).count(), 0)

      // By hand, with the session cookie and its CSRF token: 403 for every change.
      // (A string, not a function: the test's TypeScript transform would add helpers the page lacks.)
      const statuses = await page.evaluate(`(async () => {
        const { csrfToken } = await (await fetch('/api/partner/session')).json()
        const send = async (method, path, body) =>
          (await fetch(path, {
            method,
            headers: { 'content-type': 'application/json', 'x-csrf-token': csrfToken },
            body: body === undefined ? undefined : JSON.stringify(body),
          })).status
        const base = '/api/partner/integrations/' + ${JSON.stringify(id)}
        return {
          toggle: await send('PATCH', base, { alertsEnabled: false }),
          rule: await send('POST', base + '/rules', { productGroup: 'Backup' }),
          map: await send('PUT', base + '/accounts/globex-002', { psaCompanyId: '101' }),
          complete: await send('POST', base + '/complete-mapping'),
          psa: await send('PUT', '/api/partner/psa', { kind: 'sandbox' }),
          invite: await send('POST', '/api/partner/users', { email: 'x@msp.example', role: 'admin' }),
        }
      })()`)
      assert.deepEqual(statuses, { toggle: 403, rule: 403, map: 403, complete: 403, psa: 403, invite: 403 })
      assert.deepEqual(problems, [])
    } finally {
      await close()
    }
    const afterwards = await svc.snapshot()
    for (const table of ['integrations', 'rules', 'account_mappings', 'partners'] as const)
      assert.deepEqual(afterwards[table], before[table], `${table} unchanged`)
  })
})
