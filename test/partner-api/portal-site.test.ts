// How the service serves the portal: index.html for every page's URL (deep links), hashed assets
// kept for a year, index.html asked for again each time, a strict CSP, and the API and /docs as before.
import assert from 'node:assert/strict'
import { readdirSync } from 'node:fs'
import { after, before, describe, test } from 'node:test'
import { contentSecurityPolicy, portalDir } from '../../src/partner-api/portal-site.js'
import { ensurePortalBuilt } from '../support/portal-build.js'
import { startService, type TestService } from '../support/service.js'

describe('serving the partner portal', () => {
  let svc: TestService
  before(async () => {
    ensurePortalBuilt()
    svc = await startService()
  })
  after(() => svc.close())

  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${svc.url}${path}`, { headers })

  test('/ and every deep link answer index.html, not cached, with a strict Content-Security-Policy', async () => {
    for (const path of [
      '/',
      '/integrations',
      '/integrations/abc/setup/accounts',
      '/tickets/c-1?integrationId=x',
    ]) {
      const res = await get(path)
      assert.equal(res.status, 200, path)
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/, path)
      assert.equal(res.headers.get('cache-control'), 'no-cache', path)
      assert.equal(res.headers.get('content-security-policy'), contentSecurityPolicy, path)
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff')
      assert.equal(res.headers.get('x-frame-options'), 'DENY')
      assert.match(await res.text(), /<div id="root"><\/div>/)
    }
  })

  test('the CSP allows no inline script and index.html carries none', async () => {
    assert.match(contentSecurityPolicy, /default-src 'self'/)
    assert.match(contentSecurityPolicy, /script-src 'self'(;|$)/)
    assert.doesNotMatch(contentSecurityPolicy, /unsafe-inline|unsafe-eval/)
    const html = await (await get('/')).text()
    for (const tag of html.match(/<script[^>]*>[\s\S]*?<\/script>/g) ?? [])
      assert.match(tag, /^<script[^>]* src="\/assets\/[^"]+"[^>]*><\/script>$/, `inline script: ${tag}`)
    assert.doesNotMatch(html, /<style/)
  })

  test('hashed assets are immutable for a year; a missing asset is a 404, not index.html', async () => {
    const asset = readdirSync(`${portalDir}assets`).find((f) => f.endsWith('.js'))!
    const res = await get(`/assets/${asset}`)
    assert.equal(res.status, 200)
    assert.match(res.headers.get('content-type') ?? '', /javascript/)
    assert.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable')
    const missing = await get('/assets/index-nothere.js')
    assert.equal(missing.status, 404)
    assert.match(missing.headers.get('content-type') ?? '', /application\/json/)
  })

  test('unknown API paths keep the failure envelope; the API and /docs work as before', async () => {
    const res = await svc.request('GET', '/api/partner/nothing-here')
    assert.equal(res.status, 404)
    assert.equal(res.body.error, 'NOT_FOUND')
    assert.equal((await svc.request('GET', '/api/nothing')).body.error, 'NOT_FOUND')
    assert.equal((await svc.request('GET', '/api/partner/integrations')).status, 401)
    const docs = await get('/docs/json')
    assert.equal(docs.status, 200)
    assert.ok(((await docs.json()) as any).paths['/api/partner/integrations'])
    const ui = await get('/docs')
    assert.ok([200, 302].includes(ui.status))
    assert.notEqual(ui.headers.get('content-security-policy'), contentSecurityPolicy)
    assert.equal((await get('/healthz')).status, 200)
  })

  test('the portal is not listed in the OpenAPI document', async () => {
    const doc = (await (await get('/docs/json')).json()) as any
    assert.ok(!Object.keys(doc.paths).some((p) => p === '/*' || p === '/'))
  })
})
