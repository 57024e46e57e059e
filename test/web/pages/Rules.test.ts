// Rules in headless Chromium: moving a rule up makes it the one that matches (the rule tester says so
// and a real alert follows it), disabling it hands the alert back to the next rule, and the tester
// shows an append for an alert of an open ticket, all without changing anything. The tester's fields,
// its plain sentence and its JSON mode: test/web/components/RuleTester.test.ts.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import { browserSkip, launchBrowser, openPortal, portalUser, signInPage } from '../../support/browser.js'
import { type Setup, setupIntegration } from '../../support/fixtures.js'
import { startService, type TestService } from '../../support/service.js'

describe('rules and the rule tester', { skip: browserSkip }, () => {
  let svc: TestService
  let browser: Browser
  let setup: Setup
  let admin: { email: string; password: string }
  before(async () => {
    browser = await launchBrowser()
    svc = await startService()
    setup = await setupIntegration(svc, {
      rule: { productGroup: 'Endpoint Security', precedence: 10, ticket: { priority: 'p1' } },
    })
    const second = await setup.partner('POST', `/api/partner/integrations/${setup.integrationId}/rules`, {
      productGroup: 'Endpoint Security',
      alertTypes: ['Malware Detected'],
      action: 'suppress',
      precedence: 20,
    })
    assert.equal(second.status, 201, second.text)
    admin = await portalUser(svc, setup.partnerId, 'admin')
  })
  after(async () => {
    await browser?.close()
    await svc?.close()
  })

  const rulesUrl = () => `/integrations/${setup.integrationId}/rules`
  // The tester's answer in plain words: a new ticket, or suppressed by the rule.
  const said = {
    create: 'This alert would open a ticket in Acme Corporation',
    suppress: "Suppressed: the rule 'Endpoint Security: Malware Detected' drops these alerts",
  }
  const testAlert = async (page: Page, expected: keyof typeof said) => {
    await page.getByRole('button', { name: 'Test alert' }).click()
    await page.getByRole('status').getByText(said[expected]).waitFor()
  }

  test('moving a rule up changes which rule matches; disabling it hands the alert on', async () => {
    const { page, problems, close } = await openPortal(browser, svc)
    try {
      await signInPage(page, admin, rulesUrl())
      await page.getByRole('heading', { name: 'Rules', exact: true }).waitFor()
      const tester = page.getByRole('region', { name: 'Rule tester' })
      await tester.getByLabel('Product group').selectOption('Endpoint Security')
      await tester.getByLabel('Alert type').selectOption('Malware Detected')
      await tester.getByLabel('Status', { exact: true }).selectOption('OPEN')
      await testAlert(page, 'create')
      const first = page.getByRole('listitem', { name: 'rule 1 (Endpoint Security: every alert type)' })
      await first.getByText('matches the tested alert').waitFor()

      await page.getByRole('button', { name: 'Move rule 2 (Endpoint Security: Malware Detected) up' }).click()
      await page.getByRole('listitem', { name: 'rule 1 (Endpoint Security: Malware Detected)' }).waitFor()
      await testAlert(page, 'suppress')
      await page
        .getByRole('listitem', { name: 'rule 1 (Endpoint Security: Malware Detected)' })
        .getByText('matches the tested alert')
        .waitFor()
      const rules = await setup.partner('GET', `/api/partner/integrations/${setup.integrationId}/rules`)
      assert.deepEqual(
        rules.body.data.map((r: any) => r.action),
        ['suppress', 'ticket'],
        'the new order is saved',
      )
      // A real alert follows the new order.
      const suppressed = await setup.sync({ alertType: 'Malware Detected' })
      assert.equal(suppressed.body.message, 'suppressed', suppressed.text)

      // Disabled, the suppressing rule no longer matches; the ticket rule does again.
      // A click, not uncheck(): the box follows the saved rule, so its state changes a tick after the
      // click (the save is under way), which uncheck() would take for a click that did nothing.
      await page.getByLabel('Enabled rule 1 (Endpoint Security: Malware Detected)').click()
      await page
        .getByRole('listitem', { name: /rule 1 .*Malware Detected/ })
        .getByText('disabled')
        .waitFor()
      await testAlert(page, 'create')
      await page
        .getByRole('listitem', { name: 'rule 2 (Endpoint Security: every alert type)' })
        .getByText('matches the tested alert')
        .waitFor()
      assert.deepEqual(problems, [])
    } finally {
      await close()
    }
  })

  test('the rule tester shows an append for an open ticket and changes nothing', async () => {
    const created = await setup.sync({ alertType: 'Agent Offline', title: 'Agent offline on WS-7' })
    assert.equal(created.status, 201, created.text)
    const correlationId: string = created.body.data.correlationID ?? created.body.data.correlationId
    const before = await svc.snapshot()
    const { page, problems, close } = await openPortal(browser, svc)
    try {
      await signInPage(page, admin, rulesUrl())
      await page.getByRole('button', { name: 'Edit as JSON' }).click()
      const json = page.getByLabel('Alert data (JSON)')
      await json.fill(
        JSON.stringify({
          title: 'Agent offline on WS-7 again',
          alertType: 'Agent Offline',
          accountId: 'acme-001',
          productGroup: 'Endpoint Security',
          incidentStatus: 'UPDATE',
          correlationId,
        }),
      )
      await page.getByRole('button', { name: 'Test alert' }).click()
      const psaTicketId: string = (await setup.partner('GET', `/api/partner/tickets/${correlationId}`)).body
        .psaTicketId
      await page
        .getByRole('status')
        .getByText(`This update would be added as a note to ticket ${psaTicketId}.`)
        .waitFor()
      await page.getByRole('link', { name: psaTicketId }).waitFor()

      // Not JSON: said in plain words, nothing sent.
      await json.fill('{"title": ')
      await page.getByRole('button', { name: 'Test alert' }).click()
      await page.getByText('The alert is not valid JSON').waitFor()
      assert.deepEqual(problems, [])
    } finally {
      await close()
    }
    const afterwards = await svc.snapshot()
    for (const table of ['tickets', 'events', 'sandbox_tickets', 'sandbox_notes', 'rules'] as const)
      assert.deepEqual(afterwards[table], before[table], `${table} unchanged by the tester`)
  })
})
