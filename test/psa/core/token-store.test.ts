// Rotating refresh tokens shared by several processes (docs/psa/ninjaone.md#tokens), on each database:
// two registries — as the api and a worker, or two workers, each with its own SqlTokenStore over one
// database — call NinjaOne's simulator at once while its access tokens expire every second and its
// refresh tokens rotate on every use (a spent one refused). No refresh token is ever spent twice, no
// call fails, and the row holds the newest refresh token; a process that lost a claim used the
// winner's tokens. A claim left by a process that died lapses, and another process takes over.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { createOutboundHttp } from '../../../src/platform/outbound/http.js'
import { SqlTokenStore } from '../../../src/psa/core/token-store.js'
import { ninjaOnePsa } from '../../../src/psa/ninjaone/adapter.js'
import { PsaRegistry } from '../../../src/psa/registry.js'
import { setupIntegration } from '../../support/fixtures.js'
import { backends, startService, type TestService } from '../../support/service.js'
import { type NinjaOneSim, startNinjaOneSim } from '../../support/sims/ninjaone/server.js'
import { hold } from '../../support/wait.js'

for (const backend of backends('databases')) {
  describe(`rotating PSA tokens shared through the database (${backend})`, () => {
    let svc: TestService
    let sim: NinjaOneSim
    before(async () => {
      sim = await startNinjaOneSim({ tokenLifetimeSeconds: 1, tickets: 10, organizations: 5 })
      svc = await startService({ backend })
    })
    after(async () => {
      await svc?.close()
      await sim?.close()
    })

    const processes = (n: number) =>
      Array.from({ length: n }, () => {
        const store = new SqlTokenStore(svc.services.db.kysely, svc.services.box)
        return new PsaRegistry([
          ninjaOnePsa(
            { http: createOutboundHttp({ allowPrivateNetwork: true, userAgent: 'alertbridge-test' }) },
            { tokens: store },
          ),
        ])
      })
    const settings = () => ({
      baseUrl: sim.url,
      clientId: sim.state.credentials.clientId,
      clientSecret: sim.state.credentials.clientSecret,
      refreshToken: sim.grant(),
    })
    const client = (registry: PsaRegistry, partnerId: string, s: Record<string, unknown>) => {
      const c = registry.connect(partnerId, { kind: 'ninjaone', settings: s })
      if (!c.ok) throw new Error(c.failure.message)
      return c.client
    }
    const refused = () => sim.calls.filter((c) => c.url.startsWith('/ws/oauth/token')).length - spentCount()
    const spentCount = () => Object.values(sim.state.refreshTokens).filter((v) => v === 'spent').length

    test('two processes, many calls, tokens expiring: one spend per refresh token, no call fails', async () => {
      const { partnerId } = await setupIntegration(svc)
      const s = settings()
      const [a, b] = processes(2).map((r) => client(r, partnerId, s))
      const lookups = async (c: typeof a) => {
        const results = []
        for (let round = 0; round < 5; round++) {
          results.push(
            ...(await Promise.all(
              Array.from({ length: 4 }, () =>
                c!.lookup('statuses', {}, { signal: AbortSignal.timeout(10_000) }),
              ),
            )),
          )
          await hold(400, 'the access tokens (1 s) expire between rounds')
        }
        return results
      }
      const tokenCallsBefore = sim.callsTo(/\/ws\/oauth\/token$/).length
      const results = (await Promise.all([lookups(a), lookups(b)])).flat()
      for (const r of results) assert.ok(r.ok, r.ok ? '' : r.failure.message)
      const tokenCalls = sim.callsTo(/\/ws\/oauth\/token$/).length - tokenCallsBefore
      assert.ok(tokenCalls >= 2, `the tokens were renewed mid-run (${tokenCalls} refreshes)`)
      // Every refresh spent a live token: none was refused as spent.
      assert.equal(refused(), 0, 'no refresh token was spent twice')
      const row = await svc.services.db.kysely
        .selectFrom('psa_tokens')
        .selectAll()
        .where('partner_id', '=', partnerId)
        .executeTakeFirstOrThrow()
      const stored = svc.services.box.open(row.refresh_token_enc)
      assert.equal(sim.state.refreshTokens[stored], 'live', 'the row holds the newest refresh token')
      assert.equal(JSON.stringify(row).includes(stored), false, 'sealed')
    })

    test('a claim left by a process that died lapses; another process then refreshes', async () => {
      const { partnerId } = await setupIntegration(svc)
      const s = settings()
      const [a] = processes(1).map((r) => client(r, partnerId, s))
      assert.ok((await a!.lookup('statuses', {}, { signal: AbortSignal.timeout(5000) })).ok)
      const db = svc.services.db.kysely
      // A process claimed the refresh and died: its claim lasts until a moment from now.
      await db
        .updateTable('psa_tokens')
        .set({ claimed_until: new Date(Date.now() + 1500).toISOString(), access_token_enc: null })
        .where('partner_id', '=', partnerId)
        .execute()
      const [b] = processes(1).map((r) => client(r, partnerId, s))
      const started = Date.now()
      const r = await b!.lookup('statuses', {}, { signal: AbortSignal.timeout(10_000) })
      assert.ok(r.ok, r.ok ? '' : r.failure.message)
      assert.ok(Date.now() - started >= 1000, 'it waited for the claim to lapse')
      assert.equal(refused(), 0)
    })

    test('a refresh token NinjaOne refuses is an auth failure saying to connect again; nothing retried', async () => {
      const { partnerId } = await setupIntegration(svc)
      const s = { ...settings(), refreshToken: 'ninja-rt-revoked' }
      const [a] = processes(1).map((r) => client(r, partnerId, s))
      const r = await a!.createTicket(
        {
          companyId: '1',
          board: null,
          priority: null,
          type: null,
          status: null,
          summary: 's',
          description: 'd',
        },
        { signal: AbortSignal.timeout(5000), correlationId: 'c', ref: 'c', adopt: false },
      )
      assert.equal(r.ok, false)
      assert.deepEqual(r.ok ? null : [r.failure.kind, r.failure.retryable], ['auth', false])
      assert.match(r.ok ? '' : r.failure.message, /connect NinjaOne again/)
    })
  })
}
