// At most one ticket per correlationId and per open dedup key under concurrent requests: the
// database decides (reservation row + unique constraints), not a check-then-insert.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { setupIntegration } from '../../support/fixtures.js'
import { backends, startService, type TestService } from '../../support/service.js'

for (const backend of backends('matrix')) {
  describe(`concurrent alerts (${backend})`, () => {
    let svc: TestService
    before(async () => {
      svc = await startService({ backend })
    })
    after(() => svc.close())

    test('20 concurrent OPENs with one dedup key: one created, nineteen updated, one ticket', async () => {
      const s = await setupIntegration(svc)
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => s.sync({ title: `Burst ${i}` })))
      const messages = results.map((r) => r.body.message)
      assert.equal(messages.filter((m) => m === 'created').length, 1, JSON.stringify(messages))
      assert.equal(messages.filter((m) => m === 'updated').length, 19, JSON.stringify(messages))
      const ids = new Set(results.map((r) => r.body.data.correlationID))
      assert.equal(ids.size, 1, 'every answer names the same ticket')
      const tickets = await s.partner('GET', '/api/partner/tickets')
      assert.equal(tickets.body.data.length, 1)
      assert.equal(tickets.body.data[0].occurrenceCount, 20)
      const sandbox = await s.partner('GET', '/api/partner/sandbox/tickets')
      assert.equal(sandbox.body.data.length, 1, 'one ticket in the PSA')
      assert.equal(sandbox.body.data[0].notes.length, 19)
    })

    test('concurrent OPENs with the same vendor correlationId create one ticket', async () => {
      const s = await setupIntegration(svc)
      await s.partner('PATCH', `/api/partner/integrations/${s.integrationId}`, {
        deduplication: { enabled: false },
      })
      const results = await Promise.all(
        Array.from({ length: 10 }, () => s.sync({}, { correlationId: 'same-incident' })),
      )
      const messages = results.map((r) => r.body.message).sort()
      assert.deepEqual(messages, ['created', ...Array(9).fill('updated')])
      const sandbox = await s.partner('GET', '/api/partner/sandbox/tickets')
      assert.equal(sandbox.body.data.length, 1)
    })

    test('concurrent RESOLVEDs close the ticket once; the others answer 409', async () => {
      const s = await setupIntegration(svc)
      const created = await s.sync()
      const cid = created.body.data.correlationID
      const results = await Promise.all(
        Array.from({ length: 8 }, () => s.sync({ incidentStatus: 'RESOLVED' }, { correlationId: cid })),
      )
      const statuses = results.map((r) => r.status).sort()
      assert.deepEqual(statuses, [200, ...Array(7).fill(409)], JSON.stringify(results.map((r) => r.body)))
    })

    test('with different dedup keys, concurrent OPENs each create their own ticket', async () => {
      const s = await setupIntegration(svc)
      await s.partner('PATCH', `/api/partner/integrations/${s.integrationId}`, {
        deduplication: { keyFields: ['accountId', 'productGroup', 'alertType', 'title'] },
      })
      const results = await Promise.all(Array.from({ length: 10 }, (_, i) => s.sync({ title: `Host ${i}` })))
      assert.deepEqual(
        results.map((r) => r.body.message),
        Array(10).fill('created'),
      )
    })
  })
}
