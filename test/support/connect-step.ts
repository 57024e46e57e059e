// A browser suite of the setup wizard's Connect step against one PSA simulator (test/web/pages/wizard/
// ConnectStep.<kind>.test.ts): Chromium, the simulator, a service, an integration waiting for its
// mapping (nothing mapped, no rule) and a portal admin of its partner. Each test gets the portal page
// signed in as that admin; the page must show no script or CSP problem by its end.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import { browserSkip, launchBrowser, openPortal, portalUser, signInPage } from './browser.js'
import { type Setup, setupIntegration } from './fixtures.js'
import { startService, type TestService } from './service.js'

export interface ConnectStep<S> {
  page: Page
  sim: S
  svc: TestService
  setup: Setup
}

export function connectStepSuite<S extends { close(): Promise<void> }>(
  psaName: string,
  startSim: () => Promise<S>,
  tests: Record<string, (c: ConnectStep<S>) => Promise<void>>,
): void {
  describe(`the Connect step with ${psaName}`, { skip: browserSkip }, () => {
    let svc: TestService
    let sim: S
    let browser: Browser
    let setup: Setup
    let admin: { email: string; password: string }
    before(async () => {
      browser = await launchBrowser()
      sim = await startSim()
      svc = await startService({ env: { ALLOW_PRIVATE_NETWORK: 'true' } })
      setup = await setupIntegration(svc, { stopAt: 'mapping', accounts: [], mapped: [], rule: null })
      admin = await portalUser(svc, setup.partnerId, 'admin')
    })
    after(async () => {
      await browser?.close()
      await svc?.close()
      await sim?.close()
    })

    for (const [name, run] of Object.entries(tests)) {
      test(name, async () => {
        const { page, problems, close } = await openPortal(browser, svc)
        try {
          await signInPage(page, admin)
          await run({ page, sim, svc, setup })
          assert.deepEqual(problems, [])
        } finally {
          await close()
        }
      })
    }
  })
}
