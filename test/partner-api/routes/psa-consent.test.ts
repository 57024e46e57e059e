// Connect NinjaOne through its consent page (docs/psa/ninjaone.md#connecting-the-consent-flow): the
// authorize route answers NinjaOne's consent URL with a state and a PKCE challenge; NinjaOne (its
// simulator) sends the browser to the callback with a code; the callback exchanges it with the
// verifier and keeps the user's refresh token in the partner's settings, sealed, and sends the
// partner back to the portal with a plain message. A state works once, for its partner only.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { setupIntegration } from '../../support/fixtures.js'
import { startService, type TestService } from '../../support/service.js'
import { type NinjaOneSim, startNinjaOneSim } from '../../support/sims/ninjaone/server.js'

describe('Connect NinjaOne (authorization code with PKCE)', () => {
  let svc: TestService
  let sim: NinjaOneSim
  before(async () => {
    sim = await startNinjaOneSim()
    svc = await startService({ env: { ALLOW_PRIVATE_NETWORK: 'true' } })
  })
  after(async () => {
    await svc?.close()
    await sim?.close()
  })

  const connected = () =>
    setupIntegration(svc, {
      psa: {
        kind: 'ninjaone',
        baseUrl: sim.url,
        clientId: sim.state.credentials.clientId,
        clientSecret: sim.state.credentials.clientSecret,
      },
    })

  /** The consent page's Approve link, as a browser would follow it. */
  const approve = async (consentUrl: string) => {
    const page = await fetch(consentUrl)
    assert.equal(page.status, 200, await page.clone().text())
    const href = /id="approve"[^>]*href="([^"]+)"/.exec(await page.text())?.[1]
    assert.ok(href, 'the consent page has an Approve link')
    return new URL(href.replace(/&amp;/g, '&'))
  }

  test('the consent brings the refresh token back: sealed in the settings, never in a URL; tickets can be written', async () => {
    const s = await connected()
    const before = await s.partner('POST', '/api/partner/psa/test')
    assert.equal(before.body.ok, false)
    assert.match(before.body.detail, /Connect NinjaOne/)
    const started = await s.partner('POST', '/api/partner/psa/ninjaone/authorize', {
      returnTo: '/integrations/x/setup/connect',
    })
    assert.equal(started.status, 200, started.text)
    assert.equal(started.body.redirectUri, `${svc.url}/api/partner/psa/ninjaone/callback`)
    const consent = new URL(started.body.url)
    assert.equal(consent.origin + consent.pathname, `${sim.url}/ws/oauth/authorize`)
    assert.equal(consent.searchParams.get('code_challenge_method'), 'S256')
    assert.equal(consent.searchParams.get('scope'), 'monitoring management offline_access')
    assert.equal(consent.searchParams.get('redirect_uri'), started.body.redirectUri)
    const callback = await approve(started.body.url)
    const back = await fetch(`${svc.url}${callback.pathname}${callback.search}`, { redirect: 'manual' })
    assert.equal(back.status, 302, await back.text())
    const location = back.headers.get('location') ?? ''
    assert.equal(location, '/integrations/x/setup/connect?ninjaone=connected')
    const view = await s.partner('GET', '/api/partner/psa')
    assert.equal(view.body.refreshToken, '********')
    const issued = Object.keys(sim.state.refreshTokens).filter(
      (t) => t !== sim.state.credentials.refreshToken,
    )
    assert.ok(issued.length >= 1, 'NinjaOne issued the user a refresh token')
    for (const t of issued) assert.equal(JSON.stringify(view.body).includes(t), false)
    const tested = await s.partner('POST', '/api/partner/psa/test')
    assert.equal(tested.body.ok, true, tested.body.detail)
    // The same link again: its state was taken.
    const again = await fetch(`${svc.url}${callback.pathname}${callback.search}`, { redirect: 'manual' })
    assert.equal(again.status, 400)
    assert.match(await again.text(), /unknown, used or expired/)
  })

  test('a refused consent, an unknown state and a code without its verifier change nothing', async () => {
    const s = await connected()
    const started = await s.partner('POST', '/api/partner/psa/ninjaone/authorize', {})
    const state = new URL(started.body.url).searchParams.get('state') ?? ''
    const denied = await fetch(
      `${svc.url}/api/partner/psa/ninjaone/callback?error=access_denied&state=${encodeURIComponent(state)}`,
      { redirect: 'manual' },
    )
    assert.equal(denied.status, 302)
    assert.match(
      denied.headers.get('location') ?? '',
      /^\/integrations\?ninjaone=failed&reason=access_denied$/,
    )
    const unknown = await fetch(`${svc.url}/api/partner/psa/ninjaone/callback?code=x&state=forged`, {
      redirect: 'manual',
    })
    assert.equal(unknown.status, 400)
    // A code NinjaOne issued for another flow's challenge: the exchange fails PKCE.
    const mine = await s.partner('POST', '/api/partner/psa/ninjaone/authorize', {})
    const other = await s.partner('POST', '/api/partner/psa/ninjaone/authorize', {})
    const code = (await approve(other.body.url)).searchParams.get('code') ?? ''
    const mineState = new URL(mine.body.url).searchParams.get('state') ?? ''
    const swapped = await fetch(
      `${svc.url}/api/partner/psa/ninjaone/callback?code=${code}&state=${encodeURIComponent(mineState)}`,
      { redirect: 'manual' },
    )
    assert.equal(swapped.status, 302)
    assert.match(swapped.headers.get('location') ?? '', /ninjaone=failed&reason=.*PKCE/)
    assert.equal((await s.partner('GET', '/api/partner/psa')).body.refreshToken, undefined)
  })

  test('a partner whose PSA is not NinjaOne cannot start the flow', async () => {
    const s = await setupIntegration(svc)
    const r = await s.partner('POST', '/api/partner/psa/ninjaone/authorize', {})
    assert.equal(r.status, 409, r.text)
    const bad = await (await connected()).partner('POST', '/api/partner/psa/ninjaone/authorize', {
      returnTo: 'https://evil.example/',
    })
    assert.equal(bad.status, 400)
  })
})
