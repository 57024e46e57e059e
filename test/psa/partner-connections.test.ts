// The partner's PSA connection through the API, against the ConnectWise simulator: saving it again
// without the private key keeps the saved key; a new host without the key is refused and nothing is
// sent there; a company id with a lone surrogate is no 5xx; a board-scoped look-up (statuses, types) without a board is refused here, not asked of
// the PSA (docs/partner-api.md#the-psa-connection).
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { type Setup, setupIntegration } from '../support/fixtures.js'
import { startService, type TestService } from '../support/service.js'
import { expectFailure } from '../support/shapes.js'
import { type ConnectWiseSim, startConnectWiseSim } from '../support/sims/connectwise/server.js'

const privateKey = 'cw-private-KEEP-5e1a'

describe('the PSA connection', () => {
  let svc: TestService
  let cw: ConnectWiseSim
  let other: ConnectWiseSim
  let s: Setup
  let psa: Record<string, unknown> & { kind: string }
  before(async () => {
    cw = await startConnectWiseSim({ privateKey })
    other = await startConnectWiseSim({ privateKey })
    svc = await startService({ env: { ALLOW_PRIVATE_NETWORK: 'true' } })
    psa = {
      kind: 'connectwise',
      baseUrl: cw.url,
      companyId: 'acme',
      publicKey: 'pub-key',
      privateKey,
      clientId: '00000000-0000-4000-8000-000000000001',
    }
    s = await setupIntegration(svc, { psa, psaCompanyId: '1', rule: null })
  })
  after(async () => {
    await svc?.close()
    await cw?.close()
    await other?.close()
  })

  test('saving again without the private key keeps the saved one', async () => {
    const { privateKey: _, ...withoutKey } = psa
    for (const body of [
      { ...withoutKey, defaults: { board: 'Service Desk' } },
      { ...withoutKey, privateKey: '', defaults: { board: 'Security' } },
      { ...withoutKey, privateKey: '********', defaults: { board: 'Service Desk' } },
    ]) {
      const saved = await s.partner('PUT', '/api/partner/psa', body)
      assert.equal(saved.status, 200, saved.text)
      assert.equal(saved.body.warning, undefined, `the saved key still signs in: ${saved.text}`)
      assert.equal(saved.body.privateKey, '********')
      assert.deepEqual(saved.body.defaults, body.defaults)
    }
    const tested = await s.partner('POST', '/api/partner/psa/test')
    assert.equal(tested.body.ok, true, tested.text)
    // A wrong new key replaces it (and the test says so).
    const wrong = await s.partner('PUT', '/api/partner/psa', { ...psa, privateKey: 'not-the-key' })
    assert.equal(wrong.status, 200, wrong.text)
    assert.equal(typeof wrong.body.warning, 'string')
    const back = await s.partner('PUT', '/api/partner/psa', psa)
    assert.equal(back.body.warning, undefined, back.text)
  })

  test('a new host without the key is refused, and nothing reaches it', async () => {
    const { privateKey: _, ...withoutKey } = psa
    const before = other.calls.length
    const moved = await s.partner('PUT', '/api/partner/psa', { ...withoutKey, baseUrl: other.url })
    expectFailure(moved, 400, 'VALIDATION_FAILED')
    assert.match(moved.body.detail, /address changed \(baseUrl\): enter privateKey again/)
    assert.equal(moved.text.includes(privateKey), false)
    assert.equal(other.calls.length, before, 'the new host was not called')
    const kept = await s.partner('GET', '/api/partner/psa')
    assert.equal(kept.body.baseUrl, cw.url, 'the saved connection is unchanged')
    // With the key typed again, the new host is taken.
    const given = await s.partner('PUT', '/api/partner/psa', { ...psa, baseUrl: other.url })
    assert.equal(given.status, 200, given.text)
    assert.equal(given.body.warning, undefined, given.text)
    const back = await s.partner('PUT', '/api/partner/psa', psa)
    assert.equal(back.status, 200, back.text)
  })

  test('a company id with a lone surrogate is saved and tested without a 5xx', async () => {
    // JSON may carry half a surrogate pair ("\ud800"); it cannot be put in a URL as it is.
    const odd = await s.partner('PUT', '/api/partner/psa', { ...psa, companyId: 'acme\ud800' })
    assert.ok(odd.status < 500, odd.text)
    const tested = await s.partner('POST', '/api/partner/psa/test')
    assert.ok(tested.status < 500, tested.text)
    assert.equal(tested.body.ok, false, 'ConnectWise knows no such company')
    const back = await s.partner('PUT', '/api/partner/psa', psa)
    assert.equal(back.status, 200, back.text)
  })

  test('another kind without its secret is refused', async () => {
    const res = await s.partner('PUT', '/api/partner/psa', { kind: 'syncro', baseUrl: cw.url })
    expectFailure(res, 400, 'VALIDATION_FAILED')
    assert.equal((await s.partner('GET', '/api/partner/psa')).body.kind, 'connectwise')
  })

  test('statuses and types without a board are refused without asking ConnectWise', async () => {
    const { defaults: _, ...noDefaults } = psa as Record<string, unknown> & { kind: string }
    assert.equal((await s.partner('PUT', '/api/partner/psa', noDefaults)).status, 200)
    const before = cw.callsTo(/\/service\/boards\/\d+\/(statuses|types)/).length
    for (const what of ['statuses', 'types']) {
      const res = await s.partner('GET', `/api/partner/psa/${what}`)
      expectFailure(res, 400, 'VALIDATION_FAILED')
      assert.match(res.body.detail, new RegExp(`ConnectWise ${what} belong to a board`))
    }
    assert.equal(cw.callsTo(/\/service\/boards\/\d+\/(statuses|types)/).length, before)
    const ofBoard = await s.partner('GET', '/api/partner/psa/statuses?board=Service%20Desk')
    assert.equal(ofBoard.status, 200, ofBoard.text)
    assert.ok(ofBoard.body.data.length > 0)
    // A saved default board answers for a look-up without one.
    await s.partner('PUT', '/api/partner/psa', { ...noDefaults, defaults: { board: 'Service Desk' } })
    const byDefault = await s.partner('GET', '/api/partner/psa/types')
    assert.equal(byDefault.status, 200, byDefault.text)
  })
})
