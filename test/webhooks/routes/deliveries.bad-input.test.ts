// Bad input to the deliveries API of both audiences (partner and operator): a 400 naming the field
// and the rule, the same on SQLite and PostgreSQL, and not one row changed.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { type Setup, setupIntegration } from '../../support/fixtures.js'
import { backends, startService, type TestService } from '../../support/service.js'
import { expectFailure } from '../../support/shapes.js'

for (const backend of backends('databases')) {
  describe(`bad input to the deliveries API (${backend})`, () => {
    let svc: TestService
    let s: Setup
    before(async () => {
      svc = await startService({ backend })
      s = await setupIntegration(svc)
    })
    after(() => svc.close())

    const audiences = () => [
      { prefix: '/api/partner', token: s.partnerKey },
      { prefix: '/api/admin', token: svc.adminToken },
    ]

    test('a leap second in the since of a replay is a 400 naming the field, for partner and operator', async () => {
      for (const { prefix, token } of audiences()) {
        for (const since of ['2016-12-31T23:59:60Z', '2016-12-31T18:59:60-05:00']) {
          const before = await svc.snapshot()
          const res = await svc.request('POST', `${prefix}/deliveries/replay`, { token, body: { since } })
          expectFailure(res, 400, 'VALIDATION_FAILED')
          assert.match(res.body.detail, /body\/since .*date-time/, res.text)
          assert.deepEqual(await svc.snapshot(), before)
        }
        const ok = await svc.request('POST', `${prefix}/deliveries/replay`, {
          token,
          body: { since: '2016-12-31T23:59:59Z' },
        })
        assert.equal(ok.status, 202, ok.text)
      }
    })

    test('NUL in a path id, a filter or the body is a 400 naming it', async () => {
      for (const { prefix, token } of audiences()) {
        for (const [method, path, body, detail] of [
          ['GET', `${prefix}/deliveries/%00`, undefined, /params\/id .*NUL/],
          ['POST', `${prefix}/deliveries/d%00/replay`, undefined, /params\/id .*NUL/],
          ['GET', `${prefix}/deliveries?cursor=%00`, undefined, /querystring\/cursor .*NUL/],
          [
            'POST',
            `${prefix}/deliveries/replay`,
            { since: '2026-01-01T00:00:00Z\u0000' },
            /body\/since .*NUL/,
          ],
        ] as const) {
          const before = await svc.snapshot()
          const res = await svc.request(method, path, { token, body })
          expectFailure(res, 400, 'VALIDATION_FAILED')
          assert.match(res.body.detail, detail, res.text)
          assert.deepEqual(await svc.snapshot(), before)
        }
      }
      const res = await svc.request('GET', '/api/admin/deliveries?vendorId=%00', { token: svc.adminToken })
      expectFailure(res, 400, 'VALIDATION_FAILED')
      assert.match(res.body.detail, /querystring\/vendorId .*NUL/)
    })
  })
}
