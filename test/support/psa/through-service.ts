// A real PSA through the service's HTTP API, on both strategies, against a PSA simulator: a partner
// connects it (PUT /api/partner/psa, tested on save), reads its look-ups, and alerts create, append to
// and close tickets in it; a PSA failure is a 502 whose detail carries the PSA's own text on the sync
// path, and is retried in the webhook strategy until the PSA answers. Each PSA's test file gives its
// specifics (fixture); the scenarios are the same.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { hooked } from '../hooked.js'
import type { Receiver } from '../receiver.js'
import { type Backend, backends, startService, type TestService } from '../service.js'
import { loseNextAnswer, type OpCalls, type StartedSim } from '../sims/harness.js'

export interface ServiceFixture<T extends StartedSim<unknown>> {
  name: string
  start(): Promise<T>
  /** The partner's PSA settings for a simulator at `url`. */
  settings(url: string): Record<string, unknown> & { kind: string }
  /** Settings the PSA refuses (wrong secret). */
  badSettings(url: string): Record<string, unknown> & { kind: string }
  /** The PSA company the account maps to, and the rule's board (queue). */
  companyId: string
  board: string
  tickets(sim: T): number
  /** The PSA ticket, by its id as alertbridge stores it: its notes' texts, its title as the PSA holds it. */
  ticket(sim: T, id: string): { closed: boolean; notes: string[]; summary: string; ref: string | null }
  /** The simulator's calls per ticket operation, whose answers a test loses. */
  calls: OpCalls
  /** Environment of the service beside the suite's own (a PSA's limits, say). */
  env?: Record<string, string>
  /** Text the PSA puts in its error body when the fault is a 500. */
  failureText: RegExp
}

type Answer = { status: number; text: string; body: any }

const env = {
  ALLOW_PRIVATE_NETWORK: 'true',
  PSA_RETRY_SCHEDULE: '0.2,0.2,0.2',
  PSA_TIMEOUT_MS: '3000',
  SNAPSHOT_COALESCE_MS: '400',
}

/**
 * The scenarios for one PSA, on SQLite (`backends()`): what reaches the PSA does not depend on the
 * service's database. One PSA's file passes `backends('matrix')`, so that the path through the
 * service to a PSA is proven on PostgreSQL and PostgreSQL + Redis too (test/psa/autotask/adapter.service.test.ts);
 * the kinds added after the first five pass `backends('databases')` (SQLite and PostgreSQL).
 */
export function throughService<T extends StartedSim<unknown>>(
  f: ServiceFixture<T>,
  on: Backend[] = backends(),
): void {
  for (const backend of on) {
    describe(`${f.name} through the service (${backend})`, () => {
      let svc: TestService
      let sim: T
      const receivers: Receiver[] = []
      before(async () => {
        sim = await f.start()
        svc = await startService({ backend, env: { ...env, ...f.env } })
      })
      after(async () => {
        await svc.close()
        await sim.close()
        for (const r of receivers) await r.close()
      })
      const setup = async () => {
        const s = await hooked(svc, {
          psa: f.settings(sim.url),
          psaCompanyId: f.companyId,
          rule: { productGroup: 'Endpoint Security', ticket: { board: f.board } },
        })
        receivers.push(s.receiver)
        return s
      }
      const psaTicketId = async (integrationId: string, cid: string) =>
        (await svc.services.store.tickets.findByCorrelation(integrationId, cid))?.psaTicketId ?? ''

      test('connect: saved settings are tested; bad ones are saved with a warning; look-ups come from the PSA', async () => {
        const s = await setup()
        const good = await s.partner('POST', '/api/partner/psa/test')
        assert.equal(good.status, 200, good.text)
        assert.equal(good.body.ok, true, good.body.detail)
        const bad = await s.partner('PUT', '/api/partner/psa', f.badSettings(sim.url))
        assert.equal(bad.status, 200, bad.text)
        assert.match(bad.body.warning, /./)
        assert.equal(JSON.stringify(bad.body).includes('wrong-secret'), false, 'the secret is masked')
        const tested = await s.partner('POST', '/api/partner/psa/test')
        assert.deepEqual([tested.body.ok, tested.body.detail], [false, bad.body.warning])
        const byOperator = await svc.request('PATCH', `/api/admin/partners/${s.partnerId}`, {
          token: svc.adminToken,
          body: { psa: f.badSettings(sim.url) },
        })
        assert.deepEqual([byOperator.status, byOperator.body.warning], [200, bad.body.warning])
        await s.partner('PUT', '/api/partner/psa', f.settings(sim.url))
        const first = await s.partner('GET', '/api/partner/psa/companies?limit=1000')
        assert.equal(first.status, 200, first.text)
        assert.equal(first.body.data.length, 1000)
        assert.ok(first.body.nextCursor, 'more than one page of companies')
        const rest = await s.partner(
          'GET',
          `/api/partner/psa/companies?limit=1000&cursor=${first.body.nextCursor}`,
        )
        assert.ok(rest.body.data.length > 0)
        const boards = await s.partner('GET', `/api/partner/psa/boards?search=${encodeURIComponent(f.board)}`)
        assert.ok(boards.body.data.some((b: { name: string }) => b.name === f.board))
        const statuses = await s.partner(
          'GET',
          `/api/partner/psa/statuses?board=${encodeURIComponent(f.board)}`,
        )
        assert.ok(statuses.body.data.some((x: { closed?: boolean }) => x.closed === true))
      })

      test('sync: created, updated, closed in the PSA, then already closed (409)', async () => {
        const s = await setup()
        const before = f.tickets(sim)
        const created = await s.sync({ title: `Ransomware ${'on many hosts '.repeat(14)}` })
        assert.equal(created.status, 201, created.text)
        const cid: string = created.body.data.correlationID
        const id = await psaTicketId(s.integrationId, cid)
        assert.equal(f.tickets(sim), before + 1)
        const t = f.ticket(sim, id)
        assert.equal(t.ref, cid, 'the correlationId is in the PSA ticket')
        // The partner's ticket page links into the PSA where the PSA has ticket URLs.
        const page = await s.partner('GET', `/api/partner/tickets/${cid}`)
        assert.equal(page.status, 200, page.text)
        const url: string | null = page.body.psaTicketUrl
        assert.ok(
          url === null || (url.startsWith('http') && url.includes(encodeURIComponent(id))),
          String(url),
        )
        const updated = await s.sync({ incidentStatus: 'UPDATE' }, { correlationId: cid })
        assert.equal(updated.status, 200, updated.text)
        assert.equal(f.ticket(sim, id).notes.length, t.notes.length + 1)
        const closed = await s.sync({ incidentStatus: 'RESOLVED' }, { correlationId: cid })
        assert.equal(closed.status, 200, closed.text)
        assert.equal(closed.body.statusCode, '200')
        assert.equal(f.ticket(sim, id).closed, true)
        const again = await s.sync({ incidentStatus: 'RESOLVED' }, { correlationId: cid })
        assert.equal(again.status, 409, again.text)
        const events = await s.partner('GET', `/api/partner/events?correlationId=${cid}`)
        assert.deepEqual(
          events.body.data.map((e: { event: string; status: string }) => `${e.event}/${e.status}`).reverse(),
          [
            'Ticket Created/success',
            'Ticket Updated/success',
            'Ticket Closed/success',
            'Ticket Already Closed/failed',
          ],
        )
      })

      test("sync: a PSA failure is a 502 whose detail carries the PSA's own text", async () => {
        const s = await setup()
        sim.faults.set({ fail: { status: 500, count: 1, ...f.calls.create } })
        const r = await s.sync()
        assert.equal(r.status, 502, r.text)
        assert.equal(r.body.error, 'PSA_ERROR')
        assert.match(r.body.detail, f.failureText)
        const [event] = (await s.partner('GET', '/api/partner/events?status=failed')).body.data
        assert.deepEqual([event.event, event.httpStatus], ['Failed To Create Ticket', 502])
        assert.match(event.detail, f.failureText)
        sim.faults.clear()
      })

      test('webhook: one status_update per alert; a 5xx is retried until the ticket is made', async () => {
        const s = await setup()
        const before = f.tickets(sim)
        sim.faults.set({ fail: { status: 503, count: 2, ...f.calls.create } })
        const res: Answer = await s.post()
        assert.equal(res.status, 201, res.text)
        const update = await s.statusUpdate(res.body.data.messageId)
        assert.equal(update.payload.event, 'Ticket Created')
        assert.equal(f.tickets(sim), before + 1, 'one ticket after the retries')
        const cid = res.body.data.correlationId
        const id = await psaTicketId(s.integrationId, cid)
        const notes = f.ticket(sim, id).notes.length
        const updating: Answer = await s.post({ incidentStatus: 'UPDATE' }, { correlationId: cid })
        assert.equal((await s.statusUpdate(updating.body.data.messageId)).payload.event, 'Ticket Updated')
        assert.equal(f.ticket(sim, id).notes.length, notes + 1, 'the update is a note in the PSA')
        const closing: Answer = await s.post({ incidentStatus: 'RESOLVED' }, { correlationId: cid })
        const closedEvent = await s.statusUpdate(closing.body.data.messageId)
        assert.equal(closedEvent.payload.event, 'Ticket Closed')
        assert.equal(f.ticket(sim, await psaTicketId(s.integrationId, cid)).closed, true)
        sim.faults.clear()
      })

      const withMessage = (notes: string[], messageId: string) =>
        notes.filter((n) => n.includes(messageId)).length

      test('sync: lost answers make one ticket, one note, and a close with one resolution note', async () => {
        const s = await setup()
        const before = f.tickets(sim)
        loseNextAnswer(sim, f.calls, 'create')
        const created = await s.sync()
        assert.equal(created.status, 201, created.text)
        assert.equal(f.tickets(sim), before + 1, 'one ticket')
        const cid: string = created.body.data.correlationID
        const id = await psaTicketId(s.integrationId, cid)
        loseNextAnswer(sim, f.calls, 'note')
        const updated = await s.sync({ incidentStatus: 'UPDATE' }, { correlationId: cid })
        assert.equal(updated.status, 200, updated.text)
        assert.equal(withMessage(f.ticket(sim, id).notes, updated.body.data.messageId), 1, 'one note')
        loseNextAnswer(sim, f.calls, 'close-note')
        const closed = await s.sync({ incidentStatus: 'RESOLVED' }, { correlationId: cid })
        assert.equal(closed.status, 200, closed.text)
        const t = f.ticket(sim, id)
        assert.equal(t.closed, true)
        assert.equal(withMessage(t.notes, closed.body.data.messageId), 1, 'one resolution note')
        // The status change's answer lost instead.
        const second = await s.sync()
        const cid2: string = second.body.data.correlationID
        loseNextAnswer(sim, f.calls, 'close')
        const closing = await s.sync({ incidentStatus: 'RESOLVED' }, { correlationId: cid2 })
        assert.equal(closing.status, 200, closing.text)
        const t2 = f.ticket(sim, await psaTicketId(s.integrationId, cid2))
        assert.equal(t2.closed, true)
        assert.equal(withMessage(t2.notes, closing.body.data.messageId), 1, 'one resolution note')
        sim.faults.clear()
      })

      test('webhook: lost answers make one ticket, one note, and a close with one resolution note', async () => {
        const s = await setup()
        const before = f.tickets(sim)
        loseNextAnswer(sim, f.calls, 'create')
        const res: Answer = await s.post()
        assert.equal((await s.statusUpdate(res.body.data.messageId)).payload.event, 'Ticket Created')
        assert.equal(f.tickets(sim), before + 1, 'one ticket')
        const cid = res.body.data.correlationId
        const id = await psaTicketId(s.integrationId, cid)
        loseNextAnswer(sim, f.calls, 'note')
        const updating: Answer = await s.post({ incidentStatus: 'UPDATE' }, { correlationId: cid })
        assert.equal((await s.statusUpdate(updating.body.data.messageId)).payload.event, 'Ticket Updated')
        assert.equal(withMessage(f.ticket(sim, id).notes, updating.body.data.messageId), 1, 'one note')
        for (const op of ['close-note', 'close'] as const) {
          const opened: Answer = await s.post()
          await s.statusUpdate(opened.body.data.messageId)
          const c = opened.body.data.correlationId
          loseNextAnswer(sim, f.calls, op)
          const closing: Answer = await s.post({ incidentStatus: 'RESOLVED' }, { correlationId: c })
          assert.equal((await s.statusUpdate(closing.body.data.messageId)).payload.event, 'Ticket Closed', op)
          const t = f.ticket(sim, await psaTicketId(s.integrationId, c))
          assert.equal(t.closed, true, op)
          assert.equal(withMessage(t.notes, closing.body.data.messageId), 1, `${op}: one resolution note`)
        }
        sim.faults.clear()
      })

      test('a 300-character title and a 100 KB summary reach the PSA fitted, on both strategies', async () => {
        const s = await setup()
        const title = `Backup job failed on ${'the file server of the branch office '.repeat(9)}`.slice(
          0,
          300,
        )
        const summary = 'Job log line with details. '.repeat(3800)
        const sync = await s.sync({ title, summary })
        assert.equal(sync.status, 201, sync.text)
        const t = f.ticket(sim, await psaTicketId(s.integrationId, sync.body.data.correlationID))
        assert.ok(t.summary.length < title.length && t.summary.endsWith('…'), t.summary)
        // Closed, so that the next alert opens a ticket of its own (not a repeat of this one).
        const closed = await s.sync(
          { incidentStatus: 'RESOLVED' },
          { correlationId: sync.body.data.correlationID },
        )
        assert.equal(closed.status, 200, closed.text)
        const queued: Answer = await s.post({ title, summary })
        assert.equal(queued.status, 201, queued.text)
        assert.equal((await s.statusUpdate(queued.body.data.messageId)).payload.event, 'Ticket Created')
        const cid = queued.body.data.correlationId
        const updated: Answer = await s.post(
          { title, summary, incidentStatus: 'UPDATE' },
          { correlationId: cid },
        )
        assert.equal((await s.statusUpdate(updated.body.data.messageId)).payload.event, 'Ticket Updated')
      })

      test('throttling is not failure: 429 with Retry-After is waited, on both strategies', async () => {
        const s = await setup()
        // More 429s than the retry schedule has attempts (PSA_RETRY_SCHEDULE has three).
        sim.faults.set({ fail: { status: 429, count: 2, retryAfterSeconds: 1, match: f.calls.create.match } })
        const started = Date.now()
        const sync = await s.sync()
        assert.equal(sync.status, 201, sync.text)
        assert.ok(Date.now() - started >= 1900, 'it waited what the PSA asked, twice')
        const closed = await s.sync(
          { incidentStatus: 'RESOLVED' },
          { correlationId: sync.body.data.correlationID },
        )
        assert.equal(closed.status, 200, closed.text)
        sim.faults.set({ fail: { status: 429, count: 5, retryAfterSeconds: 1, match: f.calls.create.match } })
        const queued: Answer = await s.post()
        const event = await s.statusUpdate(queued.body.data.messageId)
        assert.equal(event.payload.event, 'Ticket Created', 'the waits spent none of the attempts')
        sim.faults.clear()
      })

      test('sync: a Retry-After longer than the request can wait answers 502 with Retry-After', async () => {
        const s = await setup()
        const before = f.tickets(sim)
        sim.faults.set({
          fail: { status: 429, count: 1, retryAfterSeconds: 12, match: f.calls.create.match },
        })
        const r = await s.sync()
        assert.equal(r.status, 502, r.text)
        assert.equal(r.body.error, 'PSA_ERROR')
        assert.ok(Number(r.headers.get('retry-after')) >= 11, `Retry-After: ${r.headers.get('retry-after')}`)
        assert.equal(f.tickets(sim), before)
        sim.faults.clear()
      })
    })
  }
}
