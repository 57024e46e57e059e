// Bad input gets a clear error in the contract's failure shape and changes nothing.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import fc from 'fast-check'
import { type Setup, setupIntegration } from '../helpers/fixtures.js'
import { backends, startService, type TestService } from '../helpers/service.js'
import { expectFailure, expectSyncFailure } from '../helpers/shapes.js'

const path = '/api/oem-alerts-api/alert/sync'

for (const backend of backends()) {
  describe(`bad alert input (${backend})`, () => {
    let svc: TestService
    let s: Setup
    before(async () => {
      svc = await startService({ backend })
      s = await setupIntegration(svc)
    })
    after(() => svc.close())

    async function refused(
      send: () => Promise<import('../helpers/service.js').Response>,
      status: number,
      error: string,
    ) {
      const before = await svc.counts()
      const res = await send()
      expectSyncFailure(res, { status, error })
      assert.deepEqual(await svc.counts(), before, 'nothing changed')
      return res
    }

    test('invalid JSON', async () => {
      await refused(() => svc.request('POST', path, { raw: '{"data": {' }), 400, 'INVALID_JSON')
      await refused(
        () => svc.request('POST', path, { raw: '', headers: { 'content-type': 'application/json' } }),
        400,
        'INVALID_JSON',
      )
    })

    test('a body that is not JSON at all is refused with 415', async () => {
      await refused(
        () => svc.request('POST', path, { raw: 'title=x', headers: { 'content-type': 'text/plain' } }),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      )
    })

    test('wrong types', async () => {
      const res = await refused(
        () => svc.request('POST', path, { body: s.body({ incidentStatus: 'CLOSED' as 'OPEN' }) }),
        400,
        'VALIDATION_FAILED',
      )
      assert.match(res.body.detail, /incidentStatus/)
      await refused(
        () => svc.request('POST', path, { body: { ...s.body(), data: 'not an object' } }),
        400,
        'VALIDATION_FAILED',
      )
      await refused(() => svc.request('POST', path, { raw: '[1,2,3]' }), 400, 'VALIDATION_FAILED')
    })

    test('missing fields are named', async () => {
      const { data, ...noData } = s.body()
      const res = await refused(() => svc.request('POST', path, { body: noData }), 400, 'VALIDATION_FAILED')
      assert.match(res.body.detail, /data/)
      const body = s.body()
      delete (body.data as Record<string, unknown>).accountId
      const res2 = await refused(() => svc.request('POST', path, { body }), 400, 'VALIDATION_FAILED')
      assert.match(res2.body.detail, /accountId/)
      assert.ok(data)
    })

    test('length limits answer 400 naming the limit', async () => {
      const res = await refused(
        () => svc.request('POST', path, { body: s.body({ title: 'x'.repeat(256) }) }),
        400,
        'VALIDATION_FAILED',
      )
      assert.match(res.body.detail, /title.*255/)
      await refused(
        () => svc.request('POST', path, { body: s.body({ summary: 'x'.repeat(16385) }) }),
        400,
        'VALIDATION_FAILED',
      )
      await refused(
        () => svc.request('POST', path, { body: s.body({ accountId: 'a'.repeat(129) }) }),
        400,
        'VALIDATION_FAILED',
      )
      await refused(
        () => svc.request('POST', path, { body: s.body({}, { correlationId: 'has spaces' }) }),
        400,
        'VALIDATION_FAILED',
      )
      await refused(
        () => svc.request('POST', path, { body: s.body({ title: '' }) }),
        400,
        'VALIDATION_FAILED',
      )
    })

    test('correlationId and correlationID that differ are refused', async () => {
      await refused(
        () => svc.request('POST', path, { body: s.body({}, { correlationId: 'a-1', correlationID: 'b-2' }) }),
        400,
        'VALIDATION_FAILED',
      )
    })

    test('a body over 256 KiB answers 413', async () => {
      const big = s.body({ summary: 'x'.repeat(300 * 1024) })
      await refused(() => svc.request('POST', path, { body: big }), 413, 'BODY_TOO_LARGE')
    })

    test('unknown integration and wrong secret', async () => {
      await refused(
        () => svc.request('POST', path, { body: s.body({}, { integrationId: 'nope' }) }),
        404,
        'INTEGRATION_NOT_FOUND',
      )
      await refused(
        () => svc.request('POST', path, { body: s.body({}, { clientSecret: `${s.clientSecret}x` }) }),
        401,
        'INVALID_CREDENTIALS',
      )
    })

    test('unknown fields are ignored', async () => {
      const res = await svc.request('POST', path, { body: s.body({}, { somethingNew: { nested: true } }) })
      assert.equal(res.status, 201, res.text)
    })

    test('arbitrary JSON bodies never answer 5xx and never change anything', async () => {
      const before = await svc.counts()
      const valid = Object.fromEntries(Object.entries(s.body()).map(([k, v]) => [k, fc.constant(v)]))
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            fc.anything(),
            fc.record({ ...valid, data: fc.anything() }),
            fc.record({
              ...valid,
              clientSecret: fc.string(),
              data: fc.record({ title: fc.string(), incidentStatus: fc.string(), accountId: fc.anything() }),
            }),
          ),
          async (body) => {
            const res = await svc.request('POST', path, { raw: JSON.stringify(body) ?? 'null' })
            assert.ok(res.status >= 400 && res.status < 500, `${res.status} ${res.text}`)
            assert.equal(res.body.message, 'failed')
          },
        ),
        { numRuns: 60 },
      )
      assert.deepEqual(await svc.counts(), before)
    })

    test('bad input to the partner API changes nothing either', async () => {
      const before = await svc.counts()
      const bad = [
        s.partner('POST', `/api/partner/integrations/${s.integrationId}/rules`, {
          productGroup: 'No Such Group',
        }),
        s.partner('POST', `/api/partner/integrations/${s.integrationId}/rules`, {
          productGroup: 'Backup',
          alertTypes: ['Malware Detected'],
        }),
        s.partner('POST', `/api/partner/integrations/${s.integrationId}/rules`, {
          productGroup: 'Backup',
          action: 'explode',
        }),
        s.partner('PATCH', `/api/partner/integrations/${s.integrationId}`, {
          deduplication: { keyFields: [] },
        }),
        s.partner('PUT', `/api/partner/integrations/${s.integrationId}/accounts/unknown-account`, {
          psaCompanyId: '100',
        }),
      ]
      const results = await Promise.all(bad)
      expectFailure(results[0]!, 400, 'VALIDATION_FAILED')
      assert.match(results[0]!.body.detail, /No Such Group/)
      expectFailure(results[1]!, 400, 'VALIDATION_FAILED')
      expectFailure(results[2]!, 400, 'VALIDATION_FAILED')
      expectFailure(results[3]!, 400, 'VALIDATION_FAILED')
      expectFailure(results[4]!, 404, 'ACCOUNT_UNKNOWN')
      assert.deepEqual(await svc.counts(), before)
    })
  })
}
