// Every main screen in headless Chromium, on a laptop and on a phone: one heading that names it and
// takes the focus, every form control labelled, a skip link first in the tab order, nothing wider than
// a phone's screen, and no Content-Security-Policy refusal or script error.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import { browserSkip, launchBrowser, openPortal, portalUser, signInPage } from '../support/browser.js'
import { type Setup, setupIntegration } from '../support/fixtures.js'
import { startService, type TestService } from '../support/service.js'

/** The screen's problems, checked in the page (a string: the test's transform adds helpers the page lacks). */
const audit = `(() => {
  const problems = []
  const h1 = document.querySelectorAll('h1')
  if (h1.length !== 1) problems.push(h1.length + ' h1 elements')
  for (const el of document.querySelectorAll('input:not([type=hidden]), select, textarea')) {
    const named = el.labels?.length || el.getAttribute('aria-label') || el.getAttribute('aria-labelledby')
    if (!named) problems.push('unlabelled ' + el.outerHTML.slice(0, 80))
  }
  for (const el of document.querySelectorAll('button, a[href]')) {
    if (!(el.textContent.trim() || el.getAttribute('aria-label'))) problems.push('nameless ' + el.outerHTML.slice(0, 80))
  }
  if (document.documentElement.scrollWidth > window.innerWidth + 1)
    problems.push('wider than the screen: ' + document.documentElement.scrollWidth + ' > ' + window.innerWidth + ': ' +
      [...document.querySelectorAll('main *')].filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
        .map((el) => el.tagName + '.' + el.className).slice(-3).join(', '))
  return problems
})()`

describe('every screen is labelled, keyboard-reachable and fits a phone', { skip: browserSkip }, () => {
  let svc: TestService
  let browser: Browser
  let setup: Setup
  let admin: { email: string; password: string }
  let correlationId: string
  before(async () => {
    browser = await launchBrowser()
    svc = await startService()
    setup = await setupIntegration(svc)
    const alert = await setup.sync({ title: 'A long alert title that has to wrap on a small phone screen' })
    correlationId = alert.body.data.correlationID
    admin = await portalUser(svc, setup.partnerId, 'admin')
  })
  after(async () => {
    await browser?.close()
    await svc?.close()
  })

  const screens = () => [
    ['/integrations', 'Integrations'],
    [`/integrations/${setup.integrationId}/setup/connect`, 'Set up: Connect PSA'],
    [`/integrations/${setup.integrationId}/setup/accounts`, 'Set up: Map accounts'],
    [`/integrations/${setup.integrationId}/setup/services`, 'Set up: Map services'],
    [`/integrations/${setup.integrationId}/setup/review`, 'Set up: Review'],
    [`/integrations/${setup.integrationId}/rules`, 'Rules'],
    [`/integrations/${setup.integrationId}/settings`, 'Integration settings'],
    [`/integrations/${setup.integrationId}/maintenance`, 'Maintenance'],
    ['/tickets', 'Tickets'],
    [`/tickets/${correlationId}?integrationId=${setup.integrationId}`, 'Ticket'],
    ['/dashboard', 'Dashboard'],
    ['/activity', 'Activity'],
    ['/users', 'Users'],
    ['/no-such-page', 'Page not found'],
  ]

  let moves = 0
  /** Opens a screen as a user would, by a link within the portal (a page load keeps the focus at the top). */
  const check = async (page: Page, path: string, title: string) => {
    // (What React Router's own navigation pushes: a state with a key, then the event it listens to.)
    await page.evaluate(
      `window.history.pushState({ usr: null, key: 'k${++moves}', idx: ${moves} }, '', ${JSON.stringify(path)}); window.dispatchEvent(new PopStateEvent('popstate'))`,
    )
    const heading = page.getByRole('heading', { level: 1, name: title, exact: true })
    await heading.waitFor()
    await page.waitForLoadState('networkidle')
    assert.equal(
      await heading.evaluate((h) => h === (globalThis as any).document.activeElement),
      true,
      `${path}: the heading has the focus`,
    )
    assert.deepEqual(await page.evaluate(audit), [], path)
    assert.equal(await page.title(), `${title} · alertbridge`)
  }

  for (const [name, viewport] of [
    ['a laptop', { width: 1280, height: 800 }],
    ['a phone', { width: 375, height: 740 }],
  ] as const) {
    test(`on ${name}`, async () => {
      const { page, problems, close } = await openPortal(browser, svc, viewport)
      try {
        await signInPage(page, admin)
        for (const [path, title] of screens()) await check(page, path!, title!)
        // After a page load, the first Tab reaches the skip link.
        await page.goto('/tickets')
        await page.getByRole('heading', { name: 'Tickets' }).waitFor()
        await page.keyboard.press('Tab')
        assert.equal(await page.evaluate('document.activeElement.textContent'), 'Skip to content')
        assert.deepEqual(problems, [])
      } finally {
        await close()
      }
    })
  }

  test('the sign-in and invitation screens are labelled too', async () => {
    const { page, problems, close } = await openPortal(browser, svc, { width: 375, height: 740 })
    try {
      await page.goto('/sign-in')
      await page.getByRole('heading', { name: 'Sign in to alertbridge' }).waitFor()
      assert.deepEqual(await page.evaluate(audit), [])
      await page.goto('/invite#some-token')
      await page.getByRole('heading', { name: 'Accept your invitation' }).waitFor()
      assert.deepEqual(await page.evaluate(audit), [])
      assert.deepEqual(problems, [])
    } finally {
      await close()
    }
  })
})
