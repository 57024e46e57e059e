// The NinjaOne simulator refuses what NinjaOne refuses: a token request without the client's
// credentials, a spent refresh token, a code without its PKCE verifier, a call without a valid bearer
// token, a machine token's ticket write, a ticket without its required fields or with a subject over
// 200 characters, an unknown organization or status, a PUT with a stale version, a comment that is
// not multipart; and it throttles with an HTML page when asked, and lets a technician act over HTTP.
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { after, before, describe, test } from 'node:test'
import { type NinjaOneSim, startNinjaOneSim } from './server.js'

describe('NinjaOne simulator', () => {
  let sim: NinjaOneSim
  before(async () => {
    sim = await startNinjaOneSim({ organizations: 450, tickets: 20 })
  })
  after(() => sim.close())

  const form = (body: Record<string, string>) =>
    fetch(`${sim.url}/ws/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(body).toString(),
    })
  const creds = () => ({
    client_id: sim.state.credentials.clientId,
    client_secret: sim.state.credentials.clientSecret,
  })
  const userToken = async () => {
    const r = await form({ ...creds(), grant_type: 'refresh_token', refresh_token: sim.grant() })
    return ((await r.json()) as { access_token: string }).access_token
  }
  const api = async (token: string, method: string, path: string, body?: unknown) => {
    const r = await fetch(`${sim.url}/v2${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    })
    const text = await r.text()
    return { status: r.status, body: text ? JSON.parse(text) : null }
  }

  test('refresh tokens rotate: the new one works, the spent one is refused; wrong clients are refused', async () => {
    const first = sim.grant()
    const r = await form({ ...creds(), grant_type: 'refresh_token', refresh_token: first })
    const got = (await r.json()) as { refresh_token: string; expires_in: number }
    assert.equal(r.status, 200)
    assert.equal(got.expires_in, 3600)
    assert.notEqual(got.refresh_token, first)
    const spent = await form({ ...creds(), grant_type: 'refresh_token', refresh_token: first })
    assert.equal(spent.status, 400)
    assert.equal(((await spent.json()) as { error: string }).error, 'invalid_grant')
    assert.equal(
      (await form({ ...creds(), grant_type: 'refresh_token', refresh_token: got.refresh_token })).status,
      200,
    )
    assert.equal(
      (await form({ ...creds(), client_secret: 'x', grant_type: 'client_credentials' })).status,
      401,
    )
    assert.equal((await form({ ...creds(), client_id: 'x', grant_type: 'client_credentials' })).status, 404)
  })

  test('the consent page redirects with a code that only its PKCE verifier exchanges', async () => {
    const verifier = 'v'.repeat(50)
    const challenge = createHash('sha256').update(verifier).digest('base64url')
    const q = new URLSearchParams({
      response_type: 'code',
      client_id: sim.state.credentials.clientId,
      redirect_uri: 'http://127.0.0.1:1/cb',
      scope: 'monitoring management offline_access',
      state: 's-1',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    })
    const page = await (await fetch(`${sim.url}/ws/oauth/authorize?${q}`)).text()
    const href = new URL((/href="([^"]+)"/.exec(page)?.[1] ?? '').replace(/&amp;/g, '&'))
    assert.equal(href.searchParams.get('state'), 's-1')
    const code = href.searchParams.get('code') ?? ''
    const wrong = await form({
      ...creds(),
      grant_type: 'authorization_code',
      code,
      code_verifier: 'x',
      redirect_uri: 'http://127.0.0.1:1/cb',
    })
    assert.equal(wrong.status, 400)
    const plain = new URLSearchParams(q)
    plain.set('code_challenge_method', 'plain')
    assert.equal((await fetch(`${sim.url}/ws/oauth/authorize?${plain}`)).status, 400)
  })

  test('the API takes a valid bearer token only; a machine token may read but not write tickets', async () => {
    assert.equal((await api('nope', 'GET', '/ticketing/statuses')).status, 401)
    const machine = (await (await form({ ...creds(), grant_type: 'client_credentials' })).json()) as {
      access_token: string
    }
    assert.equal((await api(machine.access_token, 'GET', '/ticketing/statuses')).status, 200)
    const refused = await api(machine.access_token, 'POST', '/ticketing/ticket', {})
    assert.equal(refused.status, 403)
    assert.equal(refused.body.resultCode, 'user_context_required')
  })

  test('a ticket needs its fields; the subject holds 200 characters; a stale version is refused', async () => {
    const token = await userToken()
    const missing = await api(token, 'POST', '/ticketing/ticket', { subject: 'x' })
    assert.equal(missing.status, 400)
    assert.match(missing.body.errorMessage, /clientId.*ticketFormId.*status/)
    const base = { clientId: 1, ticketFormId: 1, status: '1000', description: { public: false, body: 'b' } }
    assert.equal(
      (await api(token, 'POST', '/ticketing/ticket', { ...base, subject: 'x'.repeat(201) })).status,
      400,
    )
    assert.equal(
      (await api(token, 'POST', '/ticketing/ticket', { ...base, subject: 's', clientId: 9999 })).status,
      400,
    )
    assert.equal(
      (await api(token, 'POST', '/ticketing/ticket', { ...base, subject: 's', status: '42' })).status,
      400,
    )
    const made = await api(token, 'POST', '/ticketing/ticket', { ...base, subject: 's', tags: ['t'] })
    assert.equal(made.status, 200)
    assert.deepEqual(made.body.status, { statusId: 1000, name: 'NEW', displayName: 'New', parentId: null })
    const stale = await api(token, 'PUT', `/ticketing/ticket/${made.body.id}`, { version: 0, status: '6000' })
    assert.equal(stale.status, 409)
    const put = await api(token, 'PUT', `/ticketing/ticket/${made.body.id}`, { version: 1, status: '6000' })
    assert.equal(put.status, 200)
    assert.equal(put.body.version, 2)
    const notMultipart = await api(token, 'POST', `/ticketing/ticket/${made.body.id}/comment`, {
      public: false,
      body: 'x',
    })
    assert.equal(notMultipart.status, 400)
  })

  test('organizations page with after and pageSize; the HTML rate-limit page when asked', async () => {
    const token = await userToken()
    const first = await api(token, 'GET', '/organizations?pageSize=200')
    const second = await api(token, 'GET', `/organizations?pageSize=200&after=${first.body.at(-1).id}`)
    assert.deepEqual([first.body.length, second.body.length, second.body[0].id], [200, 200, 201])
    sim.state.htmlRateLimit = 1
    const page = await fetch(`${sim.url}/v2/ticketing/statuses`, {
      headers: { authorization: `Bearer ${token}` },
    })
    assert.match(await page.text(), /Rate limit exceeded/)
    assert.equal((await api(token, 'GET', '/ticketing/statuses')).status, 200)
  })

  test('a technician over HTTP: delete and reinstate a ticket; an unknown ticket or action is 404', async () => {
    const tech = (action: string, body: unknown) =>
      fetch(`${sim.url}/__sim/technician/${action}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    const t = sim.state.tickets[0]!
    assert.equal((await tech('delete', { id: String(t.id) })).status, 204)
    assert.equal(t.deleted, true)
    assert.equal((await tech('reinstate', { id: String(t.id) })).status, 204)
    assert.equal(t.deleted, false)
    assert.equal((await tech('close', { id: '999999' })).status, 404)
    assert.equal((await tech('reinstate', { id: '999999' })).status, 404)
    assert.equal((await tech('explode', { id: String(t.id) })).status, 404)
  })
})
