// The vendor's GET counterparts of the usage call (docs/decisions/vendor-api/get-counterparts.md): the
// latest count per service and account, and the history of a service's counts, paged newest first.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { type Setup, setupIntegration } from '../../support/fixtures.js'
import { backends, manualClock, startService, type TestService } from '../../support/service.js'
import { expectFailure } from '../../support/shapes.js'

for (const backend of backends('databases')) {
  describe(`vendor usage reads (${backend})`, () => {
    let svc: TestService
    const clock = manualClock()
    before(async () => {
      svc = await startService({ backend, clock })
    })
    after(() => svc.close())

    const vendor = (s: Setup, method: string, path: string, body?: unknown) =>
      svc.request(method, path, { token: s.vendorToken, body })

    /** A pending integration with services `edr` and `backup` and accounts acme-001, globex-002. */
    async function withServices(): Promise<Setup> {
      const s = await setupIntegration(svc)
      for (const id of ['edr', 'backup']) {
        const res = await vendor(s, 'POST', '/api/vendor-api/organization/services', { id, name: id })
        assert.equal(res.status, 201, res.text)
      }
      return s
    }

    async function count(s: Setup, serviceId: string, accountId: string, unitCount: number) {
      const res = await vendor(s, 'POST', `/api/vendor-api/service/${serviceId}/count`, {
        unitCount,
        accountId,
      })
      assert.equal(res.status, 201, res.text)
      clock.advance(60_000)
      return res.body as { id: string; createdAt: string }
    }

    const summary = (rows: { serviceId: string; accountId: string; unitCount: number }[]) =>
      rows.map((r) => `${r.serviceId}/${r.accountId}=${r.unitCount}`)

    test('the latest count per service and account: the last count sent wins', async () => {
      const s = await withServices()
      await count(s, 'edr', 'acme-001', 5)
      await count(s, 'edr', 'globex-002', 3)
      const last = await count(s, 'edr', 'acme-001', 7)
      await count(s, 'backup', 'acme-001', 10)
      await count(s, 'edr', 'acme-001', 0)
      await count(s, 'edr', 'acme-001', 8)

      const res = await vendor(s, 'GET', '/api/vendor-api/usage')
      assert.equal(res.status, 200, res.text)
      assert.deepEqual(summary(res.body.data), ['backup/acme-001=10', 'edr/acme-001=8', 'edr/globex-002=3'])
      const edrAcme = res.body.data[1]
      assert.deepEqual(Object.keys(edrAcme).sort(), [
        'accountId',
        'createdAt',
        'id',
        'serviceId',
        'unitCount',
      ])
      assert.ok(edrAcme.createdAt > last.createdAt)

      const edr = await vendor(s, 'GET', '/api/vendor-api/usage?serviceId=edr')
      assert.deepEqual(summary(edr.body.data), ['edr/acme-001=8', 'edr/globex-002=3'])
      const acme = await vendor(s, 'GET', '/api/vendor-api/usage?accountId=acme-001')
      assert.deepEqual(summary(acme.body.data), ['backup/acme-001=10', 'edr/acme-001=8'])
    })

    test('the latest of an integration without counts is empty', async () => {
      const s = await withServices()
      const res = await vendor(s, 'GET', '/api/vendor-api/usage')
      assert.equal(res.status, 200, res.text)
      assert.deepEqual(res.body, { data: [], nextCursor: null })
    })

    test("a service's history pages newest first with cursors, each count exactly once", async () => {
      const s = await withServices()
      const sent: string[] = []
      for (let i = 1; i <= 5; i++) sent.push((await count(s, 'edr', i % 2 ? 'acme-001' : 'globex-002', i)).id)
      await count(s, 'backup', 'acme-001', 99) // another service's count is not in edr's history

      const seen: number[] = []
      const ids: string[] = []
      let cursor: string | null = null
      let pages = 0
      do {
        const q: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''
        const res = await vendor(s, 'GET', `/api/vendor-api/service/edr/count?limit=2${q}`)
        assert.equal(res.status, 200, res.text)
        assert.ok(res.body.data.length <= 2)
        for (const r of res.body.data) {
          seen.push(r.unitCount)
          ids.push(r.id)
          assert.equal(r.serviceId, 'edr')
        }
        cursor = res.body.nextCursor
        if (pages === 0) await count(s, 'edr', 'acme-001', 100) // newer than the paging: not listed
        pages++
      } while (cursor)
      assert.equal(pages, 3)
      assert.deepEqual(seen, [5, 4, 3, 2, 1])
      assert.deepEqual(ids, [...sent].reverse())

      const all = await vendor(s, 'GET', '/api/vendor-api/service/edr/count')
      assert.deepEqual(
        all.body.data.map((r: { unitCount: number }) => r.unitCount),
        [100, 5, 4, 3, 2, 1],
      )
      assert.equal(all.body.nextCursor, null)
    })

    test('the history filters by account and by time', async () => {
      const s = await withServices()
      const first = await count(s, 'edr', 'acme-001', 1)
      await count(s, 'edr', 'globex-002', 2)
      const third = await count(s, 'edr', 'acme-001', 3)
      await count(s, 'edr', 'acme-001', 4)
      const path = '/api/vendor-api/service/edr/count'

      const acme = await vendor(s, 'GET', `${path}?accountId=acme-001`)
      assert.deepEqual(summary(acme.body.data), ['edr/acme-001=4', 'edr/acme-001=3', 'edr/acme-001=1'])
      const since = await vendor(s, 'GET', `${path}?since=${encodeURIComponent(third.createdAt)}`)
      assert.deepEqual(summary(since.body.data), ['edr/acme-001=4', 'edr/acme-001=3'])
      const window = await vendor(
        s,
        'GET',
        `${path}?accountId=acme-001&since=${first.createdAt}&until=${encodeURIComponent(third.createdAt)}`,
      )
      assert.deepEqual(summary(window.body.data), ['edr/acme-001=1'])
      const backup = await vendor(s, 'GET', '/api/vendor-api/service/backup/count')
      assert.deepEqual(backup.body, { data: [], nextCursor: null })
    })

    test("an unbound token names the integration; another vendor's integration is 404", async () => {
      const s = await withServices()
      await count(s, 'edr', 'acme-001', 5)
      const token = await svc.request('POST', '/api/oauth/token', {
        body: { grant_type: 'client_credentials', client_id: s.clientId, client_secret: s.clientSecret },
      })
      const unbound = token.body.access_token as string
      const get = (path: string, t = unbound) => svc.request('GET', path, { token: t })

      expectFailure(await get('/api/vendor-api/usage'), 400, 'VALIDATION_FAILED')
      const named = await get(`/api/vendor-api/usage?integrationId=${s.integrationId}`)
      assert.deepEqual(summary(named.body.data), ['edr/acme-001=5'])
      const history = await get(`/api/vendor-api/service/edr/count?integrationId=${s.integrationId}`)
      assert.deepEqual(summary(history.body.data), ['edr/acme-001=5'])

      const other = await setupIntegration(svc, { vendorName: 'Other vendor' })
      for (const path of [
        `/api/vendor-api/usage?integrationId=${s.integrationId}`,
        `/api/vendor-api/service/edr/count?integrationId=${s.integrationId}`,
      ]) {
        expectFailure(await get(path, other.vendorToken), 403, 'FORBIDDEN')
        const otherUnbound = await svc.request('POST', '/api/oauth/token', {
          body: {
            grant_type: 'client_credentials',
            client_id: other.clientId,
            client_secret: other.clientSecret,
          },
        })
        expectFailure(await get(path, otherUnbound.body.access_token), 404, 'INTEGRATION_NOT_FOUND')
        expectFailure(await svc.request('GET', path), 401, 'UNAUTHENTICATED')
      }
    })

    test('bad input is refused in the error shape and changes nothing', async () => {
      const s = await withServices()
      await count(s, 'edr', 'acme-001', 5)
      const before = await svc.counts()
      const path = '/api/vendor-api/service/edr/count'
      const bad: [string, number, string][] = [
        [`${path}?cursor=not-a-cursor`, 400, 'VALIDATION_FAILED'],
        [`${path}?limit=0`, 400, 'VALIDATION_FAILED'],
        [`${path}?limit=201`, 400, 'VALIDATION_FAILED'],
        [`${path}?since=yesterday`, 400, 'VALIDATION_FAILED'],
        [`${path}?since=2026-11-23T00:00:00Z&until=2026-11-22T00:00:00Z`, 400, 'VALIDATION_FAILED'],
        ['/api/vendor-api/service/nope/count', 404, 'NOT_FOUND'],
        [`${path}?accountId=nobody`, 404, 'ACCOUNT_UNKNOWN'],
        ['/api/vendor-api/usage?serviceId=nope', 404, 'NOT_FOUND'],
        ['/api/vendor-api/usage?accountId=nobody', 404, 'ACCOUNT_UNKNOWN'],
      ]
      for (const [url, status, error] of bad) {
        const res = await vendor(s, 'GET', url)
        expectFailure(res, status, error)
        assert.ok(res.body.detail.length > 10, `${url}: ${res.body.detail}`)
      }
      const unknownService = await vendor(s, 'GET', '/api/vendor-api/service/nope/count')
      assert.match(unknownService.body.detail, /'nope'/)
      assert.deepEqual(await svc.counts(), before)
    })
  })
}
