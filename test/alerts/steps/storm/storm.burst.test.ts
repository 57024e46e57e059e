// Storm control under a burst (docs/partner-api.md#storm-control, docs/decision-table.md#one-storm-ticket):
// with a cap of N, any number of concurrent OPENs of one account (distinct correlationIds, both
// strategies, two processes on PostgreSQL + Redis) make at most N ordinary tickets and exactly one storm
// ticket, the rest folded into it: the count is taken again under the account's lock when the ticket is
// reserved. A create the PSA refuses gives its place back. And once the last RESOLVED of a storm is
// answered `closed`, the storm ticket is closed here at once: an UPDATE naming it answers 409 and it
// reads closed, while the PSA close follows with the next batched note.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { type Setup, setupIntegration } from '../../../support/fixtures.js'
import { hooked } from '../../../support/hooked.js'
import { backends, manualClock, startService, type TestService } from '../../../support/service.js'
import { expectSyncFailure, expectSyncSuccess } from '../../../support/shapes.js'

/** Turns storm control on with this cap per account (and per integration, if given). */
async function stormy(s: Setup, cap: number, perIntegration: number | null = null): Promise<void> {
  const res = await s.partner('PATCH', `/api/partner/integrations/${s.integrationId}`, {
    deduplication: { keyFields: ['accountId', 'productGroup', 'alertType', 'title'] },
    storm: { enabled: true, maxTicketsPerAccount: cap, maxTicketsPerIntegration: perIntegration },
  })
  assert.equal(res.status, 200, res.text)
}

/** The integration's ticket rows: ordinary ones and storm tickets, and the incidents folded. */
async function rows(svc: TestService, integrationId: string) {
  const db = svc.services.db.kysely
  const tickets = await db
    .selectFrom('tickets')
    .select(['dedup_key', 'status', 'account_id'])
    .where('integration_id', '=', integrationId)
    .execute()
  const folded = await db
    .selectFrom('storm_alerts')
    .select('id')
    .where('integration_id', '=', integrationId)
    .execute()
  const storm = tickets.filter((t) => t.dedup_key.startsWith('storm:'))
  return { ordinary: tickets.length - storm.length, storm: storm.length, folded: folded.length, tickets }
}

for (const backend of backends('matrix')) {
  describe(`storm control under a burst (${backend})`, () => {
    let svc: TestService
    const clock = manualClock()
    before(async () => {
      svc = await startService({ backend, clock, env: { ALLOW_PRIVATE_NETWORK: 'true' } })
    })
    after(() => svc.close())

    const sandbox = async (s: Setup) =>
      (await s.partner('GET', '/api/partner/sandbox/tickets')).body.data as {
        summary: string
        status: string
        notes: { text: string }[]
      }[]

    test('16 concurrent OPENs with a cap of 2: 2 tickets, one storm ticket, 14 folded', async () => {
      const s = await setupIntegration(svc)
      await stormy(s, 2)
      const answers = await Promise.all(
        Array.from({ length: 16 }, (_, i) => s.sync({ title: `Burst ${i}` }, { correlationId: `b-${i}` })),
      )
      const statuses = answers.map((a) => a.status).sort()
      assert.equal(statuses.filter((x) => x === 201).length, 2, JSON.stringify(answers.map((a) => a.body)))
      assert.equal(statuses.filter((x) => x === 200).length, 14)
      const folds = answers.filter((a) => a.status === 200)
      assert.equal(new Set(folds.map((a) => a.body.data.correlationID)).size, 1, 'one storm ticket named')
      assert.ok(folds.every((a) => a.body.message === 'updated'))
      assert.deepEqual(await rows(svc, s.integrationId).then(({ tickets: _, ...n }) => n), {
        ordinary: 2,
        storm: 1,
        folded: 14,
      })
      assert.equal((await sandbox(s)).length, 3, 'three tickets in the PSA')
    })

    test('concurrent OPENs of both strategies with a cap of 2: the queued ones count too', async () => {
      const s = await hooked(svc)
      await stormy(s, 2)
      const sent = await Promise.all(
        Array.from({ length: 12 }, (_, i) => {
          const data = { title: `Mixed ${i}` }
          const extra = { correlationId: `m-${i}` }
          return i % 2 === 0
            ? s.sync(data, extra)
            : svc.request('POST', '/api/oem-alerts-api/alert', { body: s.body(data, extra) })
        }),
      )
      assert.ok(
        sent.every((r) => r.status === 200 || r.status === 201),
        JSON.stringify(sent.map((r) => r.body)),
      )
      await svc.counts()
      const n = await rows(svc, s.integrationId)
      assert.deepEqual([n.ordinary, n.storm, n.folded], [2, 1, 10], JSON.stringify(n.tickets))
      // Every queued alert's outcome is in the vendor's status_updates: created for tickets, else updated.
      const deliveries = await svc.request('GET', '/api/vendor-api/deliveries?limit=200', {
        token: s.vendorToken,
      })
      assert.equal(deliveries.status, 200, deliveries.text)
      const events = new Map<string, string>(
        deliveries.body.data.map((d: { payload: { payload: { messageId: string; event: string } } }) => [
          d.payload.payload.messageId,
          d.payload.payload.event,
        ]),
      )
      const queued = sent.filter((_, i) => i % 2 === 1).map((r) => events.get(r.body.data.messageId))
      assert.ok(
        queued.every((e) => e === 'Ticket Created' || e === 'Ticket Updated'),
        JSON.stringify(queued),
      )
      const created = sent.filter((r, i) => i % 2 === 0 && r.status === 201).length
      assert.equal(created + queued.filter((e) => e === 'Ticket Created').length, 2)
      await s.receiver.close()
    })

    test('an integration-wide cap holds under a burst across accounts', async () => {
      const s = await setupIntegration(svc, { mapped: ['acme-001', 'globex-002'] })
      await stormy(s, 100, 3)
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          s.sync(
            { title: `Wide ${i}`, accountId: i % 2 === 0 ? 'acme-001' : 'globex-002' },
            { correlationId: `w-${i}` },
          ),
        ),
      )
      assert.ok(answers.every((a) => a.status === 200 || a.status === 201))
      const n = await rows(svc, s.integrationId)
      assert.equal(n.ordinary, 3, JSON.stringify(n.tickets))
      assert.equal(n.folded, 12 - 3)
      // One storm ticket per account that folded.
      const stormAccounts = new Set(
        n.tickets.filter((t) => t.dedup_key.startsWith('storm:')).map((t) => t.account_id),
      )
      assert.equal(n.storm, stormAccounts.size)
    })

    test('a create the PSA refuses gives its place under the cap back', async () => {
      const s = await setupIntegration(svc)
      await stormy(s, 2)
      const fault = await s.partner('PUT', '/api/partner/sandbox/fault', {
        mode: 'error',
        operations: ['create'],
      })
      assert.equal(fault.status, 200, fault.text)
      const refused = await s.sync({ title: 'Refused' }, { correlationId: 'r-0' })
      assert.ok(refused.status >= 500, refused.text)
      assert.equal((await s.partner('DELETE', '/api/partner/sandbox/fault')).status, 204)
      for (const i of [1, 2])
        expectSyncSuccess(await s.sync({ title: `After ${i}` }, { correlationId: `r-${i}` }), {
          status: 201,
          message: 'created',
          correlationId: `r-${i}`,
        })
      const third = await s.sync({ title: 'After 3' }, { correlationId: 'r-3' })
      assert.equal(third.status, 200, third.text)
      assert.equal(third.body.message, 'updated')
    })

    test('after the closed answer the storm ticket is closed here: UPDATE answers 409, it reads closed', async () => {
      const s = await setupIntegration(svc)
      await stormy(s, 1)
      assert.equal((await s.sync({ title: 'first' })).status, 201)
      let stormCid = ''
      for (const id of ['c-1', 'c-2'])
        stormCid = (await s.sync({ title: id }, { correlationId: id })).body.data.correlationID
      expectSyncSuccess(await s.sync({ incidentStatus: 'RESOLVED' }, { correlationId: 'c-1' }), {
        status: 200,
        message: 'updated',
        correlationId: stormCid,
      })
      expectSyncSuccess(await s.sync({ incidentStatus: 'RESOLVED' }, { correlationId: 'c-2' }), {
        status: 200,
        message: 'closed',
        correlationId: stormCid,
      })
      // At once, before the next note closes it in the PSA.
      const listed = await s.partner('GET', `/api/partner/tickets?search=${stormCid}`)
      assert.equal(listed.body.data.length, 1)
      assert.equal(listed.body.data[0].status, 'closed')
      for (const cid of [stormCid, 'c-1']) {
        const update = await s.sync({ incidentStatus: 'UPDATE' }, { correlationId: cid })
        expectSyncFailure(update, { status: 409, error: 'TICKET_CLOSED' })
        const events = await s.partner('GET', `/api/partner/events?correlationId=${cid}&limit=1`)
        assert.equal(events.body.data[0]?.event, 'Ticket Already Closed')
      }
      const again = await s.sync({ incidentStatus: 'RESOLVED' }, { correlationId: 'c-2' })
      assert.equal(again.status, 409, again.text)
      // The PSA hears of it with the next note: the closing note, then closed.
      let [storm] = (await sandbox(s)).filter((t) => t.summary.startsWith('Alert storm'))
      assert.notEqual(storm!.status, 'Closed')
      clock.advance(61_000)
      svc.services.queue.handOver()
      await svc.counts()
      ;[storm] = (await sandbox(s)).filter((t) => t.summary.startsWith('Alert storm'))
      assert.equal(storm!.status, 'Closed')
      assert.match(storm!.notes.at(-1)!.text, /Resolved: .*\[c-2\]\n\nEvery folded alert has resolved\.$/)
      // A new OPEN past the cap opens a storm ticket of its own.
      const next = await s.sync({ title: 'later' }, { correlationId: 'c-3' })
      assert.equal(next.status, 200, next.text)
      assert.notEqual(next.body.data.correlationID, stormCid)
      assert.equal(
        (await s.partner('GET', `/api/partner/tickets?search=${stormCid}`)).body.data[0].status,
        'closed',
      )
    })
  })
}

describe('storm control under a burst across two processes (postgres+redis)', {
  skip: backends('matrix').includes('postgres+redis') ? false : 'needs TEST_POSTGRES_URL and TEST_REDIS_URL',
}, () => {
  let a: TestService
  let b: TestService
  before(async () => {
    a = await startService({ backend: 'postgres+redis' })
    b = await startService({ share: a })
  })
  after(async () => {
    await b?.close()
    await a?.close()
  })

  test('20 concurrent OPENs split between two processes with a cap of 2: 2 tickets, one storm ticket', async () => {
    const s = await setupIntegration(a)
    await stormy(s, 2)
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 === 0 ? a : b).request('POST', '/api/oem-alerts-api/alert/sync', {
          body: s.body({ title: `Two ${i}` }, { correlationId: `t-${i}` }),
        }),
      ),
    )
    assert.ok(
      answers.every((r) => r.status === 200 || r.status === 201),
      JSON.stringify(answers.map((r) => r.body)),
    )
    assert.equal(answers.filter((r) => r.status === 201).length, 2)
    const n = await rows(a, s.integrationId)
    assert.deepEqual([n.ordinary, n.storm, n.folded], [2, 1, 18], JSON.stringify(n.tickets))
  })
})
