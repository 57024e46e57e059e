// A ticket's history is bounded (docs/decisions/bounded-growth/nested-lists.md): an alert storm on one
// ticket appends an event per alert, and GET …/alert/{correlationId} answers the newest 500 of them, oldest
// first, with how many there are. The partner pages every one of them through its event list.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { v7 as uuidv7 } from 'uuid'
import { setupIntegration } from '../../support/fixtures.js'
import { backends, startService, type TestService } from '../../support/service.js'

for (const backend of backends('databases')) {
  describe(`ticket history (${backend})`, () => {
    let svc: TestService
    before(async () => {
      svc = await startService({ backend })
    })
    after(() => svc.close())

    test('a ticket with 600 events answers its newest 500, oldest first, and the count', async () => {
      const s = await setupIntegration(svc)
      const created = await s.sync()
      const cid = created.body.data.correlationID as string
      const appended: string[] = []
      for (let i = 0; i < 599; i++) {
        const messageId = uuidv7()
        await svc.services.store.events.insert({
          messageId,
          partnerId: s.partnerId,
          vendorId: s.vendorId,
          integrationId: s.integrationId,
          correlationId: cid,
          event: 'Ticket Updated',
          status: 'success',
          httpStatus: 200,
          incidentStatus: 'UPDATE',
          strategy: 'sync',
          request: null,
          detail: null,
          createdAt: new Date().toISOString(),
        })
        appended.push(messageId)
      }
      for (const [path, token] of [
        [`/api/oem-alerts-api/alert/${cid}`, s.vendorToken],
        [`/api/partner/tickets/${cid}`, s.partnerKey],
      ] as const) {
        const res = await svc.request('GET', path, { token })
        assert.equal(res.status, 200, res.text)
        assert.equal(res.body.eventCount, 600)
        assert.deepEqual(
          res.body.events.map((e: { messageId: string }) => e.messageId),
          appended.slice(-500),
        )
      }
      const small = await svc.request(
        'GET',
        `/api/oem-alerts-api/alert/${(await s.sync({ alertType: 'Agent Offline' })).body.data.correlationID}`,
        {
          token: s.vendorToken,
        },
      )
      assert.equal(small.body.events.length, 1)
      assert.equal(small.body.eventCount, 1)
    })
  })
}
