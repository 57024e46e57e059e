// Misplaced fields over HTTP, on both alert endpoints (src/alerts/intake/misplaced.ts,
// docs/contract.md#alert-request): a required field sent in the wrong place is a 400 naming where it was
// found; a call that succeeds anyway carries a `warnings` entry; a follow-up whose correlationId went
// inside `data` is refused saying where it belongs.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { type Setup, setupIntegration } from '../../support/fixtures.js'
import { backends, startService, type TestService } from '../../support/service.js'

const endpoints = [
  { strategy: 'sync', path: '/api/oem-alerts-api/alert/sync' },
  { strategy: 'webhook', path: '/api/oem-alerts-api/alert' },
] as const

for (const backend of backends()) {
  describe(`misplaced alert fields (${backend})`, () => {
    let svc: TestService
    let s: Setup
    before(async () => {
      svc = await startService({ backend })
      s = await setupIntegration(svc)
    })
    after(() => svc.close())

    for (const { strategy, path } of endpoints) {
      const post = (body: unknown) => svc.request('POST', path, { body })

      test(`${strategy}: a required data field sent at the top level is a 400 naming where it was found`, async () => {
        const body = s.body()
        const data = body.data as Record<string, unknown>
        body.accountId = data.accountId
        delete data.accountId
        const before = await svc.counts()
        const res = await post(body)
        assert.equal(res.status, 400, res.text)
        assert.equal(res.body.error, 'VALIDATION_FAILED')
        assert.match(res.body.detail, /accountId/)
        assert.match(res.body.detail, /body\/accountId is read nowhere; send it as body\/data\/accountId/)
        assert.equal(res.body.warnings, undefined, 'the hint is in the detail of a refusal')
        assert.deepEqual(await svc.counts(), before, 'nothing changed')
      })

      test(`${strategy}: a required field in another case is a 400 naming the contract's spelling`, async () => {
        const { clientId, ...rest } = s.body()
        const res = await post({ ...rest, ClientID: clientId })
        assert.equal(res.status, 400, res.text)
        assert.match(res.body.detail, /body\/ClientID is read nowhere; send it as body\/clientId/)
      })

      test(`${strategy}: a 400 without a misplaced field says nothing more`, async () => {
        const body = s.body()
        delete (body.data as Record<string, unknown>).accountId
        const res = await post(body)
        assert.equal(res.status, 400, res.text)
        assert.doesNotMatch(res.body.detail, /read nowhere/)
      })

      test(`${strategy}: an OPEN that succeeds with a misplaced field carries a warning`, async () => {
        const res = await post(s.body({}, { AccountId: 'x' }))
        // Created, or appended to the open ticket where de-duplication is on: a success either way.
        assert.ok(res.status === 201 || res.status === 200, res.text)
        assert.match(res.body.message, /^(created|updated)$/)
        assert.deepEqual(res.body.warnings, [
          'body/AccountId is read nowhere; send it as body/data/accountId',
        ])
      })

      test(`${strategy}: an OPEN without a misplaced field has no warnings field`, async () => {
        const res = await post(s.body())
        assert.ok(res.status === 201 || res.status === 200, res.text)
        assert.ok(!('warnings' in res.body), res.text)
      })

      test(`${strategy}: an UPDATE whose correlationId went inside data is refused saying where it belongs`, async () => {
        const body = s.body({ incidentStatus: 'UPDATE' })
        delete body.correlationId
        ;(body.data as Record<string, unknown>).correlationId = 'edr-in-data'
        const res = await post(body)
        // The synchronous strategy answers 400; the webhook strategy's immediate answer is a 200 failed.
        assert.equal(res.status, strategy === 'sync' ? 400 : 200, res.text)
        assert.equal(res.body.message, 'failed')
        assert.equal(res.body.error, 'CORRELATION_ID_REQUIRED')
        assert.match(res.body.detail, /inside data \(body\/data\/correlationId\); send it at the top level/)
        assert.deepEqual(res.body.warnings, [
          'body/data/correlationId is read nowhere; send it as body/correlationId',
        ])
      })
    }
  })
}
