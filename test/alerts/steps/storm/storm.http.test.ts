// Storm control through the API (docs/partner-api.md#storm-control, docs/decision-table.md#storm): past
// the cap of new tickets per account, new incidents fold into one storm ticket per account and window,
// answered 200 updated with its correlationId; the PSA hears of them in batched notes (at most one a
// minute, moved on with a manual clock); their RESOLVEDs close the storm ticket, the last one answered
// closed (sync answer and status_update) as any RESOLVED that closes a ticket, updated with self-healing
// off; concurrent alerts make exactly one storm ticket (the tickets table's unique open key decides), and
// of concurrent last RESOLVEDs exactly one answers closed.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { type Setup, setupIntegration } from '../../../support/fixtures.js'
import { hooked } from '../../../support/hooked.js'
import { backends, manualClock, startService, type TestService } from '../../../support/service.js'
import { expectSyncSuccess } from '../../../support/shapes.js'

interface SandboxTicket {
  id: string
  summary: string
  description: string
  status: string
  notes: { text: string }[]
}

for (const backend of backends('matrix')) {
  describe(`storm control (${backend})`, () => {
    let svc: TestService
    const clock = manualClock()
    before(async () => {
      // A vendor's webhook receiver on loopback (the webhook strategy's status_updates).
      svc = await startService({ backend, clock, env: { ALLOW_PRIVATE_NETWORK: 'true' } })
    })
    after(() => svc.close())

    /** Moves the clock past the note interval and waits for the jobs then due to have run. */
    const nextMinute = async () => {
      clock.advance(61_000)
      svc.services.queue.handOver()
      await svc.counts()
    }
    const sandbox = async (s: Setup) =>
      (await s.partner('GET', '/api/partner/sandbox/tickets')).body.data as SandboxTicket[]
    const storms = async (s: Setup) => (await sandbox(s)).filter((t) => t.summary.startsWith('Alert storm'))

    async function stormy<S extends Setup = Setup>(cap: number, made?: S): Promise<S> {
      const s = made ?? ((await setupIntegration(svc)) as S)
      const res = await s.partner('PATCH', `/api/partner/integrations/${s.integrationId}`, {
        deduplication: { keyFields: ['accountId', 'productGroup', 'alertType', 'title'] },
        storm: { enabled: true, maxTicketsPerAccount: cap, windowMinutes: 10 },
      })
      assert.equal(res.status, 200, res.text)
      assert.deepEqual(res.body.storm, {
        enabled: true,
        maxTicketsPerAccount: cap,
        maxTicketsPerIntegration: null,
        windowMinutes: 10,
      })
      return s
    }

    test('storm control is off by default and refuses bad settings, changing nothing', async () => {
      const s = await setupIntegration(svc)
      const path = `/api/partner/integrations/${s.integrationId}`
      const shown = await s.partner('GET', path)
      assert.equal(shown.body.storm.enabled, false)
      for (const storm of [{ maxTicketsPerAccount: 0 }, { windowMinutes: 'ten' }, { surprise: true }]) {
        const res = await s.partner('PATCH', path, { storm })
        assert.equal(res.status, 400, res.text)
        assert.equal(res.body.error, 'VALIDATION_FAILED')
      }
      assert.deepEqual((await s.partner('GET', path)).body.storm, shown.body.storm)
      // A partial change keeps what is set.
      await s.partner('PATCH', path, { storm: { enabled: true } })
      const kept = await s.partner('PATCH', path, { storm: { windowMinutes: 30 } })
      assert.deepEqual(kept.body.storm, {
        enabled: true,
        maxTicketsPerAccount: 10,
        maxTicketsPerIntegration: null,
        windowMinutes: 30,
      })
    })

    test('15 OPENs with a cap of 10: 10 tickets and one storm ticket, batched notes, closed once all resolved', async () => {
      const s = await stormy(10)
      const answers = []
      for (let i = 0; i < 15; i++)
        answers.push(await s.sync({ title: `Host ${i} offline` }, { correlationId: `inc-${i}` }))
      assert.deepEqual(
        answers.map((a) => a.status),
        [...Array(10).fill(201), ...Array(5).fill(200)],
      )
      const stormCid = answers[10]!.body.data.correlationID
      assert.ok(stormCid && !stormCid.startsWith('inc-'), 'the storm ticket has a correlationId of its own')
      for (const a of answers.slice(10)) {
        assert.equal(a.body.message, 'updated')
        assert.equal(a.body.data.correlationID, stormCid)
      }
      let all = await sandbox(s)
      assert.equal(all.length, 11)
      let [storm] = await storms(s)
      assert.ok(storm)
      assert.equal(storm.summary, 'Alert storm: alerts from Acme Security for Company acme-001')
      assert.match(storm.description, /Host 10 offline/)
      assert.equal(storm.notes.length, 0, 'no note yet: the first one waits a minute')

      // The next minute: one note lists the four that folded since.
      await nextMinute()
      ;[storm] = await storms(s)
      assert.equal(storm!.notes.length, 1)
      const note = storm!.notes[0]!.text
      assert.match(note, /Alert storm: 5 alerts from Acme Security for Company acme-001 so far, 5 still open/)
      for (const i of [11, 12, 13, 14])
        assert.match(note, new RegExp(`New: Host ${i} offline \\[inc-${i}\\]`))
      assert.doesNotMatch(note, /Host 10 offline/)

      // Within a minute, however many arrive, no note is written; then one carries them all.
      assert.equal((await s.sync({ incidentStatus: 'UPDATE' }, { correlationId: 'inc-11' })).status, 200)
      assert.equal((await s.sync({ title: 'Host 15 offline' }, { correlationId: 'inc-15' })).status, 200)
      await svc.counts()
      assert.equal((await storms(s))[0]!.notes.length, 1)
      await nextMinute()
      ;[storm] = await storms(s)
      assert.equal(storm!.notes.length, 2)
      assert.match(storm!.notes[1]!.text, /Update: .*\[inc-11\][\s\S]*New: Host 15 offline \[inc-15\]/)

      // RESOLVED of every folded incident: lines, then the storm ticket closes (self-healing is on). The
      // last one is answered as a RESOLVED that closes a ticket: 200 closed with the storm ticket's
      // correlationId, event Ticket Closed; the ones before it as today.
      for (const i of [10, 11, 12, 13, 14, 15]) {
        const r = await s.sync({ incidentStatus: 'RESOLVED' }, { correlationId: `inc-${i}` })
        const last = i === 15
        const { messageId } = expectSyncSuccess(r, {
          status: 200,
          message: last ? 'closed' : 'updated',
          correlationId: stormCid,
        })
        const [event] = (await s.partner('GET', `/api/partner/events?correlationId=${stormCid}&limit=1`)).body
          .data
        assert.deepEqual(
          [event?.messageId, event?.event, event?.status],
          [messageId, last ? 'Ticket Closed' : 'Ticket Updated', 'success'],
        )
        if (last) assert.match(event.detail, /last open folded incident/)
      }
      assert.equal((await storms(s))[0]!.status !== 'Closed', true, 'closed by the next note')
      await nextMinute()
      ;[storm] = await storms(s)
      assert.equal(storm!.status, 'Closed')
      assert.match(storm!.notes.at(-1)!.text, /Every folded alert has resolved/)
      const listed = await s.partner('GET', `/api/partner/tickets?search=${stormCid}`)
      assert.equal(listed.body.data[0]?.status, 'closed')
      // The ten ordinary tickets are untouched by the storm.
      all = await sandbox(s)
      assert.equal(all.filter((t) => t.status === 'Closed').length, 1)
      // A later RESOLVED of a folded incident finds the storm ticket closed.
      const late = await s.sync({ incidentStatus: 'RESOLVED' }, { correlationId: 'inc-12' })
      assert.equal(late.status, 409)
      assert.equal(late.body.error, 'TICKET_CLOSED')
    })

    test('without vendor correlationIds: RESOLVED with the storm correlationId resolves by title', async () => {
      const s = await stormy(1)
      assert.equal((await s.sync({ title: 'A' })).status, 201)
      const b = await s.sync({ title: 'B' })
      const c = await s.sync({ title: 'C' })
      const cid = b.body.data.correlationID
      assert.equal(c.body.data.correlationID, cid)
      // A repeat of B folds again, as a repeated line, not a new incident.
      assert.equal((await s.sync({ title: 'B' })).body.data.correlationID, cid)
      for (const title of ['B', 'C'])
        assert.equal(
          (await s.sync({ title, incidentStatus: 'RESOLVED' }, { correlationId: cid })).status,
          200,
        )
      await nextMinute()
      const [storm] = await storms(s)
      assert.equal(storm!.status, 'Closed')
      assert.match(storm!.notes.at(-1)!.text, /Repeated: B[\s\S]*Resolved: B[\s\S]*Resolved: C/)
    })

    test('webhook strategy: the immediate answer and the queued job fold alike, RESOLVEDs close the storm ticket', async () => {
      const s = await stormy(1, await hooked(svc))
      const send = (data: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
        svc.request('POST', '/api/oem-alerts-api/alert', { body: s.body(data, extra) })
      assert.equal((await send({ title: 'W0' })).body.message, 'created')
      await svc.counts()
      const first = await send({ title: 'W1' })
      assert.equal(first.body.message, 'updated', first.text)
      await svc.counts()
      const second = await send({ title: 'W2' })
      await svc.counts()
      assert.equal(second.body.data.correlationId, first.body.data.correlationId, 'the one storm ticket')
      assert.equal((await storms(s)).length, 1)
      const stormCid: string = first.body.data.correlationId
      const resolved: Record<string, string> = {}
      for (const title of ['W1', 'W2']) {
        const r = await send({ title, incidentStatus: 'RESOLVED' }, { correlationId: stormCid })
        // The preview, on what is stored once the one before has run: the last one closes.
        assert.equal(r.body.message, title === 'W2' ? 'closed' : 'updated', r.text)
        assert.equal(r.body.data.correlationId, stormCid)
        resolved[title] = r.body.data.messageId
        await svc.counts()
      }
      // The status_updates in the outbox: W1 as today, W2 as a RESOLVED that closes a ticket.
      const deliveries = await svc.request('GET', '/api/vendor-api/deliveries?limit=200', {
        token: s.vendorToken,
      })
      assert.equal(deliveries.status, 200, deliveries.text)
      for (const [title, event] of [
        ['W1', 'Ticket Updated'],
        ['W2', 'Ticket Closed'],
      ] as const) {
        const update = deliveries.body.data.find(
          (d: { payload: { payload: { messageId: string } } }) =>
            d.payload.payload.messageId === resolved[title],
        )?.payload
        assert.ok(update, `the status_update of ${title}`)
        assert.deepEqual(
          [update.payload.event, update.payload.payload.status, update.payload.correlationId],
          [event, 'success', stormCid],
        )
      }
      await nextMinute()
      assert.equal((await storms(s))[0]!.status, 'Closed')
      await s.receiver.close()
    })

    test('self-healing off: the last RESOLVED of a storm is answered updated and the storm ticket stays open', async () => {
      const s = await stormy(1)
      await s.partner('PATCH', `/api/partner/integrations/${s.integrationId}`, { selfHealing: false })
      assert.equal((await s.sync({ title: 'A' })).status, 201)
      const b = await s.sync({ title: 'B' }, { correlationId: 'off-b' })
      const stormCid = b.body.data.correlationID
      const r = await s.sync({ incidentStatus: 'RESOLVED' }, { correlationId: 'off-b' })
      expectSyncSuccess(r, { status: 200, message: 'updated', correlationId: stormCid })
      await nextMinute()
      assert.notEqual((await storms(s))[0]!.status, 'Closed')
    })

    test('concurrent RESOLVEDs of the last folded incidents: exactly one answers closed', async () => {
      const s = await stormy(1)
      assert.equal((await s.sync({ title: 'first' })).status, 201)
      const ids = Array.from({ length: 6 }, (_, i) => `race-${i}`)
      let stormCid = ''
      for (const id of ids)
        stormCid = (await s.sync({ title: id }, { correlationId: id })).body.data.correlationID
      const answers = await Promise.all(
        ids.map((id) => s.sync({ incidentStatus: 'RESOLVED' }, { correlationId: id })),
      )
      assert.deepEqual(
        answers.map((a) => a.status),
        Array(6).fill(200),
        JSON.stringify(answers.map((a) => a.body)),
      )
      assert.deepEqual(answers.map((a) => a.body.message).sort(), ['closed', ...Array(5).fill('updated')])
      assert.ok(answers.every((a) => a.body.data.correlationID === stormCid))
      await nextMinute()
      assert.equal((await storms(s))[0]!.status, 'Closed')
    })

    test('dry run explains the storm row', async () => {
      const s = await stormy(1)
      await s.sync({ title: 'first' })
      const res = await s.partner('POST', `/api/partner/integrations/${s.integrationId}/dry-run`, {
        data: {
          incidentStatus: 'OPEN',
          title: 'second',
          summary: '',
          accountId: 'acme-001',
          productGroup: 'Endpoint Security',
          alertType: 'Malware Detected',
        },
      })
      assert.equal(res.status, 200, res.text)
      assert.equal(res.body.action, 'fold')
      assert.equal(res.body.row, 'storm')
      assert.match(
        res.body.reason,
        /1 tickets were created for account 'acme-001' in the last 10 minutes \(cap 1\)/,
      )
      assert.match(res.body.reason, /a storm ticket would be created/)
      assert.equal((await sandbox(s)).length, 1, 'the dry run wrote nothing')
    })

    test('concurrent OPENs past the cap make exactly one storm ticket', async () => {
      const s = await stormy(2)
      for (const i of [0, 1]) assert.equal((await s.sync({ title: `T${i}` })).status, 201)
      const results = await Promise.all(Array.from({ length: 12 }, (_, i) => s.sync({ title: `Burst ${i}` })))
      assert.deepEqual(
        results.map((r) => r.status),
        Array(12).fill(200),
        JSON.stringify(results.map((r) => r.body)),
      )
      const cids = new Set(results.map((r) => r.body.data.correlationID))
      assert.equal(cids.size, 1, 'every folded alert names the one storm ticket')
      assert.equal((await storms(s)).length, 1)
      const rows = await svc.services.db.kysely
        .selectFrom('tickets')
        .select('id')
        .where('integration_id', '=', s.integrationId)
        .where('dedup_key', 'like', 'storm:%')
        .execute()
      assert.equal(rows.length, 1)
      const folded = await svc.services.db.kysely
        .selectFrom('storm_alerts')
        .select('id')
        .where('integration_id', '=', s.integrationId)
        .execute()
      assert.equal(folded.length, 12)
    })
  })
}
