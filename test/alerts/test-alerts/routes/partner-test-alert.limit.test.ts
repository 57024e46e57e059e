// The partner's test alerts have a limit of their own (docs/partner-api.md#test-alerts): at most
// PARTNER_TEST_ALERTS_PER_MINUTE a minute per integration, the partner's and the operator's together;
// past it 429 RATE_LIMITED with Retry-After, nothing recorded and no PSA call. A burst (the review sent
// 300 in 2 s and got 119 HaloPSA tickets) makes at most that many PSA calls. On every backend: with
// Redis the count is Redis's.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { setupIntegration } from '../../../support/fixtures.js'
import { backends, startService, type TestService } from '../../../support/service.js'
import { expectFailure } from '../../../support/shapes.js'

for (const backend of backends('matrix')) {
  describe(`the partner's test alerts are limited per integration (${backend})`, () => {
    let svc: TestService
    before(async () => {
      svc = await startService({ backend, env: { PARTNER_TEST_ALERTS_PER_MINUTE: '3' } })
    })
    after(() => svc?.close())

    test('three a minute, then 429 with Retry-After for the partner and the operator; nothing changes', async () => {
      const s = await setupIntegration(svc)
      const path = `/api/partner/integrations/${s.integrationId}/test-alert`
      const answers = []
      for (let i = 0; i < 3; i++)
        answers.push((await s.partner('POST', path, { closeAfterMinutes: 0 })).status)
      assert.deepEqual(answers, [201, 200, 200], 'a test ticket, then the same one updated')
      const before = await svc.snapshot()
      const limited = await s.partner('POST', path, { closeAfterMinutes: 0 })
      expectFailure(limited, 429, 'RATE_LIMITED')
      const wait = Number(limited.headers.get('retry-after'))
      assert.ok(Number.isInteger(wait) && wait >= 1 && wait <= 60, `Retry-After: ${wait}`)
      assert.match(
        limited.body.detail,
        /^Test alerts of this integration: at most 3 a minute; try again in \d+ seconds?\.$/,
      )
      const operator = await svc.request('POST', `/api/admin/integrations/${s.integrationId}/test-alert`, {
        token: svc.adminToken,
        body: {},
      })
      expectFailure(operator, 429, 'RATE_LIMITED')
      assert.deepEqual(await svc.snapshot(), before, 'a limited test alert writes nothing')
      // Another integration has a count of its own.
      const other = await setupIntegration(svc, { partnerName: 'Other MSP' })
      const own = await other.partner(
        'POST',
        `/api/partner/integrations/${other.integrationId}/test-alert`,
        {},
      )
      assert.equal(own.status, 201, own.text)
    })

    test('a burst of 30 at once runs 3 test alerts, making at most 3 PSA tickets', async () => {
      const s = await setupIntegration(svc, { partnerName: 'Bursting MSP' })
      const path = `/api/partner/integrations/${s.integrationId}/test-alert`
      const statuses = await Promise.all(
        Array.from(
          { length: 30 },
          async () => (await s.partner('POST', path, { closeAfterMinutes: 0 })).status,
        ),
      )
      assert.equal(statuses.filter((st) => st === 429).length, 27, statuses.join(','))
      const tickets = await s.partner('GET', '/api/partner/sandbox/tickets')
      assert.equal(tickets.status, 200, tickets.text)
      assert.ok(
        tickets.body.data.length >= 1 && tickets.body.data.length <= 3,
        `${tickets.body.data.length} tickets`,
      )
      const events = await s.partner('GET', `/api/partner/events?integrationId=${s.integrationId}`)
      assert.equal(events.status, 200, events.text)
      assert.equal(events.body.data.length, 3, 'three test alerts ran')
    })
  })
}
