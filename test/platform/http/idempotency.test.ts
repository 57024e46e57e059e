// Idempotency keys (docs/vendor-api.md#idempotency-keys; docs/decisions/vendor-api/idempotency-keys.md):
// the same key with the same request answers the first answer again without a second PSA effect, in
// both strategies and on the vendor's setup calls; another request with the key is a 422 that changes
// nothing; a request arriving while the first runs is a 409 with Retry-After: 1; an invalid key is a
// 400; answers that did not run the call (401, 5xx) free the key; a claim whose process died is taken
// over once its lease lapses; after 24 hours the key is free again and retention prunes it. PSA effects
// are counted in the sandbox PSA's tables, and in the ConnectWise simulator where the first request
// must still be running. The clock is the service's, moved by hand. Across processes:
// idempotency-processes.test.ts.
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { after, before, describe, test } from 'node:test'
import { type Setup, setupIntegration } from '../../support/fixtures.js'
import { hooked } from '../../support/hooked.js'
import { connectWiseService } from '../../support/psa/service-fixtures.js'
import type { Receiver } from '../../support/receiver.js'
import {
  backends,
  manualClock,
  type Response,
  startService,
  type TestService,
} from '../../support/service.js'
import { type ConnectWiseSim, startConnectWiseSim } from '../../support/sims/connectwise/server.js'
import { waitFor } from '../../support/wait.js'

const env = {
  ALLOW_PRIVATE_NETWORK: 'true',
  WEBHOOK_RETRY_SCHEDULE: '0.05,0.05',
  PSA_RETRY_SCHEDULE: '0.05,0.05',
}
const sync = '/api/oem-alerts-api/alert/sync'
const queued = '/api/oem-alerts-api/alert'
const accounts = '/api/vendor-api/organization/accounts'
const hour = 60 * 60 * 1000

/** The failure shape of each kind of route, and the request id it names. */
function expectRefusal(res: Response, status: number, error: string, shape: 'sync' | 'webhook' | 'default') {
  assert.equal(res.status, status, res.text)
  assert.equal(res.body.statusCode, status, res.text)
  assert.equal(res.body.message, 'failed')
  assert.equal(res.body.error, error, res.text)
  assert.equal(typeof res.body.detail, 'string')
  assert.equal(res.body.requestId, res.headers.get('x-request-id'))
  const data = shape === 'sync' ? ['correlationID', 'messageId'] : ['correlationId', 'messageId']
  if (shape === 'default') assert.equal(res.body.data, undefined)
  else assert.deepEqual(Object.keys(res.body.data).sort(), data)
  assert.equal(res.headers.get('idempotent-replayed'), null)
}

function expectReplay(res: Response, first: Response) {
  assert.equal(res.status, first.status, res.text)
  assert.equal(res.text, first.text)
  assert.equal(res.headers.get('idempotent-replayed'), 'true')
  assert.equal(res.headers.get('content-type'), first.headers.get('content-type'))
  assert.notEqual(res.headers.get('x-request-id'), first.headers.get('x-request-id'))
}

for (const backend of backends('matrix')) {
  describe(`idempotency keys (${backend})`, () => {
    // Near the real time: webhook receivers check signatures' timestamps against it.
    const clock = manualClock(new Date())
    let svc: TestService
    let sim: ConnectWiseSim
    const receivers: Receiver[] = []
    before(async () => {
      sim = await startConnectWiseSim()
      svc = await startService({ backend, clock, env })
    })
    after(async () => {
      await svc.close()
      await sim.close()
      for (const r of receivers) await r.close()
    })

    let n = 0
    const setup = (o: Parameters<typeof setupIntegration>[1] = {}) =>
      setupIntegration(svc, { vendorName: `Vendor ${++n}`, partnerName: `MSP ${n}`, ...o })
    const send = (path: string, body: unknown, key?: string, token?: string) =>
      svc.request('POST', path, { body, token, headers: key === undefined ? {} : { 'idempotency-key': key } })
    /** What the sandbox PSA holds for a partner. */
    const psa = async (partnerId: string) => {
      const count = async (table: 'sandbox_tickets' | 'sandbox_notes') =>
        Number(
          (
            await svc.services.db.kysely
              .selectFrom(table)
              .where('partner_id', '=', partnerId)
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        )
      return { tickets: await count('sandbox_tickets'), notes: await count('sandbox_notes') }
    }
    const events = async (s: Setup) =>
      Number(
        (
          await svc.services.db.kysely
            .selectFrom('events')
            .where('integration_id', '=', s.integrationId)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      )
    const keyRows = (key: string) =>
      svc.services.db.kysely
        .selectFrom('idempotency_keys')
        .selectAll()
        .where('idempotency_key', '=', key)
        .execute()

    test('every alert call and every change of the vendor API takes a key, as the OpenAPI document says; nothing else does', async () => {
      const doc = await svc.request('GET', '/openapi.json')
      assert.equal(doc.status, 200)
      const wrong: string[] = []
      let taking = 0
      for (const [path, methods] of Object.entries(doc.body.paths as Record<string, Record<string, any>>)) {
        for (const [method, op] of Object.entries(methods)) {
          const takes = (op.parameters ?? []).some(
            (p: { in: string; name: string }) =>
              p.in === 'header' && p.name.toLowerCase() === 'idempotency-key',
          )
          const should =
            (method === 'post' && path.startsWith('/api/oem-alerts-api/')) ||
            (['post', 'put', 'patch', 'delete'].includes(method) && path.startsWith('/api/vendor-api/'))
          if (takes !== should) wrong.push(`${method.toUpperCase()} ${path}`)
          if (takes) {
            taking++
            for (const code of ['409', '422'])
              if (!op.responses?.[code]) wrong.push(`${method.toUpperCase()} ${path}: no ${code}`)
          }
        }
      }
      assert.deepEqual(wrong, [])
      assert.ok(taking >= 10, `${taking} operations take a key`)
    })

    test('synchronous: the same OPEN twice with one key makes one ticket and no note; the retry gets the first answer', async () => {
      const s = await setup()
      const key = randomUUID()
      const first = await send(sync, s.body(), key)
      assert.equal(first.status, 201, first.text)
      assert.equal(first.body.message, 'created')
      assert.equal(first.headers.get('idempotent-replayed'), null)
      expectReplay(await send(sync, s.body(), key), first)
      // The fields in another order are the same request.
      const reordered = Object.fromEntries(Object.entries(s.body()).reverse())
      expectReplay(await send(sync, reordered, key), first)
      assert.deepEqual(await psa(s.partnerId), { tickets: 1, notes: 0 })
      assert.equal(await events(s), 1)
      // Without a key the same OPEN is another alert: de-duplicated onto the ticket as a note.
      const unkeyed = await send(sync, s.body())
      assert.equal(unkeyed.body.message, 'updated', unkeyed.text)
      assert.deepEqual(await psa(s.partnerId), { tickets: 1, notes: 1 })
      assert.equal((await keyRows(key)).length, 1)
    })

    test('webhook strategy: one status_update, and the retry gets the same immediate answer', async () => {
      const h = await hooked(svc)
      receivers.push(h.receiver)
      const key = randomUUID()
      const post = () => send(queued, h.body(), key)
      const first = await post()
      assert.equal(first.status, 201, first.text)
      assert.equal(first.body.message, 'created')
      expectReplay(await post(), first)
      await h.statusUpdate(first.body.data.messageId)
      expectReplay(await post(), first)
      await svc.counts() // every job and delivery done
      assert.equal(h.receiver.accepted('status_update').length, 1)
      assert.deepEqual(await psa(h.partnerId), { tickets: 1, notes: 0 })
      assert.equal(await events(h), 1)
    })

    test('the same key with another request is 422 IDEMPOTENCY_KEY_REUSED in the route’s failure shape, and changes nothing', async () => {
      const s = await setup()
      const h = await hooked(svc)
      receivers.push(h.receiver)
      const [k1, k2, k3] = [randomUUID(), randomUUID(), randomUUID()]
      assert.equal((await send(sync, s.body(), k1)).status, 201)
      assert.equal((await send(queued, h.body(), k2)).status, 201)
      const account = { vendorAccountId: 'initech-003', name: 'Initech' }
      assert.equal((await send(accounts, account, k3, s.vendorToken)).status, 201)
      const before = await svc.snapshot()

      const title = { title: 'Another alert' }
      expectRefusal(await send(sync, s.body(title), k1), 422, 'IDEMPOTENCY_KEY_REUSED', 'sync')
      expectRefusal(await send(queued, h.body(title), k2), 422, 'IDEMPOTENCY_KEY_REUSED', 'webhook')
      const other = { ...account, name: 'Initech Ltd' }
      expectRefusal(await send(accounts, other, k3, s.vendorToken), 422, 'IDEMPOTENCY_KEY_REUSED', 'default')
      // The path and query are part of the request: the same body for another integration.
      const query = `${accounts}?integrationId=${h.integrationId}`
      expectRefusal(await send(query, account, k3, s.vendorToken), 422, 'IDEMPOTENCY_KEY_REUSED', 'default')
      assert.deepEqual(await svc.snapshot(), before)

      // A key is the vendor's own, per method and route: another vendor, or another route, is another key.
      const other3 = await send(accounts, account, k3, h.vendorToken)
      assert.equal(other3.status, 201, other3.text)
      assert.equal(other3.headers.get('idempotent-replayed'), null)
      const service = await send(
        '/api/vendor-api/organization/services',
        { id: 'edr', name: 'EDR' },
        k3,
        s.vendorToken,
      )
      assert.equal(service.status, 201, service.text)
    })

    test('an invalid key is a 400 that changes nothing; 255 visible characters are a key', async () => {
      const s = await setup()
      const before = await svc.snapshot()
      for (const bad of ['', 'k'.repeat(256), 'two words', 'tab\there', 'caf\u00e9']) {
        const res = await send(sync, s.body(), bad)
        expectRefusal(res, 400, 'VALIDATION_FAILED', 'sync')
        assert.match(res.body.detail, /Idempotency-Key/)
        const vendor = await send(accounts, { vendorAccountId: 'x-1', name: 'X' }, bad, s.vendorToken)
        expectRefusal(vendor, 400, 'VALIDATION_FAILED', 'default')
      }
      assert.deepEqual(await svc.snapshot(), before)
      const longest = `${'~'.repeat(250)}!#$%&`
      const first = await send(sync, s.body(), longest)
      assert.equal(first.status, 201, first.text)
      expectReplay(await send(sync, s.body(), longest), first)
    })

    test('an answer of the call (a 404) is kept; a 401 or a 5xx frees the key to be sent again', async () => {
      const s = await setup()
      const unknown = s.body({ accountId: 'nobody-999' })
      const k404 = randomUUID()
      const refused = await send(sync, unknown, k404)
      expectRefusal(refused, 404, 'ACCOUNT_UNKNOWN', 'sync')
      expectReplay(await send(sync, unknown, k404), refused)

      const k401 = randomUUID()
      const wrong = await send(sync, { ...s.body(), clientSecret: 'not-the-secret' }, k401)
      expectRefusal(wrong, 401, 'INVALID_CREDENTIALS', 'sync')
      assert.deepEqual(await keyRows(k401), [])
      const right = await send(sync, s.body(), k401)
      assert.equal(right.status, 201, right.text)
      assert.equal(right.headers.get('idempotent-replayed'), null)

      const k5xx = randomUUID()
      const fault = await s.partner('PUT', '/api/partner/sandbox/fault', { mode: 'error' })
      assert.equal(fault.status, 200, fault.text)
      const ransomware = s.body({ alertType: 'Ransomware Behaviour', title: 'Ransomware on WS-7' })
      const failed = await send(sync, ransomware, k5xx)
      assert.ok(failed.status >= 500, failed.text)
      assert.deepEqual(await keyRows(k5xx), [])
      assert.equal((await s.partner('DELETE', '/api/partner/sandbox/fault')).status, 204)
      const retried = await send(sync, ransomware, k5xx)
      assert.equal(retried.status, 201, retried.text)
      assert.equal(retried.body.message, 'created')
      assert.equal(retried.headers.get('idempotent-replayed'), null)
    })

    test('while the first request runs, the same key is 409 IDEMPOTENCY_KEY_IN_USE with Retry-After: 1; one ticket in the PSA', async () => {
      const s = await setup({
        psa: connectWiseService.settings(sim.url),
        psaCompanyId: connectWiseService.companyId,
        rule: { productGroup: 'Endpoint Security', ticket: { board: connectWiseService.board } },
      })
      const tickets = sim.state.tickets.length
      const key = randomUUID()
      sim.faults.set({ latencyMs: 400 })
      try {
        const calls = sim.calls.length
        const running = send(sync, s.body(), key)
        await waitFor(() => sim.calls.length > calls, {
          what: 'the first call to reach the PSA',
          intervalMs: 10,
        })
        const busy = await send(sync, s.body(), key)
        expectRefusal(busy, 409, 'IDEMPOTENCY_KEY_IN_USE', 'sync')
        assert.equal(busy.headers.get('retry-after'), '1')
        // Several at once: each is the first, a 409, or (once it ran) its answer again.
        const burst = await Promise.all([1, 2, 3, 4].map(() => send(sync, s.body(), key)))
        const first = await running
        assert.equal(first.status, 201, first.text)
        for (const r of burst) {
          if (r.status === 409) expectRefusal(r, 409, 'IDEMPOTENCY_KEY_IN_USE', 'sync')
          else expectReplay(r, first)
        }
        expectReplay(await send(sync, s.body(), key), first)
      } finally {
        sim.faults.clear()
      }
      assert.equal(sim.state.tickets.length, tickets + 1)
      assert.deepEqual(sim.state.tickets.at(-1)?.notes ?? [], [])
    })

    test('a claim whose process died is taken over once its lease lapses', async () => {
      const s = await setup()
      const key = randomUUID()
      assert.equal((await send(sync, s.body(), key)).status, 201)
      // As a process leaves it when it dies mid-request: claimed, no answer.
      const lease = 60_000
      await svc.services.db.kysely
        .updateTable('idempotency_keys')
        .set({
          status: 'running',
          locked_until: new Date(clock().getTime() + lease).toISOString(),
          response_status: null,
          response_headers: null,
          response_body_enc: null,
        })
        .where('idempotency_key', '=', key)
        .execute()
      expectRefusal(await send(sync, s.body(), key), 409, 'IDEMPOTENCY_KEY_IN_USE', 'sync')
      clock.advance(lease + 1000)
      const again = await send(sync, s.body(), key)
      assert.equal(again.status, 200, again.text)
      assert.equal(again.headers.get('idempotent-replayed'), null)
      assert.equal(again.body.message, 'updated', 'it ran again: the OPEN appended to the ticket')
      expectReplay(await send(sync, s.body(), key), again)
    })

    test('setup calls: a retried create answers its 201 again; a rotation answers its new secret again, sealed at rest', async () => {
      const s = await setup()
      const key = randomUUID()
      const account = { vendorAccountId: 'umbrella-004', name: 'Umbrella' }
      const first = await send(accounts, account, key, s.vendorToken)
      assert.equal(first.status, 201, first.text)
      expectReplay(await send(accounts, account, key, s.vendorToken), first)
      assert.equal(
        (await send(accounts, account, undefined, s.vendorToken)).status,
        200,
        'unkeyed: it exists',
      )

      const rotate = '/api/vendor-api/credentials/webhook-secret/rotate'
      const rk = randomUUID()
      const rotated = await send(rotate, { clientSecret: s.clientSecret }, rk, s.vendorToken)
      assert.equal(rotated.status, 200, rotated.text)
      assert.match(rotated.body.webhookSecret, /^whsec_/)
      expectReplay(await send(rotate, { clientSecret: s.clientSecret }, rk, s.vendorToken), rotated)
      const state = await svc.request('GET', '/api/vendor-api/credentials', { token: s.vendorToken })
      assert.equal(state.body.webhookSecret.rotatedAt, rotated.body.rotatedAt, 'rotated once')
      const sealed = (await keyRows(rk))[0]?.response_body_enc ?? ''
      assert.ok(sealed.startsWith('v2.'), sealed)
      assert.ok(!sealed.includes(rotated.body.webhookSecret))
      // Another secret with the key is another request (a replay needs what the call needs).
      const guessed = await send(rotate, { clientSecret: 'a-guess' }, rk, s.vendorToken)
      expectRefusal(guessed, 422, 'IDEMPOTENCY_KEY_REUSED', 'default')

      // Reads and the token endpoint take no key.
      const gk = randomUUID()
      const read = await svc.request('GET', accounts, {
        token: s.vendorToken,
        headers: { 'idempotency-key': gk },
      })
      assert.equal(read.status, 200)
      const token = await send(
        '/api/oauth/token',
        { grant_type: 'client_credentials', client_id: s.clientId, client_secret: s.clientSecret },
        gk,
      )
      assert.equal(token.status, 200, token.text)
      assert.deepEqual(await keyRows(gk), [])
    })

    test('after 24 hours a key is free again, and retention prunes it', async () => {
      const s = await setup()
      const [same, other] = [randomUUID(), randomUUID()]
      const first = await send(sync, s.body(), same)
      assert.equal(first.status, 201, first.text)
      const offline = (title: string) => s.body({ alertType: 'Agent Offline', title })
      assert.equal((await send(sync, offline('One'), other)).status, 201)
      clock.advance(24 * hour - 1000)
      expectReplay(await send(sync, s.body(), same), first)
      clock.advance(2000)
      const again = await send(sync, s.body(), same)
      assert.equal(again.status, 200, again.text)
      assert.equal(again.body.message, 'updated')
      assert.equal(again.headers.get('idempotent-replayed'), null)
      assert.deepEqual(await psa(s.partnerId), { tickets: 2, notes: 1 }, 'it ran again')
      const changed = await send(sync, offline('Two'), other)
      assert.equal(changed.status, 200, changed.text)
      assert.equal(changed.body.message, 'updated', 'another request with the key is no 422 any more')

      // Every key of the earlier tests is older than 24 hours now; these two were claimed afresh.
      const pruned = await svc.services.ops.retention.run()
      assert.ok(pruned.idempotency_keys > 5, `pruned ${pruned.idempotency_keys}`)
      const left = await svc.services.db.kysely
        .selectFrom('idempotency_keys')
        .select('idempotency_key')
        .execute()
      assert.deepEqual(left.map((r) => r.idempotency_key).sort(), [same, other].sort())
      const metrics = await (await fetch(`${svc.url}/metrics`)).text()
      assert.match(metrics, /alertbridge_retention_days\{kind="idempotency_keys"\} 1\n/)
    })
  })
}
