// axe-core on every screen of the portal, on a laptop (1280×800) and on a phone (390×844): no
// violation of impact serious or critical, no console error and no page error on any screen, nothing
// wider than the screen, and on a phone the first ticket within the first screenful. The screens are
// opened with data in them (a ticket, a failed alert, a rule, a maintenance window, unmapped accounts
// with suggested companies), and the screens that open within a screen (the rule editor, the tester's
// result, a maintenance window's form) are checked once opened.
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { after, before, describe, test } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import {
  browserSkip,
  invitation,
  launchBrowser,
  openPortal,
  portalUser,
  signInPage,
} from '../support/browser.js'
import { type Setup, setupIntegration } from '../support/fixtures.js'
import { startService, type TestService } from '../support/service.js'

// Evaluated in the page rather than added as a <script>: the portal's Content-Security-Policy refuses
// inline scripts, and the test must not turn that policy off.
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

/** Serious and critical violations on the page as it stands: rule, help and where (a string: runs in the page). */
const runAxe = `(async () => {
  const result = await axe.run(document, { resultTypes: ['violations'] })
  if (result.passes.length + result.violations.length === 0) return ['axe ran no rule']
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => v.impact + ' ' + v.id + ' (' + v.help + '): ' +
      v.nodes.slice(0, 4).map((n) => n.target.join(' ')).join(' | ') + (v.nodes.length > 4 ? ' …' : ''))
})()`

/** What sticks out to the right of the screen: the innermost such elements (a string: runs in the page). */
const overflow = `(() => {
  if (document.documentElement.scrollWidth <= window.innerWidth + 1) return []
  const out = (el) => el.getBoundingClientRect().right > window.innerWidth + 1
  const wide = [...document.querySelectorAll('body *')].filter((el) => out(el) && ![...el.children].some(out))
  return ['wider than the screen (' + document.documentElement.scrollWidth + ' > ' + window.innerWidth + '): ' +
    wide.slice(0, 4).map((el) => el.outerHTML.slice(0, 120)).join(' | ')]
})()`

const viewports = [
  ['a laptop', { width: 1280, height: 800 }],
  ['a phone', { width: 390, height: 844 }],
] as const

describe('axe-core finds nothing serious on any screen, laptop or phone', { skip: browserSkip }, () => {
  let svc: TestService
  let browser: Browser
  let setup: Setup
  let admin: { email: string; password: string }
  let correlationId: string
  let inviteToken: string
  before(async () => {
    browser = await launchBrowser()
    svc = await startService()
    setup = await setupIntegration(svc)
    // Accounts the wizard suggests companies for, and one more left to map by hand.
    for (const [vendorAccountId, name] of [
      ['globex-inc', 'Globex Inc.'],
      ['initech-llc', 'Initech, LLC'],
      ['woodgrove-1', 'Woodgrove Bank - Branch Operations'],
    ] as const) {
      const res = await svc.request('POST', '/api/vendor-api/organization/accounts', {
        token: setup.vendorToken,
        body: { vendorAccountId, name, externalId: vendorAccountId.toUpperCase() },
      })
      assert.equal(res.status, 201, res.text)
    }
    const alert = await setup.sync({
      title: 'A long alert title that has to wrap on a small phone screen without running off it',
    })
    assert.equal(alert.status, 201, alert.text)
    correlationId = alert.body.data.correlationID
    // A refused alert (its account is not mapped): a failed event in red on the activity screen.
    await setup.sync({ accountId: 'globex-002', title: 'Backup failed on FS-01' })
    const startsAt = new Date(Math.floor(Date.now() / 1000) * 1000 + 86_400_000).toISOString()
    const endsAt = new Date(Date.parse(startsAt) + 7_200_000).toISOString()
    const maintenance = await setup.partner(
      'POST',
      `/api/partner/integrations/${setup.integrationId}/maintenance-windows`,
      { name: 'Router swap', startsAt, endsAt },
    )
    assert.equal(maintenance.status, 201, maintenance.text)
    admin = await portalUser(svc, setup.partnerId, 'admin')
    inviteToken = await invitation(svc, setup.partnerId, 'viewer', 'new-viewer@msp.example')
  })
  after(async () => {
    await browser?.close()
    await svc?.close()
  })

  const integration = () => `/integrations/${setup.integrationId}`
  const screens = (): [path: string, title: string][] => [
    ['/integrations', 'Integrations'],
    [`${integration()}/setup/connect`, 'Set up: Connect PSA'],
    [`${integration()}/setup/accounts`, 'Set up: Map accounts'],
    [`${integration()}/setup/services`, 'Set up: Map services'],
    [`${integration()}/setup/rules`, 'Set up: Rules'],
    [`${integration()}/setup/review`, 'Set up: Review'],
    [`${integration()}/rules`, 'Rules'],
    [`${integration()}/settings`, 'Integration settings'],
    [`${integration()}/maintenance`, 'Maintenance'],
    ['/tickets', 'Tickets'],
    [`/tickets/${correlationId}?integrationId=${setup.integrationId}`, 'Ticket'],
    ['/dashboard', 'Dashboard'],
    ['/activity', 'Activity'],
    ['/users', 'Users'],
    ['/account', 'Your account'],
    ['/no-such-page', 'Page not found'],
  ]

  for (const [device, viewport] of viewports) {
    test(`on ${device}`, async () => {
      const { page, problems, close } = await openPortal(browser, svc, viewport)
      /** Everything wrong, by screen: all screens are checked before the test fails. */
      const findings: string[] = []
      let screen = 'opening the portal'
      page.on('console', (msg) => {
        if (msg.type() !== 'error') return
        const where = msg.location().url
        findings.push(`${screen}: console error: ${msg.text()}${where ? ` (${where})` : ''}`)
      })
      page.on('pageerror', (err) => findings.push(`${screen}: page error: ${err.message}`))
      /** The screen as it stands, once its data has loaded. */
      const audit = async (name: string) => {
        screen = name
        await settle(page)
        if (!(await page.evaluate('typeof axe !== "undefined"'))) await page.evaluate(axeSource)
        for (const v of (await page.evaluate(runAxe)) as string[]) findings.push(`${name}: ${v}`)
        for (const o of (await page.evaluate(overflow)) as string[]) findings.push(`${name}: ${o}`)
      }
      /** Opens a screen by its URL; one that does not open is a finding (with what shows instead). */
      const open = async (path: string, title: string) => {
        screen = path
        await page.goto(path)
        try {
          await page.getByRole('heading', { level: 1, name: title, exact: true }).waitFor()
        } catch {
          const shown = await page.locator('h1, [role=alert]').allInnerTexts()
          findings.push(`${path}: no heading "${title}"; the screen shows ${JSON.stringify(shown)}`)
          return
        }
        await audit(path)
      }
      try {
        await open('/sign-in', 'Sign in to alertbridge')
        await open(`/invite#${inviteToken}`, 'Accept your invitation')
        screen = 'signing in'
        await signInPage(page, admin)
        for (const [path, title] of screens()) {
          await open(path, title)
          if (path === '/tickets' && viewport.width < 600) {
            // On a phone the tickets come first: the first one within the first screenful.
            const first = page.getByRole('link', { name: /^A long alert title/ }).first()
            const box = await first.boundingBox()
            if (!box || box.y + box.height > viewport.height)
              findings.push(
                `/tickets: the first ticket is not on the first screen (at ${box?.y ?? 'none'} px)`,
              )
          }
        }

        /** A screen within a screen, opened by a click; one that does not open is a finding. */
        const within = async (name: string, steps: () => Promise<void>) => {
          screen = name
          try {
            await steps()
          } catch (err) {
            findings.push(`${name}: did not open: ${String(err).split('\n')[0]}`)
            return
          }
          await audit(name)
        }
        // Within the rules screen: the rule editor, and the tester with its result.
        await open(`${integration()}/rules`, 'Rules')
        await within('rules: the new rule form', async () => {
          await page.getByRole('button', { name: 'Add rule', exact: true }).click()
          await page.getByRole('form', { name: 'New rule' }).waitFor()
        })
        await within('rules: the rule editor', async () => {
          await page.getByRole('button', { name: 'Cancel', exact: true }).click()
          await page
            .getByRole('button', { name: /^Edit / })
            .first()
            .click()
          await page.getByRole('form', { name: 'Change rule' }).waitFor()
        })
        await within('rules: the tester with a result', async () => {
          const tester = page.locator('section', { has: page.getByRole('heading', { name: /tester/i }) })
          const title = tester.getByLabel('Title', { exact: true })
          if ((await title.count()) > 0) await title.fill('Ransomware behaviour on WS-042')
          await tester.getByRole('button', { name: /^Test( alert)?$/ }).click()
          await tester.getByRole('status').filter({ hasText: /\w/ }).first().waitFor()
        })
        // Within the maintenance screen: a window's form.
        await open(`${integration()}/maintenance`, 'Maintenance')
        await within('maintenance: a window being edited', async () => {
          await page.getByRole('button', { name: 'Edit Router swap' }).click()
          await page.getByRole('form', { name: 'Edit maintenance window Router swap' }).waitFor()
        })

        assert.deepEqual([...problems, ...findings], [])
      } finally {
        await close()
      }
    })
  }
})

/** Waits until the screen has no request under way and no loading message (the data is in). */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle')
  await page.locator('.loading').first().waitFor({ state: 'detached' })
}
