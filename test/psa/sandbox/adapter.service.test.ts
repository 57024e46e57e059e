// The built-in sandbox PSA is an adapter like any other: the reservation is committed before it is
// called (seen through /metrics' commit counter on a ROLE=api service, where nothing else writes
// meanwhile), its ticket, notes and close are its own rows, a failed call leaves no reservation behind
// and a defect none of its rows.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { type Setup, setupIntegration } from '../../support/fixtures.js'
import { backends, startService, type TestService } from '../../support/service.js'
import { expectSyncFailure, expectSyncSuccess } from '../../support/shapes.js'

for (const backend of backends('matrix')) {
  describe(`the sandbox PSA, an adapter like any other (${backend})`, () => {
    let svc: TestService
    before(async () => {
      svc = await startService({ backend, env: { ROLE: 'api' } })
    })
    after(() => svc.close())

    const counters = async () => {
      const text = (await svc.request('GET', '/metrics')).text
      const read = (name: string) => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1])
      return {
        commits: read('alertbridge_db_commits_total'),
        writes: read('alertbridge_db_batched_writes_total'),
      }
    }

    /** The writes and commits `call` made. */
    async function written(call: () => Promise<unknown>) {
      const before = await counters()
      await call()
      const after = await counters()
      return { commits: after.commits - before.commits, writes: after.writes - before.writes }
    }

    /**
     * An integration already connected (its first alert moved it out of pending), with de-duplication
     * off so that each OPEN is a new ticket.
     */
    async function connected(): Promise<Setup> {
      const s = await setupIntegration(svc)
      const off = await s.partner('PATCH', `/api/partner/integrations/${s.integrationId}`, {
        deduplication: { enabled: false },
      })
      assert.equal(off.status, 200, off.text)
      expectSyncSuccess(await s.sync({ title: 'first' }), { status: 201, message: 'created' })
      return s
    }

    test('create, update and close reach the sandbox; the reservation commits before the call', async () => {
      const s = await connected()
      let correlationId = ''
      const create = await written(async () => {
        const res = expectSyncSuccess(await s.sync({ title: 'disk full' }), {
          status: 201,
          message: 'created',
        })
        correlationId = res.correlationId
      })
      // The reservation, the sandbox's ticket, then the effect with the outcome: apart, as for any PSA.
      assert.ok(create.commits >= 3, `create: ${JSON.stringify(create)}`)
      const update = await written(async () => {
        expectSyncSuccess(await s.sync({ incidentStatus: 'UPDATE' }, { correlationId }), {
          status: 200,
          message: 'updated',
        })
      })
      assert.ok(update.commits >= 2, `update: ${JSON.stringify(update)}`)
      const close = await written(async () => {
        expectSyncSuccess(await s.sync({ incidentStatus: 'RESOLVED' }, { correlationId }), {
          status: 200,
          message: 'closed',
        })
      })
      assert.ok(close.commits >= 3, `close: ${JSON.stringify(close)}`)

      const ticket = await s.partner('GET', `/api/partner/tickets/${correlationId}`)
      assert.equal(ticket.body.status, 'closed')
      const sandbox = await s.partner('GET', '/api/partner/sandbox/tickets')
      const made = sandbox.body.data.find((t: { id: string }) => t.id === ticket.body.psaTicketId)
      assert.ok(made, 'the sandbox has the ticket the outcome names')
      assert.equal(made.status, 'Closed')
      assert.equal(made.notes.length, 2, 'the update and the resolution')
    })

    test('a PSA failure leaves no reservation behind', async () => {
      const s = await connected()
      await s.partner('PUT', '/api/partner/sandbox/fault', {
        mode: 'error',
        operations: ['create'],
        count: 1,
      })
      expectSyncFailure(await s.sync({ title: 'cpu' }), { status: 502, error: 'PSA_ERROR' })
      const tickets = await svc.services.store.tickets.list({ partnerId: s.partnerId, limit: 10 })
      assert.deepEqual(
        tickets.map((t) => t.status),
        ['open'],
        'only the first alert’s ticket: nothing left creating',
      )
      // The fault was used up with the call: the next create goes through.
      expectSyncSuccess(await s.sync({ title: 'cpu' }), { status: 201, message: 'created' })
    })

    test('a defect in the sandbox leaves none of its rows and no reservation; its count is used up', async () => {
      const s = await connected()
      const before = await s.partner('GET', '/api/partner/sandbox/tickets')
      await s.partner('PUT', '/api/partner/sandbox/fault', {
        mode: 'defect',
        operations: ['create'],
        count: 1,
      })
      expectSyncFailure(await s.sync({ title: 'memory' }), { status: 500, error: 'INTERNAL' })
      const after = await s.partner('GET', '/api/partner/sandbox/tickets')
      assert.equal(after.body.data.length, before.body.data.length)
      const tickets = await svc.services.store.tickets.list({ partnerId: s.partnerId, limit: 10 })
      assert.deepEqual(
        tickets.map((t) => t.status),
        ['open'],
      )
      expectSyncSuccess(await s.sync({ title: 'memory' }), { status: 201, message: 'created' })
    })
  })
}
