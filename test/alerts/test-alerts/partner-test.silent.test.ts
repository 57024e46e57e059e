// A partner's test ticket stays silent to the vendor (docs/partner-api.md#test-alerts, docs/psa/sync.md):
// closed on the PSA side, two-way sync records its event (marked test) for the partner and sends the
// vendor nothing, while a normal ticket closed the same way gets its status_update; the vendor's ticket
// reads do not show it; and the rule tester explains its close as row partner-test-close.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { type Hooked, hooked } from '../../support/hooked.js'
import { backends, startService, type TestService } from '../../support/service.js'
import { hold, waitFor } from '../../support/wait.js'

const env = { ALLOW_PRIVATE_NETWORK: 'true', PSA_POLL_INTERVAL_MS: '500', PSA_POLL_PUSH_INTERVAL_MS: '500' }

for (const backend of backends('databases')) {
  describe(`a partner's test ticket is silent to the vendor (${backend})`, () => {
    let svc: TestService
    let s: Hooked
    before(async () => {
      svc = await startService({ backend, env })
      s = await hooked(svc, { rule: { productGroup: 'Endpoint Security' } })
      // Each alert its own ticket: the real one is not folded into anything.
      await s.partner('PATCH', `/api/partner/integrations/${s.integrationId}`, {
        deduplication: { enabled: false },
      })
    })
    after(async () => {
      await s?.receiver.close()
      await svc?.close()
    })
    const ticket = (cid: string) => s.partner('GET', `/api/partner/tickets/${cid}`)
    const closeInPsa = async (cid: string) => {
      const t = await ticket(cid)
      const r = await s.partner('PATCH', `/api/partner/sandbox/tickets/${t.body.psaTicketId}`, {
        status: 'Closed',
      })
      assert.equal(r.status, 200, r.text)
    }
    const closedHere = (cid: string) =>
      waitFor(async () => (await ticket(cid)).body.status === 'closed', {
        what: `${cid} closed here`,
        intervalMs: 100,
      })
    const updatesOf = (cid: string) =>
      s.receiver.accepted('status_update').filter((r) => r.body.payload.correlationId === cid)

    test('closed in the PSA: the normal ticket tells the vendor, the test ticket only the partner', async () => {
      const real = await s.sync()
      assert.equal(real.status, 201, real.text)
      const realCid: string = real.body.data.correlationID
      const sent = await s.partner('POST', `/api/partner/integrations/${s.integrationId}/test-alert`, {
        closeAfterMinutes: 0,
      })
      assert.equal(sent.status, 201, sent.text)
      const testCid: string = sent.body.correlationId
      const row = await svc.services.store.tickets.findByCorrelation(s.integrationId, testCid)
      assert.equal(row?.partnerTest, true, 'the test ticket remembers it is one')
      const realRow = await svc.services.store.tickets.findByCorrelation(s.integrationId, realCid)
      assert.equal(realRow?.partnerTest, false)

      await closeInPsa(testCid)
      await closeInPsa(realCid)
      await closedHere(testCid)
      await closedHere(realCid)
      await s.receiver.waitFor(
        () => updatesOf(realCid).some((r) => r.body.payload.event === 'Ticket Closed In PSA'),
        'the status_update of the normal ticket closed in the PSA',
      )
      // Nothing is awaited here: the test ticket's close must send nothing during this half second.
      await hold(500, 'a period in which no webhook for the test ticket may arrive')
      assert.deepEqual(updatesOf(testCid), [], 'no webhook for the test ticket')
      const deliveries = await svc.request('GET', '/api/vendor-api/deliveries?limit=200', {
        token: s.vendorToken,
      })
      assert.equal(deliveries.status, 200, deliveries.text)
      assert.ok(
        !deliveries.body.data.some(
          (d: { payload: { payload?: { correlationId?: string } } }) =>
            d.payload.payload?.correlationId === testCid,
        ),
        'no delivery for the test ticket in the outbox',
      )
      // The partner's audit trail has the PSA-side event, marked test.
      const events = await s.partner('GET', `/api/partner/events?correlationId=${testCid}`)
      const psaEvent = events.body.data.find((e: { strategy: string }) => e.strategy === 'psa')
      assert.deepEqual([psaEvent?.event, psaEvent?.test], ['Ticket Closed In PSA', true])
    })

    test("the vendor's ticket reads leave the test ticket out; the rule tester explains its close", async () => {
      const sent = await s.partner('POST', `/api/partner/integrations/${s.integrationId}/test-alert`, {
        closeAfterMinutes: 0,
      })
      assert.equal(sent.status, 201, sent.text)
      const testCid: string = sent.body.correlationId
      const list = await svc.request('GET', '/api/oem-alerts-api/alert?limit=200', { token: s.vendorToken })
      assert.equal(list.status, 200, list.text)
      const cids = list.body.data.map((t: { correlationId: string }) => t.correlationId)
      assert.ok(cids.length > 0 && !cids.includes(testCid), JSON.stringify(cids))
      const one = await svc.request('GET', `/api/oem-alerts-api/alert/${testCid}`, { token: s.vendorToken })
      assert.equal(one.status, 404, one.text)
      assert.equal((await ticket(testCid)).status, 200, 'the partner sees it')

      // Self-healing off: a vendor's RESOLVED would be suppressed, the test's close still closes.
      await s.partner('PATCH', `/api/partner/integrations/${s.integrationId}`, { selfHealing: false })
      try {
        const dry = await s.partner('POST', `/api/partner/integrations/${s.integrationId}/dry-run`, {
          correlationId: testCid,
          data: {
            incidentStatus: 'RESOLVED',
            title: 'Test alert from alertbridge',
            summary: '',
            accountId: 'acme-001',
            productGroup: 'Endpoint Security',
            alertType: 'Malware Detected',
          },
        })
        assert.equal(dry.status, 200, dry.text)
        assert.deepEqual([dry.body.action, dry.body.row], ['close', 'partner-test-close'], dry.text)
        assert.match(dry.body.reason, /partner's test ticket/)
        assert.equal(dry.body.existingTicket.correlationId, testCid)
        assert.equal((await ticket(testCid)).body.status, 'open', 'the dry run wrote nothing')
      } finally {
        await s.partner('PATCH', `/api/partner/integrations/${s.integrationId}`, { selfHealing: true })
      }
    })
  })
}
