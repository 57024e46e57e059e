// A viewer in headless Chromium sees every screen but no control it may not use (not even disabled: the
// settings, the PSA connection, storm control and catch-all as text instead), and the API refuses the
// viewer's changes even when they are sent by hand with the session's own CSRF token. On every screen,
// with data enough for each control to show for an admin, every control a viewer sees is one of those a
// viewer may use (the rule tester, filters, the connection test, its own account).
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Browser, Locator, Page } from 'playwright-core'
import { browserSkip, launchBrowser, openPortal, portalUser, signInPage } from '../support/browser.js'
import { type Setup, setupIntegration } from '../support/fixtures.js'
import { startService, type TestService } from '../support/service.js'

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
      await signInPage(page, viewer)
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
      await page
        .getByRole('definition')
        .filter({ hasText: /^On: alerts are taken/ })
        .waitFor()
      assert.equal(await page.getByLabel('Alerting').count(), 0, 'the switch is text, not a disabled box')
      assert.equal(await page.getByRole('button', { name: 'Save settings' }).count(), 0)
      assert.equal(await page.getByRole('heading', { name: 'Send a test alert' }).count(), 0)

      await page.goto(`/integrations/${id}/setup/connect`)
      await page.getByRole('button', { name: 'Test connection' }).waitFor()
      await page
        .getByRole('definition')
        .filter({ hasText: /^Sandbox/ })
        .waitFor()
      assert.equal(await page.getByLabel('PSA', { exact: true }).count(), 0)
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

  test('on every screen, every control a viewer sees is one it may use', async () => {
    const s = await setupIntegration(svc, { partnerName: 'Busy MSP' })
    const id = s.integrationId
    const partner = async (method: string, path: string, body?: unknown) => {
      const res = await s.partner(method, path, body)
      assert.ok(res.status < 300, `${method} ${path}: ${res.text}`)
      return res
    }
    // Data enough for every control to show for an admin: more rules, a maintenance window, a service
    // with an account's line, catch-all and storm control on with an unmapped account seen, a ticket, a
    // test ticket left open, another admin and an invited user.
    await partner('POST', `/api/partner/integrations/${id}/rules`, {
      productGroup: 'Backup',
      conditions: [{ field: 'severity', equals: 'critical' }],
      templates: { title: '[{{accountName}}] {{title}}' },
    })
    const day = 86_400_000
    await partner('POST', `/api/partner/integrations/${id}/maintenance-windows`, {
      name: 'Patching',
      startsAt: new Date(Date.now() + day).toISOString(),
      endsAt: new Date(Date.now() + day + 3_600_000).toISOString(),
    })
    const service = await svc.request('POST', '/api/vendor-api/organization/services', {
      token: s.vendorToken,
      body: { id: 'seats', name: 'EDR seats' },
    })
    assert.equal(service.status, 201, service.text)
    await partner('PATCH', `/api/partner/integrations/${id}`, {
      catchAll: { enabled: true, psaCompanyId: '100' },
      storm: { enabled: true },
    })
    const ticket = await s.sync()
    assert.equal(ticket.status, 201, ticket.text)
    assert.equal((await s.sync({ accountId: 'globex-002', alertType: 'Agent Offline' })).status, 201)
    await partner('POST', `/api/partner/integrations/${id}/test-alert`, { closeAfterMinutes: 0 })
    await portalUser(svc, s.partnerId, 'admin')
    await partner('POST', '/api/partner/users', { email: 'invited@busy.example', role: 'viewer' })
    const viewer = await portalUser(svc, s.partnerId, 'viewer')

    const tester = [
      /^Edit as (JSON|fields)$/,
      /^(Account|Status|Product group|Alert type|Ticket|Title|Summary \(optional\))$/,
      /^(Name|Value) of extra field \d+$/,
      /^(Add an extra field|Remove extra field \d+|Test alert|Alert data \(JSON\))$/,
    ]
    const cid: string = ticket.body.data.correlationID
    /** Each screen, what shows once its data is there, and the controls a viewer may use on it. */
    const screens: [string, (p: Page) => Locator, RegExp[]][] = [
      ['/integrations', (p) => p.getByRole('link', { name: /Acme Security/ }).first(), []],
      [
        `/integrations/${id}/setup/connect`,
        (p) => p.getByTestId('sync-mechanism'),
        [/^Test connection$/, /^Copy/],
      ],
      [
        `/integrations/${id}/setup/accounts`,
        (p) => p.getByRole('cell', { name: /Company globex-002/ }).first(),
        [/^Search (accounts|companies)$/, /^Show$/, /^(Previous|Next)/],
      ],
      [
        `/integrations/${id}/setup/services`,
        (p) => p.getByText('EDR seats').first(),
        [/^Show the agreements of company$/],
      ],
      [`/integrations/${id}/setup/rules`, (p) => p.getByRole('listitem', { name: /^rule 2/ }), tester],
      [`/integrations/${id}/setup/review`, (p) => p.getByRole('heading', { name: 'Set up: Review' }), []],
      [`/integrations/${id}/rules`, (p) => p.getByRole('listitem', { name: /^rule 2/ }), tester],
      [
        `/integrations/${id}/settings`,
        (p) => p.getByRole('cell', { name: /Company globex-002/ }).first(),
        [],
      ],
      [`/integrations/${id}/maintenance`, (p) => p.getByRole('row', { name: 'window Patching' }), []],
      [
        '/tickets',
        (p) => p.getByRole('link', { name: 'Malware detected on WS-042' }).first(),
        [/^Filters/, /^(Search|Status|Integration|Account|Product group|Alert type|From|To|Clear filters)$/],
      ],
      [`/tickets/${cid}`, (p) => p.getByRole('heading', { name: 'Malware detected on WS-042' }), []],
      [
        '/dashboard',
        (p) => p.getByRole('heading', { name: /deliveries/i }),
        [/^(Period|Integration|Show|Show as a table)$/],
      ],
      ['/activity', (p) => p.getByRole('row').filter({ hasText: cid }).first(), [/^(Outcome|Event)$/]],
      ['/users', (p) => p.getByRole('cell', { name: /invited@busy\.example/ }).first(), []],
      [
        '/account',
        (p) => p.getByRole('button', { name: 'Change password' }),
        [
          /^End the session of /,
          /^Sign out everywhere else$/,
          /^(Current|New) password( again)?$/,
          /^Change password$/,
        ],
      ],
    ]
    const { page, problems, close } = await openPortal(browser, svc)
    try {
      await signInPage(page, viewer)
      for (const [path, ready, allowed] of screens) {
        await page.goto(path)
        // Settled: its data is shown and nothing is loading any more.
        await ready(page).waitFor()
        await page.locator('main .loading').first().waitFor({ state: 'detached' })
        const seen = (await page.evaluate(controls)) as string[]
        const unexpected = seen.filter((name) => !allowed.some((a) => a.test(name)))
        assert.deepEqual(unexpected, [], `${path}: controls a viewer may not use`)
      }
      assert.deepEqual(problems, [])
    } finally {
      await close()
    }
  })

  test('an admin made a viewer meanwhile: the refused change says so, and the controls go', async () => {
    const s = await setupIntegration(svc, { partnerName: 'Changing MSP' })
    const admin = await portalUser(svc, s.partnerId, 'admin')
    await portalUser(svc, s.partnerId, 'admin') // another admin, so this one may be made a viewer
    const { page, problems, close } = await openPortal(browser, svc)
    try {
      await signInPage(page, admin, `/integrations/${s.integrationId}/rules`)
      const rule = page.getByRole('listitem', { name: /^rule 1/ })
      await rule.getByRole('button', { name: /^Edit rule 1/ }).waitFor()
      const users = await s.partner('GET', '/api/partner/users')
      const me = users.body.data.find((u: { email: string }) => u.email === admin.email)
      const demoted = await s.partner('PATCH', `/api/partner/users/${me.id}`, { role: 'viewer' })
      assert.equal(demoted.status, 200, demoted.text)
      // The screen still shows the admin's controls until a change is refused.
      await rule.getByRole('checkbox', { name: /^Enabled/ }).click()
      await rule
        .getByRole('alert')
        .getByText(/^You can't do this: /)
        .waitFor()
      await page.getByText('signed in as a viewer').waitFor()
      assert.equal(await page.getByRole('button', { name: /^(Edit|Delete|Move) rule/ }).count(), 0)
      assert.equal(await page.getByRole('button', { name: 'Add rule' }).count(), 0)
      assert.deepEqual(problems, [])
    } finally {
      await close()
    }
    const rules = await s.partner('GET', `/api/partner/integrations/${s.integrationId}/rules`)
    assert.equal(rules.body.data[0].enabled, true, 'nothing changed')
  })
})

/**
 * The names of the form controls shown in the page's main part, as a screen reader would name them
 * (aria-label, aria-labelledby, the label, the text), disabled ones included: a control a viewer sees
 * but may not use counts. A string, not a function: the test's TypeScript transform would add helpers
 * the page lacks.
 */
const controls = `(() => [...document.querySelectorAll('main button, main input:not([type=hidden]), main select, main textarea')]
  .filter((e) => e.getClientRects().length > 0)
  .map((e) => {
    const byIds = (ids) => ids.split(/\\s+/).map((i) => document.getElementById(i)?.textContent ?? '').join(' ')
    const labelledBy = e.getAttribute('aria-labelledby')
    const name = e.getAttribute('aria-label') || (labelledBy && byIds(labelledBy)) || e.labels?.[0]?.textContent || e.textContent || ''
    return name.trim().replace(/\\s+/g, ' ')
  }))()`
