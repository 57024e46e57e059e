// Signing in and out of the portal in headless Chromium: a wrong password is refused in plain words,
// a deep link survives sign-in and a reload, signing out ends the session for the API too, an invited
// user sets a password from the invitation link (one easy to guess is refused with the reason), and a
// user sees and ends their other sessions and changes their password on "Your account".
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Browser } from 'playwright-core'
import {
  browserSkip,
  invitation,
  launchBrowser,
  openPortal,
  portalUser,
  signInPage,
} from '../../support/browser.js'
import { type Setup, setupIntegration } from '../../support/fixtures.js'
import { startService, type TestService } from '../../support/service.js'

describe('signing in to the portal', { skip: browserSkip }, () => {
  let svc: TestService
  let browser: Browser
  let setup: Setup
  let admin: { email: string; password: string }
  before(async () => {
    browser = await launchBrowser()
    svc = await startService()
    setup = await setupIntegration(svc)
    admin = await portalUser(svc, setup.partnerId, 'admin')
  })
  after(async () => {
    await browser?.close()
    await svc?.close()
  })

  test('sign in, see the integrations, reload a deep link, sign out', async () => {
    const { page, problems, close } = await openPortal(browser, svc)
    try {
      await page.goto(`/integrations/${setup.integrationId}/settings`)
      // Not signed in: the sign-in screen, which leads back to the deep link afterwards.
      await page.getByRole('heading', { name: 'Sign in to alertbridge' }).waitFor()
      assert.match(page.url(), /\/sign-in\?next=/)

      await page.getByLabel('Email').fill(admin.email)
      await page.getByLabel('Password').fill('not the password')
      await page.getByRole('button', { name: 'Sign in' }).click()
      await page.getByRole('alert').filter({ hasText: 'The email or the password is wrong.' }).waitFor()

      await page.getByLabel('Password').fill(admin.password)
      await page.getByRole('button', { name: 'Sign in' }).click()
      await page.getByRole('heading', { name: 'Integration settings' }).waitFor()
      assert.match(page.url(), new RegExp(`/integrations/${setup.integrationId}/settings$`))

      await page.reload()
      await page.getByRole('heading', { name: 'Integration settings' }).waitFor()
      await page.getByRole('link', { name: 'Integrations' }).first().click()
      await page.getByRole('heading', { name: 'Integrations' }).waitFor()
      await page
        .getByRole('cell', { name: /Acme Security|vnd_|[0-9a-f-]{8}/ })
        .first()
        .waitFor()
      await page.getByText('pending', { exact: true }).waitFor()

      await page.getByRole('button', { name: 'Sign out' }).click()
      await page.getByRole('heading', { name: 'Sign in to alertbridge' }).waitFor()
      const session = await page.evaluate(async () => (await fetch('/api/partner/session')).status)
      assert.equal(session, 401, 'the session ended on the server too')
      await page.goto('/tickets')
      await page.getByRole('heading', { name: 'Sign in to alertbridge' }).waitFor()
      assert.deepEqual(problems, [])
    } finally {
      await close()
    }
  })

  test('an invited user sets a password from the invitation link and is signed in', async () => {
    const email = 'new.dispatcher@msp.example'
    const token = await invitation(svc, setup.partnerId, 'viewer', email)
    const { page, problems, close } = await openPortal(browser, svc)
    try {
      await page.goto(`/invite#${token}`)
      await page.getByLabel('Your name').fill('New Dispatcher')
      await page.getByLabel('Password', { exact: true }).fill('short')
      await page.getByLabel('Password again').fill('short')
      await page.getByRole('button', { name: 'Set password and sign in' }).click()
      await page.getByRole('alert').filter({ hasText: 'at least 12 characters' }).waitFor()
      // Long enough but easy to guess: the reason, in words, before anything is sent.
      await page.getByLabel('Password', { exact: true }).fill('aaaaaaaaaaaa')
      await page.getByText(/Strength: too easy to guess\. .*Repeated characters/).waitFor()
      await page.getByLabel('Password again').fill('aaaaaaaaaaaa')
      await page.getByRole('button', { name: 'Set password and sign in' }).click()
      await page.getByRole('alert').filter({ hasText: 'Repeated characters like "aaa"' }).waitFor()
      await page.getByLabel('Password', { exact: true }).fill('a long enough passphrase')
      await page.getByText(/Strength: (very )?strong\./).waitFor()
      await page.getByLabel('Password again').fill('a long enough passphrase')
      await page.getByRole('button', { name: 'Set password and sign in' }).click()
      await page.getByRole('heading', { name: 'Integrations' }).waitFor()
      await page.getByText('New Dispatcher').waitFor()
      await page.getByText('signed in as a viewer').waitFor()
      assert.deepEqual(problems, [])
    } finally {
      await close()
    }
    // The invite was used: the same link does not work again.
    const again = await svc.request('POST', '/api/partner/session/invite', {
      body: { inviteToken: token, password: 'another long passphrase' },
    })
    assert.ok(again.status >= 400, again.text)
    // And the password signs in.
    await signInWorks(email, 'a long enough passphrase')
  })

  test('your account: where you are signed in, signing out everywhere else, changing the password', async () => {
    const user = await portalUser(svc, setup.partnerId, 'viewer')
    const elsewhere = await svc.request('POST', '/api/partner/session', {
      body: { email: user.email, password: user.password },
      headers: { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) Safari/604.1' },
    })
    assert.equal(elsewhere.status, 200, elsewhere.text)
    const { page, problems, close } = await openPortal(browser, svc)
    try {
      await signInPage(page, user, '/users')
      await page.getByRole('link', { name: /Your account/ }).click()
      await page.getByRole('heading', { name: 'Your account' }).waitFor()
      const sessions = page.getByRole('table', { name: 'Your sessions' })
      await sessions.getByText('This session').waitFor()
      await sessions.getByText('Safari on iOS').waitFor()
      await page.getByRole('button', { name: /^End the session of Safari on iOS/ }).click()
      await page.getByRole('status').filter({ hasText: 'The session of Safari on iOS ended.' }).waitFor()
      await page.getByRole('button', { name: 'Sign out everywhere else' }).click()
      await page.getByRole('status').filter({ hasText: 'Signed out of 1 other session.' }).waitFor()

      await page.getByLabel('Current password').fill(user.password)
      await page.getByLabel('New password', { exact: true }).fill('password1234')
      await page.getByText(/Strength: too easy to guess\. .*commonly used password/).waitFor()
      await page.getByLabel('New password again').fill('password1234')
      await page.getByRole('button', { name: 'Change password' }).click()
      await page.getByRole('alert').filter({ hasText: 'commonly used password' }).waitFor()
      await page.getByLabel('New password', { exact: true }).fill('a fresh passphrase of mine')
      await page.getByLabel('New password again').fill('a fresh passphrase of mine')
      await page.getByRole('button', { name: 'Change password' }).click()
      await page.getByRole('status').filter({ hasText: 'Your password is changed' }).waitFor()
      assert.deepEqual(problems, [])
    } finally {
      await close()
    }
    const old = await svc.request('POST', '/api/partner/session', {
      body: { email: user.email, password: user.password },
    })
    assert.equal(old.status, 401, 'the old password no longer signs in')
    await signInWorks(user.email, 'a fresh passphrase of mine')
  })

  async function signInWorks(email: string, password: string) {
    const { page, close } = await openPortal(browser, svc)
    try {
      await signInPage(page, { email, password })
    } finally {
      await close()
    }
  }
})
