// The whole setup wizard in headless Chromium, from a new integration (state `mapping`, nothing mapped,
// no rule) to the first ticket an alert creates: test the PSA connection, map accounts (suggested
// matches by name, the searchable company list), map a service to a billing line, add a rule, review
// and complete the mapping, then see the vendor's alert as a ticket with its PSA id and timeline.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Browser } from 'playwright-core'
import { browserSkip, launchBrowser, openPortal, portalUser, signInPage } from '../../../support/browser.js'
import { type Setup, setupIntegration } from '../../../support/fixtures.js'
import { startService, type TestService } from '../../../support/service.js'
import { waitFor } from '../../../support/wait.js'

describe('the setup wizard', { skip: browserSkip }, () => {
  let svc: TestService
  let browser: Browser
  let setup: Setup
  let admin: { email: string; password: string }
  before(async () => {
    browser = await launchBrowser()
    svc = await startService()
    setup = await setupIntegration(svc, { stopAt: 'mapping', accounts: [], mapped: [], rule: null })
    const vendor = (method: string, path: string, body: unknown) =>
      svc.request(method, path, { token: setup.vendorToken, body })
    for (const [vendorAccountId, name] of [
      ['acme-001', 'ACME Corp.'],
      ['globex-002', 'Globex Inc'],
      ['umbrella-003', 'Umbrella Health'],
    ] as const) {
      const res = await vendor('POST', '/api/vendor-api/organization/accounts', {
        vendorAccountId,
        name,
        externalId: vendorAccountId.toUpperCase(),
      })
      assert.equal(res.status, 201, res.text)
    }
    const service = await vendor('POST', '/api/vendor-api/organization/services', {
      id: 'seats',
      name: 'Protected endpoints',
      description: 'Endpoints with the agent installed',
    })
    assert.equal(service.status, 201, service.text)
    admin = await portalUser(svc, setup.partnerId, 'admin')
  })
  after(async () => {
    await browser?.close()
    await svc?.close()
  })

  test('from a new integration to its first ticket', async () => {
    const { page, problems, close } = await openPortal(browser, svc)
    try {
      await signInPage(page, admin)
      await page.getByText('mapping', { exact: true }).waitFor()
      await page.getByRole('link', { name: /^Continue setup/ }).click()

      // 1. Connect: the sandbox PSA answers the test.
      await page.getByRole('heading', { name: 'Set up: Connect PSA' }).waitFor()
      assert.equal(await page.getByLabel('PSA', { exact: true }).inputValue(), 'sandbox')
      await page.getByRole('button', { name: 'Test connection' }).click()
      await page.getByText('Connected.').waitFor()
      // The ticket defaults are picked from the PSA's own lists.
      const board = page.getByLabel('Board / queue')
      await board.locator('option', { hasText: 'Security' }).waitFor({ state: 'attached' })
      await board.selectOption({ label: 'Security' })
      await page.getByRole('button', { name: 'Save connection' }).click()
      await page.getByText('Saved. The PSA answered the test.').waitFor()
      const saved = await setup.partner('GET', '/api/partner/psa')
      assert.deepEqual(saved.body.defaults, { board: 'security' })
      await page.getByRole('link', { name: 'Next: Map accounts' }).click()

      // 2. Accounts: a suggested match, every confident suggestion at once, and a company found by search.
      await page.getByRole('heading', { name: 'Set up: Map accounts' }).waitFor()
      await page.getByRole('button', { name: 'Use suggestion to map ACME Corp. to Acme Corporation' }).click()
      await page.getByText('ACME Corp. is mapped to Acme Corporation.').waitFor()
      await page.getByRole('button', { name: 'Use the confident suggestion' }).click()
      await page.getByText('1 account was mapped to the suggested company.').waitFor()
      // The accounts list is searchable too.
      await page.getByLabel('Search accounts').fill('umbrel')
      await page.getByRole('cell', { name: /^Globex Inc/ }).waitFor({ state: 'detached' })
      await page.getByRole('button', { name: 'Choose a company for Umbrella Health' }).click()
      const search = page.getByLabel('Search companies')
      assert.equal(await search.inputValue(), 'umbrella')
      await page.getByText('No company matches “umbrella”.').waitFor()
      await search.fill('Initech')
      await page.getByRole('button', { name: 'Map here — Umbrella Health to Initech' }).click()
      await page.getByText('Umbrella Health is mapped to Initech.').waitFor()
      const accounts = await setup.partner('GET', `/api/partner/integrations/${setup.integrationId}/accounts`)
      assert.deepEqual(
        accounts.body.data.map((a: any) => [a.vendorAccountId, a.mapping?.psaCompanyId]),
        [
          ['acme-001', '100'],
          ['globex-002', '101'],
          ['umbrella-003', '102'],
        ],
      )
      await page.getByRole('link', { name: 'Next: Map services' }).click()

      // 3. Services: the sandbox's agreement lines, a service mapped to the product of one.
      await page.getByRole('heading', { name: 'Set up: Map services' }).waitFor()
      await page.getByRole('cell', { name: 'Endpoint protection (per seat)' }).waitFor()
      await page
        .getByLabel('Billing product for Protected endpoints', { exact: true })
        .selectOption('endpoint-seat')
      await page.getByRole('button', { name: 'Save billing product for Protected endpoints' }).click()
      await waitFor(
        async () => {
          const s = await setup.partner('GET', `/api/partner/integrations/${setup.integrationId}/services`)
          return s.body.data[0]?.mapping?.psaProductId === 'endpoint-seat'
        },
        { what: 'the service mapping', timeoutMs: 10_000, intervalMs: 100 },
      )
      // …and, for one account, a line of its own.
      await page
        .getByLabel('Billing line of Protected endpoints for ACME Corp.', { exact: true })
        .selectOption({ label: 'Cloud backup (per TB) (Managed services agreement)' })
      await page
        .getByRole('button', { name: 'Save the billing line of Protected endpoints for ACME Corp.' })
        .click()
      await waitFor(
        async () => {
          const l = await setup.partner(
            'GET',
            `/api/partner/integrations/${setup.integrationId}/services/seats/accounts`,
          )
          return l.body.data[0]?.accountId === 'acme-001' && /backup-tb/.test(l.body.data[0]?.psaLineId ?? '')
        },
        { what: 'the account line mapping', timeoutMs: 10_000, intervalMs: 100 },
      )
      await page.getByRole('link', { name: 'Next: Rules' }).click()

      // 4. Rules: one rule for the group, priority picked from the PSA's list.
      await page.getByRole('heading', { name: 'Set up: Rules' }).waitFor()
      await page.getByText('No rules yet').waitFor()
      await page.getByRole('button', { name: 'Add rule' }).click()
      const form = page.getByRole('form', { name: 'New rule' })
      await form.getByLabel('Product group').selectOption('Endpoint Security')
      await form.getByLabel('Priority').selectOption({ label: 'P1 - Critical' })
      await form.getByRole('button', { name: 'Add rule' }).click()
      await page.getByRole('listitem', { name: /rule 1 \(Endpoint Security: every alert type\)/ }).waitFor()
      await page.getByRole('link', { name: 'Next: Review' }).click()

      // 5. Review and complete: mapping → pending.
      await page.getByRole('heading', { name: 'Set up: Review' }).waitFor()
      await page.getByRole('button', { name: 'Complete mapping' }).click()
      await page.getByText('The mapping is complete').waitFor()
      await page.getByText('pending', { exact: true }).first().waitFor()
      const integration = await setup.partner('GET', `/api/partner/integrations/${setup.integrationId}`)
      assert.equal(integration.body.state, 'pending')

      // The vendor's first alert becomes a ticket in the (sandbox) PSA, with the rule's priority.
      const alert = await setup.sync({ accountId: 'acme-001', title: 'Ransomware on FILESRV-01' })
      assert.equal(alert.status, 201, alert.text)
      const sandbox = await setup.partner('GET', '/api/partner/sandbox/tickets')
      assert.equal(sandbox.body.data.length, 1)
      assert.equal(sandbox.body.data[0].priority, 'p1')
      assert.equal(sandbox.body.data[0].companyId, '100')

      await page.getByRole('link', { name: 'Tickets' }).first().click()
      await page.getByRole('link', { name: 'Ransomware on FILESRV-01' }).click()
      await page.getByRole('heading', { name: 'Ransomware on FILESRV-01' }).waitFor()
      await page.getByText(sandbox.body.data[0].id, { exact: true }).waitFor()
      const timeline = page.getByRole('list', { name: 'Events, oldest first' })
      await timeline.getByText('Ticket Created').waitFor()
      assert.deepEqual(problems, [])
    } finally {
      await close()
    }
  })
})
