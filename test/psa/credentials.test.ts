// PSA credentials never leave their sealed column except toward their PSA: not in a log line (the
// service at trace level), not in an event, not in any API answer or error detail, and not in a URL
// the service calls; the PSA gets them only in the headers its API defines.
import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { after, before, describe, test } from 'node:test'
import pino from 'pino'
import { redactPaths } from '../../src/app.js'
import { setupIntegration } from '../helpers/fixtures.js'
import { startService, type TestService } from '../helpers/service.js'
import { type AutotaskState, startAutotaskSim } from '../sims/autotask/server.js'
import { type ConnectWiseState, startConnectWiseSim } from '../sims/connectwise/server.js'
import type { StartedSim } from '../sims/harness.js'

describe('PSA credentials', () => {
  const lines: string[] = []
  const answers: string[] = []
  let svc: TestService
  let cw: StartedSim<ConnectWiseState>
  let at: StartedSim<AutotaskState>
  const cwKey = 'cw-private-KEY-8c1f'
  const atSecret = 'at-secret-SECRET-41d2'
  before(async () => {
    cw = await startConnectWiseSim({ privateKey: cwKey })
    at = await startAutotaskSim({ secret: atSecret })
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk))
        done()
      },
    })
    const logger = pino({ level: 'trace', redact: { paths: redactPaths, censor: '[redacted]' } }, sink)
    svc = await startService({ logger, env: { ALLOW_PRIVATE_NETWORK: 'true', PSA_RETRY_SCHEDULE: '0.05' } })
    const request = svc.request
    svc.request = async (method, path, o) => {
      const res = await request(method, path, o)
      answers.push(res.text)
      return res
    }
  })
  after(async () => {
    await svc.close()
    await cw.close()
    await at.close()
  })

  test('appear in no log line, event, answer, error detail or called URL', async () => {
    const cwSettings = {
      kind: 'connectwise',
      baseUrl: cw.url,
      companyId: 'acme',
      publicKey: 'pub-key',
      privateKey: cwKey,
      clientId: '00000000-0000-4000-8000-000000000001',
    }
    const atSettings = {
      kind: 'autotask',
      baseUrl: `${at.url}/ATServicesRest/`,
      username: 'api-user@acme.example',
      secret: atSecret,
      integrationCode: 'TRACKING-ID-1',
    }
    for (const [psa, companyId] of [
      [cwSettings, '1'],
      [atSettings, '0'],
    ] as const) {
      const s = await setupIntegration(svc, {
        psa,
        psaCompanyId: companyId,
        rule: {
          productGroup: 'Endpoint Security',
          ticket: { board: psa.kind === 'connectwise' ? 'Service Desk' : 'Monitoring Alerts' },
        },
      })
      await s.partner('GET', '/api/partner/psa')
      await s.partner('POST', '/api/partner/psa/test')
      await s.partner('GET', '/api/partner/psa/boards')
      await svc.request('GET', `/api/admin/partners/${s.partnerId}`, { token: svc.adminToken })
      const created = await s.sync()
      assert.equal(created.status, 201, created.text)
      const sim = psa.kind === 'connectwise' ? cw : at
      sim.faults.set({ fail: { status: 500, count: 1, match: 'ickets' } })
      assert.equal((await s.sync()).status, 502)
      // Wrong credentials: the refusal is explained without repeating them.
      await s.partner('PUT', '/api/partner/psa', {
        ...psa,
        ...(psa.kind === 'connectwise' ? { privateKey: `${cwKey}-old` } : { secret: `${atSecret}-old` }),
      })
      await s.partner('POST', '/api/partner/psa/test')
      await s.sync()
    }
    const events = await svc.services.db.kysely.selectFrom('events').selectAll().execute()
    const basic = Buffer.from(`acme+pub-key:${cwKey}`).toString('base64')
    const places = { log: lines.join(''), events: JSON.stringify(events), answers: answers.join('\n') }
    for (const secret of [cwKey, atSecret, basic]) {
      for (const [where, text] of Object.entries(places))
        assert.equal(text.includes(secret), false, `${where} holds a credential`)
    }
    const urls = [...cw.calls, ...at.calls].map((c) => c.url)
    assert.ok(urls.length > 10)
    assert.equal(
      urls.some((u) => u.includes(cwKey) || u.includes(atSecret)),
      false,
      'a URL holds a credential',
    )
    // The PSA gets them where its API says: Basic auth for ConnectWise, the Secret header for Autotask.
    assert.ok(cw.calls.some((c) => c.headers.authorization === `Basic ${basic}`))
    assert.ok(at.calls.some((c) => c.headers.secret === atSecret))
    // Sealed at rest.
    const stored = await svc.services.db.kysely.selectFrom('partners').select('psa_settings_enc').execute()
    assert.equal(JSON.stringify(stored).includes(cwKey) || JSON.stringify(stored).includes(atSecret), false)
  })
})
