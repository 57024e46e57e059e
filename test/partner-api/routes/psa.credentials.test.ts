// PSA credentials never leave their sealed column except toward their PSA: not in a log line (the
// service at trace level), not in an event, not in any API answer or error detail, and not in a URL
// the service calls; the PSA gets them only in the headers its API defines.
import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { after, before, describe, test } from 'node:test'
import pino from 'pino'
import { redactPaths } from '../../../src/main/app.js'
import { setupIntegration } from '../../support/fixtures.js'
import { startService, type TestService } from '../../support/service.js'
import { startAutotaskSim } from '../../support/sims/autotask/server.js'
import { startConnectWiseSim } from '../../support/sims/connectwise/server.js'
import { startHaloPsaSim } from '../../support/sims/halopsa/server.js'
import type { Sim, SimCall } from '../../support/sims/harness.js'
import { startKaseyaBmsSim } from '../../support/sims/kaseya-bms/server.js'
import { startNinjaOneSim } from '../../support/sims/ninjaone/server.js'
import { startPulsewayPsaSim } from '../../support/sims/pulseway-psa/server.js'
import { SUBDOMAIN, startSuperOpsSim } from '../../support/sims/superops/server.js'
import { startSyncroSim } from '../../support/sims/syncro/server.js'

/** One PSA of the test: its simulator, the partner's settings, and the secret they hold. */
interface Kind {
  sim: Sim<unknown>
  psa: Record<string, unknown> & { kind: string }
  companyId: string
  board: string
  /** The settings with the secret changed (a rotation the PSA refuses). */
  wrong: Record<string, unknown>
  secrets: string[]
  /** Where the PSA's API says the credential goes. */
  delivered(calls: SimCall[]): boolean
}

const bodyHas = (c: SimCall, text: string) => JSON.stringify(c.body ?? '').includes(text)

describe('PSA credentials', () => {
  const lines: string[] = []
  const answers: string[] = []
  let svc: TestService
  const kinds: Kind[] = []
  const cwKey = 'cw-private-KEY-8c1f'
  const atSecret = 'at-secret-SECRET-41d2'
  const haloSecret = 'halo-client-SECRET-77aa'
  const bmsPassword = 'bms-PASSWORD-19e3'
  const syncroToken = 'syncro-TOKEN-5b0c'
  const pulsewayPassword = 'pulseway-PASSWORD-7c21'
  const superOpsToken = 'api-superops-TOKEN-3d9e'
  const ninjaSecret = 'ninja-client-SECRET-3e9d'
  before(async () => {
    const cw = await startConnectWiseSim({ privateKey: cwKey })
    const at = await startAutotaskSim({ secret: atSecret })
    const halo = await startHaloPsaSim({ clientId: 'halo-client', clientSecret: haloSecret, tenant: 'acme' })
    const bms = await startKaseyaBmsSim({ password: bmsPassword })
    const syncro = await startSyncroSim({ apiToken: syncroToken })
    const pulseway = await startPulsewayPsaSim({ password: pulsewayPassword })
    const superOps = await startSuperOpsSim({ apiToken: superOpsToken })
    const ninja = await startNinjaOneSim({ clientSecret: ninjaSecret, organizations: 5, tickets: 5 })
    const cwBasic = Buffer.from(`acme+pub-key:${cwKey}`).toString('base64')
    kinds.push(
      {
        sim: cw as Sim<unknown>,
        psa: {
          kind: 'connectwise',
          baseUrl: cw.url,
          companyId: 'acme',
          publicKey: 'pub-key',
          privateKey: cwKey,
          clientId: '00000000-0000-4000-8000-000000000001',
        },
        companyId: '1',
        board: 'Service Desk',
        wrong: { privateKey: `${cwKey}-old` },
        secrets: [cwKey, cwBasic],
        delivered: (calls) => calls.some((c) => c.headers.authorization === `Basic ${cwBasic}`),
      },
      {
        sim: at as Sim<unknown>,
        psa: {
          kind: 'autotask',
          baseUrl: `${at.url}/ATServicesRest/`,
          username: 'api-user@acme.example',
          secret: atSecret,
          integrationCode: 'TRACKING-ID-1',
        },
        companyId: '0',
        board: 'Monitoring Alerts',
        wrong: { secret: `${atSecret}-old` },
        secrets: [atSecret],
        delivered: (calls) => calls.some((c) => c.headers.secret === atSecret),
      },
      {
        sim: halo as Sim<unknown>,
        psa: {
          kind: 'halopsa',
          baseUrl: halo.url,
          clientId: 'halo-client',
          clientSecret: haloSecret,
          tenant: 'acme',
        },
        companyId: String(halo.state.clients[0]!.id),
        board: 'Security Operations',
        wrong: { clientSecret: `${haloSecret}-old` },
        secrets: [haloSecret],
        // In the token request's form body only.
        delivered: (calls) => calls.some((c) => /token/.test(c.url) && bodyHas(c, haloSecret)),
      },
      {
        sim: bms as Sim<unknown>,
        psa: {
          kind: 'kaseya-bms',
          baseUrl: bms.url,
          tenant: 'Acme MSP',
          username: 'api@acme-msp.example',
          password: bmsPassword,
        },
        companyId: '1001',
        board: 'Service Desk',
        wrong: { password: `${bmsPassword}-old` },
        secrets: [bmsPassword],
        delivered: (calls) => calls.some((c) => /authenticate/.test(c.url) && bodyHas(c, bmsPassword)),
      },
      {
        sim: syncro as Sim<unknown>,
        psa: { kind: 'syncro', baseUrl: syncro.url, apiToken: syncroToken },
        companyId: '1001',
        board: 'Security Alert',
        wrong: { apiToken: `${syncroToken}-old` },
        secrets: [syncroToken],
        delivered: (calls) => calls.some((c) => c.headers.authorization === `Bearer ${syncroToken}`),
      },
      {
        sim: pulseway as Sim<unknown>,
        psa: {
          kind: 'pulseway-psa',
          baseUrl: pulseway.url,
          tenant: 'Acme MSP',
          username: 'api@acme-msp.example',
          password: pulsewayPassword,
        },
        companyId: '1001',
        board: 'Service Desk',
        wrong: { password: `${pulsewayPassword}-old` },
        secrets: [pulsewayPassword],
        delivered: (calls) => calls.some((c) => /authenticate/.test(c.url) && bodyHas(c, pulsewayPassword)),
      },
      {
        sim: superOps as Sim<unknown>,
        psa: { kind: 'superops', baseUrl: superOps.endpoint, subdomain: SUBDOMAIN, apiToken: superOpsToken },
        companyId: '1001',
        board: 'Security Operations',
        wrong: { apiToken: `${superOpsToken}-old` },
        secrets: [superOpsToken],
        delivered: (calls) => calls.some((c) => c.headers.authorization === `Bearer ${superOpsToken}`),
      },
      {
        sim: ninja as Sim<unknown>,
        psa: {
          kind: 'ninjaone',
          baseUrl: ninja.url,
          clientId: ninja.state.credentials.clientId,
          clientSecret: ninjaSecret,
          refreshToken: ninja.grant(),
        },
        companyId: '1',
        board: 'Security Alert',
        wrong: { clientSecret: `${ninjaSecret}-old` },
        // The refresh tokens too: the one given and every one NinjaOne rotated to.
        get secrets() {
          return [ninjaSecret, ...Object.keys(ninja.state.refreshTokens)]
        },
        delivered: (calls) => calls.some((c) => /oauth\/token/.test(c.url) && bodyHas(c, ninjaSecret)),
      },
    )
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
    for (const k of kinds) await k.sim.close()
  })

  test('appear in no log line, event, answer, error detail or called URL', async () => {
    for (const k of kinds) {
      const s = await setupIntegration(svc, {
        psa: k.psa,
        psaCompanyId: k.companyId,
        rule: { productGroup: 'Endpoint Security', ticket: { board: k.board } },
      })
      await s.partner('GET', '/api/partner/psa')
      const tested = await s.partner('POST', '/api/partner/psa/test')
      assert.equal(tested.body.ok, true, `${k.psa.kind}: ${tested.text}`)
      await s.partner('GET', '/api/partner/psa/boards')
      await s.partner('GET', `/api/partner/psa/agreements?companyId=${k.companyId}`)
      await svc.request('GET', `/api/admin/partners/${s.partnerId}`, { token: svc.adminToken })
      const created = await s.sync()
      assert.equal(created.status, 201, `${k.psa.kind}: ${created.text}`)
      k.sim.faults.set({ fail: { status: 500, count: 3 } })
      assert.equal((await s.sync()).status, 502, k.psa.kind)
      k.sim.faults.clear()
      // Wrong credentials: the refusal is explained without repeating them.
      await s.partner('PUT', '/api/partner/psa', { ...k.psa, ...k.wrong })
      await s.partner('POST', '/api/partner/psa/test')
      await s.sync()
    }
    const events = await svc.services.db.kysely.selectFrom('events').selectAll().execute()
    const places = { log: lines.join(''), events: JSON.stringify(events), answers: answers.join('\n') }
    // The bearer tokens the PSAs handed out (HaloPSA, Kaseya BMS, Pulseway PSA) are credentials too.
    const sent = kinds.flatMap((k) =>
      k.sim.calls.map((c) => c.headers.authorization).filter((h): h is string => typeof h === 'string'),
    )
    const tokens = [...new Set(sent.map((h) => h.replace(/^(Bearer|Basic)\s+/i, '')))].filter(
      (t) => t.length >= 12,
    )
    assert.ok(tokens.length >= 4, 'the PSAs were called with their credentials')
    for (const secret of [...kinds.flatMap((k) => k.secrets), ...tokens]) {
      for (const [where, text] of Object.entries(places))
        assert.equal(text.includes(secret), false, `${where} holds a credential`)
    }
    for (const k of kinds) {
      const urls = k.sim.calls.map((c) => c.url)
      assert.ok(urls.length > 3, `${k.psa.kind} was called`)
      assert.ok(k.delivered(k.sim.calls), `${k.psa.kind} got its credential where its API says`)
      for (const secret of [...k.secrets, ...tokens])
        assert.equal(
          urls.some((u) => u.includes(secret) || u.includes(encodeURIComponent(secret))),
          false,
          `a ${k.psa.kind} URL holds a credential`,
        )
    }
    // Sealed at rest.
    const stored = JSON.stringify(
      await svc.services.db.kysely.selectFrom('partners').select('psa_settings_enc').execute(),
    )
    // The tokens a PSA rotates, beside the settings (NinjaOne's).
    const rotating = JSON.stringify(
      await svc.services.db.kysely.selectFrom('psa_tokens').selectAll().execute(),
    )
    assert.ok(rotating.length > 2, 'NinjaOne kept its rotating tokens')
    for (const k of kinds)
      for (const secret of [...k.secrets, ...tokens]) {
        assert.equal(stored.includes(secret), false)
        assert.equal(rotating.includes(secret), false)
      }
  })
})
