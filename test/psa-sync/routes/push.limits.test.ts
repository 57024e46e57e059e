// The push route's limits through the whole service (docs/psa/sync.md, "Where pushes arrive"), with a
// HaloPSA connection set up by hand against its simulator, on SQLite and PostgreSQL: JSON only (415 in
// the failure shape otherwise), a body of at most 1 MiB (the 413 says so; other routes still say
// 256 KiB), at most 1,000 ticket ids per verified push (more is a 413 naming the cap, with nothing
// written), and lists of any length written in chunks (11,000 ids). The push token never reaches a log
// line or a metric, while the pushes are logged.
import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { after, before, describe, test } from 'node:test'
import { createLogger } from '../../../src/main/boot.js'
import { haloService } from '../../support/psa/service-fixtures.js'
import { backends, startService, type TestService } from '../../support/service.js'
import { expectFailure } from '../../support/shapes.js'
import type { HaloPsaSim } from '../../support/sims/halopsa/server.js'
import { waitFor } from '../../support/wait.js'

for (const backend of backends('databases')) {
  describe(`the push route's limits (${backend})`, () => {
    let svc: TestService
    let sim: HaloPsaSim
    const lines: string[] = []
    let pushUrl = ''
    let partnerId = ''
    let auth = ''
    before(async () => {
      sim = await haloService.start()
      const sink = new Writable({
        write(chunk, _enc, done) {
          lines.push(String(chunk))
          done()
        },
      })
      svc = await startService({
        backend,
        env: { ALLOW_PRIVATE_NETWORK: 'true', PSA_PUSH_COALESCE_MS: '100', PSA_POLL_INTERVAL_MS: '600000' },
        logger: createLogger('debug', sink),
      })
      const created = await svc.request('POST', '/api/admin/partners', {
        token: svc.adminToken,
        body: { name: 'Halo MSP', psa: haloService.settings(sim.url) },
      })
      assert.equal(created.status, 201, created.text)
      partnerId = created.body.id
      const status = await waitFor(
        async () => {
          const r = await svc.request('GET', '/api/partner/psa/sync', { token: created.body.apiKey })
          return r.status === 200 && r.body.mechanism === 'manual' ? r.body : null
        },
        { what: 'the manual push set-up' },
      )
      pushUrl = status.pushUrl
      auth = `Basic ${Buffer.from(`alertbridge:${status.pushSecret}`).toString('base64')}`
    })
    after(async () => {
      await svc?.close()
      await sim?.close()
    })

    const post = async (url: string, body: string | Buffer, headers: Record<string, string>) => {
      const r = await fetch(url, { method: 'POST', headers, body })
      const text = await r.text()
      let parsed: any = null
      try {
        parsed = JSON.parse(text)
      } catch {
        // the shape check says so
      }
      return { status: r.status, body: parsed, text, headers: r.headers }
    }
    const json = { 'content-type': 'application/json' }
    const events = (n: number, from = 1) =>
      JSON.stringify(Array.from({ length: n }, (_, i) => ({ ticket_id: from + i })))
    const pending = async () =>
      Number(
        (
          await svc.services.store.kysely
            .selectFrom('psa_sync_pending')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('partner_id', '=', partnerId)
            .executeTakeFirstOrThrow()
        ).n,
      )

    test('JSON only: any other content type, or none with a body, is a 415 in the failure shape', async () => {
      for (const headers of [
        { 'content-type': 'text/plain' },
        { 'content-type': 'application/x-www-form-urlencoded' },
        { 'content-type': 'multipart/form-data; boundary=x' },
        { 'content-type': 'application/json-patch+json' },
        { 'content-type': 'application/xml' },
        {},
      ]) {
        const res = await post(pushUrl, '{"ticket_id": 1}', {
          ...(headers as Record<string, string>),
          authorization: auth,
        })
        expectFailure(res as never, 415, 'UNSUPPORTED_MEDIA_TYPE')
      }
      const ok = await post(pushUrl, '{"ticket_id": 7}', {
        'content-type': 'application/json; charset=utf-8',
        authorization: auth,
      })
      assert.equal(ok.status, 200, ok.text)
      assert.deepEqual(ok.body, { received: 1 })
    })

    test('the body limit is 1 MiB, and its 413 says so; another route’s still says 256 KiB', async () => {
      const big = Buffer.alloc(1024 * 1024 + 1, 0x20)
      const res = await post(pushUrl, big, { ...json, authorization: auth })
      expectFailure(res as never, 413, 'BODY_TOO_LARGE')
      assert.equal(res.body.detail, 'The body is larger than 1 MiB.')
      const under = Buffer.concat([Buffer.from('{"ticket_id": 8}'), Buffer.alloc(1024 * 1024 - 20, 0x20)])
      assert.equal((await post(pushUrl, under, { ...json, authorization: auth })).status, 200)
      const other = await post(
        `${svc.url}/api/oem-alerts-api/alert/sync`,
        Buffer.alloc(300 * 1024, 0x20),
        json,
      )
      expectFailure(other as never, 413, 'BODY_TOO_LARGE')
      assert.equal(other.body.detail, 'The body is larger than 256 KiB.')
    })

    test('at most 1,000 ticket ids per push: more is a 413 naming the cap, and nothing is written', async () => {
      await waitFor(async () => (await pending()) === 0, { what: 'nothing pending' })
      const before = await svc.services.store.psaSync.find(partnerId)
      for (const n of [1001, 11_000, 45_000]) {
        const res = await post(pushUrl, events(n), { ...json, authorization: auth })
        expectFailure(res as never, 413, 'BODY_TOO_LARGE')
        assert.match(res.body.detail, /more than 1,000 tickets; at most 1,000 ticket ids are taken per push/)
        assert.equal(await pending(), 0)
      }
      const after = await svc.services.store.psaSync.find(partnerId)
      assert.equal(after?.lastPushAt, before?.lastPushAt, 'a refused push is not heard')
      assert.equal(after?.pushesRefused, before?.pushesRefused)
      // 45,000 events of one ticket name one ticket: a push is judged by the tickets it names.
      const same = JSON.stringify(Array.from({ length: 45_000 }, () => ({ ticket_id: 99 })))
      assert.deepEqual((await post(pushUrl, same, { ...json, authorization: auth })).body, { received: 1 })
      const full = await post(pushUrl, events(1000, 500_000), { ...json, authorization: auth })
      assert.equal(full.status, 200, full.text)
      assert.deepEqual(full.body, { received: 1000 })
    })

    test('lists longer than the database takes in one statement are written and read in chunks', async () => {
      const store = svc.services.store
      // A partner of its own (the sandbox: no push), so that no read job takes these ids meanwhile.
      const other = await svc.request('POST', '/api/admin/partners', {
        token: svc.adminToken,
        body: { name: 'Chunked MSP', psa: { kind: 'sandbox' } },
      })
      assert.equal(other.status, 201, other.text)
      const id: string = other.body.id
      const ids = Array.from({ length: 11_000 }, (_, i) => String(900_000 + i))
      await store.transaction((tx) => tx.psaSync.addPending(id, ids, new Date().toISOString()))
      const taken = await store.psaSync.takePending(id, 20_000)
      assert.equal(taken.length, 11_000)
      assert.equal(await store.psaSync.hasPending(id), false)
      assert.deepEqual(await store.psaSync.byPsaTicketIds(id, ids), [])
      await store.psaSync.markChecked(ids, new Date().toISOString())
    })

    test('the push token is in no log line and no metric, while the pushes are logged', async () => {
      const token = pushUrl.split('/').at(-1)!
      assert.ok(token.length >= 20)
      // A refused push (401), a 404 below the URL and a deactivation call (404) are logged at info.
      await post(pushUrl, '{"ticket_id": 1}', { ...json, authorization: 'Basic eDp5' })
      await post(`${pushUrl}/nothing-here`, '{}', json)
      await post(`${pushUrl}/deactivated`, '{}', json)
      const metrics = await fetch(`${svc.url}/metrics`).then((r) => r.text())
      assert.ok(!metrics.includes(token), 'a metric carries the token')
      const logged = lines.join('')
      assert.ok(lines.length > 0)
      const pushLines = lines.filter((l) => l.includes('/api/psa-push/[redacted]'))
      assert.ok(pushLines.length >= 5, `${pushLines.length} push lines logged`)
      assert.ok(pushLines.some((l) => l.includes('"statusCode":401')))
      assert.ok(!logged.includes(token), 'a log line carries the push token')
    })
  })
}
