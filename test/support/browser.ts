// Headless Chromium for the portal's tests: Debian's `chromium` package (.ci/run installs it), driven
// by playwright-core, which downloads nothing. Without the browser the tests say so and are skipped on
// a developer's machine; under CI=true a missing browser fails the run instead of skipping silently.
import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'
import { ensurePortalBuilt } from './portal-build.js'
import type { TestService } from './service.js'

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const installed = existsSync(chromiumPath)
if (!installed && process.env.CI === 'true') {
  throw new Error(
    `Chromium is not at ${chromiumPath}: CI runs the portal's browser tests (apt-get install chromium)`,
  )
}

/** For describe(): skip with the reason when the browser is missing (never under CI, see above). */
export const browserSkip: string | false = installed
  ? false
  : `Chromium is not installed at ${chromiumPath} (apt-get install -y chromium)`

export async function launchBrowser(): Promise<Browser> {
  ensurePortalBuilt()
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    // Root in a container has no user namespace for Chromium's sandbox.
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
  })
}

export interface PortalPage {
  context: BrowserContext
  page: Page
  /** Uncaught errors and Content-Security-Policy refusals seen so far (must stay empty). */
  problems: string[]
  close(): Promise<void>
}

/** A fresh browser profile (no cookies) on the service, watching for page errors and CSP refusals. */
export async function openPortal(
  browser: Browser,
  svc: TestService,
  viewport = { width: 1280, height: 900 },
): Promise<PortalPage> {
  const context = await browser.newContext({ baseURL: svc.url, viewport })
  context.setDefaultTimeout(15_000)
  const page = await context.newPage()
  const problems: string[] = []
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`))
  page.on('console', (msg) => {
    if (msg.type() === 'error' && /Content Security Policy|Refused to/i.test(msg.text()))
      problems.push(`CSP: ${msg.text()}`)
  })
  return { context, page, problems, close: () => context.close() }
}

/** A portal user of the partner, invited by the operator and with the invite accepted. */
export async function portalUser(
  svc: TestService,
  partnerId: string,
  role: 'admin' | 'viewer',
  email = `${role}-${Math.random().toString(36).slice(2, 8)}@msp.example`,
): Promise<{ email: string; password: string; inviteToken: string }> {
  const password = `correct horse ${role} battery`
  const invite = await svc.request('POST', `/api/admin/partners/${partnerId}/users`, {
    token: svc.adminToken,
    body: { email, name: `${role[0]!.toUpperCase()}${role.slice(1)} User`, role },
  })
  assert.equal(invite.status, 201, invite.text)
  const accept = await svc.request('POST', '/api/partner/session/invite', {
    body: { inviteToken: invite.body.inviteToken, password },
  })
  assert.equal(accept.status, 200, accept.text)
  return { email, password, inviteToken: invite.body.inviteToken }
}

/** An operator invite not accepted yet: its token, for the accept-invite screen. */
export async function invitation(
  svc: TestService,
  partnerId: string,
  role: 'admin' | 'viewer',
  email: string,
) {
  const invite = await svc.request('POST', `/api/admin/partners/${partnerId}/users`, {
    token: svc.adminToken,
    body: { email, role },
  })
  assert.equal(invite.status, 201, invite.text)
  return invite.body.inviteToken as string
}

/**
 * Signs in through the portal's own form in `page` (and waits for the signed-in layout): the
 * browser's way. A test that needs a session over the API alone uses `signIn` of ./portal.ts.
 */
export async function signInPage(
  page: Page,
  user: { email: string; password: string },
  path = '/',
): Promise<void> {
  await page.goto(path)
  await page.getByLabel('Email').fill(user.email)
  await page.getByLabel('Password').fill(user.password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByRole('button', { name: 'Sign out' }).waitFor()
}
