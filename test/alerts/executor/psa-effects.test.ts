// What the PSA did is never forgotten (docs/decision-table.md#psa-effect-first): a fault injected into the
// recording step after the PSA created a ticket, added a note or closed one leaves the ticket's row and the
// effect written down, and the next attempt of the same call (the vendor sending it again, or the webhook
// job running again) adopts the effect instead of asking the PSA a second time.
import assert from 'node:assert/strict'
import { after, afterEach, before, describe, test } from 'node:test'
import { EventRepository } from '../../../src/webhooks/events-repository.js'
import { type Setup, setupIntegration } from '../../support/fixtures.js'
import { type Hooked, hooked } from '../../support/hooked.js'
import type { Receiver } from '../../support/receiver.js'
import { backends, type Response, startService, type TestService } from '../../support/service.js'
import { expectSyncFailure, expectSyncSuccess } from '../../support/shapes.js'

type Insert = EventRepository['insert']
const realInsert = EventRepository.prototype.insert

/** Makes recording an event fail: every time, the next `times` times, or when `when` says so. */
function breakRecording(o: { times?: number; when?: (e: Parameters<Insert>[0]) => boolean } = {}) {
  let left = o.times ?? Number.POSITIVE_INFINITY
  EventRepository.prototype.insert = async function (this: EventRepository, e) {
    if (left > 0 && (o.when?.(e) ?? true)) {
      left--
      throw new Error('injected: the event could not be written')
    }
    return realInsert.call(this, e)
  }
}

function mendRecording(): void {
  EventRepository.prototype.insert = realInsert
}

const env = { ALLOW_PRIVATE_NETWORK: 'true', PSA_RETRY_SCHEDULE: '0.05,0.05,0.05' }

for (const backend of backends('matrix')) {
  describe(`a PSA effect outlives a failed recording (${backend})`, () => {
    let svc: TestService
    const receivers: Receiver[] = []
    before(async () => {
      svc = await startService({ backend, env })
    })
    afterEach(mendRecording)
    after(async () => {
      mendRecording()
      await svc.close()
      for (const r of receivers) await r.close()
    })

    const db = () => svc.services.db.kysely
    const psaTickets = async (s: Setup) =>
      db().selectFrom('sandbox_tickets').selectAll().where('partner_id', '=', s.partnerId).execute()
    const psaNotes = async (s: Setup) =>
      (await db().selectFrom('sandbox_notes').select('id').where('partner_id', '=', s.partnerId).execute())
        .length
    const ticketRow = (s: Setup, correlationId: string) =>
      db()
        .selectFrom('tickets')
        .selectAll()
        .where('integration_id', '=', s.integrationId)
        .where('correlation_id', '=', correlationId)
        .executeTakeFirst()
    /** An integration without de-duplication: every OPEN makes a ticket. */
    const noDedup = async () => {
      const s = await setupIntegration(svc)
      const res = await s.partner('PATCH', `/api/partner/integrations/${s.integrationId}`, {
        deduplication: { enabled: false },
      })
      assert.equal(res.status, 200, res.text)
      return s
    }
    const effects = () => db().selectFrom('psa_effects').selectAll().execute()
    const eventsOf = (messageId: string) =>
      db().selectFrom('events').selectAll().where('message_id', '=', messageId).execute()

    test('create: the 500 names the ticket, its row is there, and the same call again adopts it', async () => {
      const s = await setupIntegration(svc)
      breakRecording()
      const failed = await s.sync()
      const { messageId } = expectSyncFailure(failed, { status: 500, error: 'INTERNAL' })
      const correlationId = failed.body.data.correlationID
      assert.equal(typeof correlationId, 'string', 'the answer names the ticket that was made')
      mendRecording()

      const [made] = await psaTickets(s)
      assert.equal((await psaTickets(s)).length, 1)
      const row = await ticketRow(s, correlationId)
      assert.equal(row?.status, 'open', 'the ticket has its row')
      assert.equal(row?.psa_ticket_id, made!.id)
      assert.equal((await eventsOf(messageId)).length, 0)
      const [effect] = await effects()
      assert.equal(effect?.message_id, messageId)
      assert.notEqual(effect?.orphaned_at, null)
      assert.match(await (await fetch(`${svc.url}/metrics`)).text(), /alertbridge_psa_effects_unrecorded 1/)

      const again = expectSyncSuccess(await s.sync(), { status: 201, message: 'created', correlationId })
      assert.equal((await psaTickets(s)).length, 1, 'no second ticket in the PSA')
      assert.deepEqual(await effects(), [])
      const [event] = await eventsOf(again.messageId)
      assert.equal(event?.event, 'Ticket Created')
      assert.equal(event?.correlation_id, correlationId)

      // Once adopted, the same call is a new alert again: with de-duplication it appends, never re-creates.
      expectSyncSuccess(await s.sync(), { status: 200, message: 'updated' })
      assert.equal((await psaTickets(s)).length, 1)
    })

    test('create: sending it again with the correlationId the 500 gave adopts the ticket too', async () => {
      const s = await noDedup()
      breakRecording()
      const failed = await s.sync({ title: 'Disk full' })
      expectSyncFailure(failed, { status: 500, error: 'INTERNAL' })
      const correlationId = failed.body.data.correlationID
      mendRecording()
      expectSyncSuccess(await s.sync({ title: 'Disk full' }, { correlationId }), {
        status: 201,
        message: 'created',
        correlationId,
      })
      assert.equal((await psaTickets(s)).length, 1)
      assert.deepEqual(await effects(), [])
    })

    test('create: a vendor retrying with its own correlationId adopts, not duplicates', async () => {
      const s = await noDedup()
      breakRecording()
      expectSyncFailure(await s.sync({}, { correlationId: 'vendor-7' }), {
        status: 500,
        error: 'INTERNAL',
        correlationId: 'vendor-7',
      })
      mendRecording()
      assert.equal((await ticketRow(s, 'vendor-7'))?.status, 'open', 'no PSA ticket without a row')
      expectSyncSuccess(await s.sync({}, { correlationId: 'vendor-7' }), {
        status: 201,
        message: 'created',
        correlationId: 'vendor-7',
      })
      assert.equal((await psaTickets(s)).length, 1)
    })

    test('append: the note is written down and the same UPDATE again does not add it twice', async () => {
      const s = await setupIntegration(svc)
      const { correlationId } = expectSyncSuccess(await s.sync(), { status: 201, message: 'created' })
      const notesBefore = await psaNotes(s)
      const update = { incidentStatus: 'UPDATE' as const, summary: 'still failing' }
      breakRecording()
      expectSyncFailure(await s.sync(update, { correlationId }), {
        status: 500,
        error: 'INTERNAL',
        correlationId,
      })
      mendRecording()
      assert.equal(await psaNotes(s), notesBefore + 1)
      assert.equal((await ticketRow(s, correlationId))?.occurrence_count, 2, 'the occurrence is counted')

      expectSyncSuccess(await s.sync(update, { correlationId }), { status: 200, message: 'updated' })
      assert.equal(await psaNotes(s), notesBefore + 1, 'the note is not added again')
      assert.deepEqual(await effects(), [])
      // Another UPDATE with other text is a new note.
      expectSyncSuccess(await s.sync({ ...update, summary: 'worse' }, { correlationId }), {
        status: 200,
        message: 'updated',
      })
      assert.equal(await psaNotes(s), notesBefore + 2)
    })

    test('close: the ticket is closed here as in the PSA, and RESOLVED again answers closed, not 409', async () => {
      const s = await setupIntegration(svc)
      const { correlationId } = expectSyncSuccess(await s.sync(), { status: 201, message: 'created' })
      breakRecording()
      expectSyncFailure(await s.sync({ incidentStatus: 'RESOLVED' }, { correlationId }), {
        status: 500,
        error: 'INTERNAL',
        correlationId,
      })
      mendRecording()
      const [psaTicket] = await psaTickets(s)
      assert.notEqual(psaTicket?.closed_at, null, 'closed in the PSA')
      assert.equal((await ticketRow(s, correlationId))?.status, 'closed', 'and here')
      const notes = await psaNotes(s)

      expectSyncSuccess(await s.sync({ incidentStatus: 'RESOLVED' }, { correlationId }), {
        status: 200,
        message: 'closed',
        correlationId,
      })
      assert.equal(await psaNotes(s), notes, 'no second resolution note')
      assert.deepEqual(await effects(), [])
    })

    test('a request that cannot be stored still gets its outcome recorded, without the request', async () => {
      const s = await setupIntegration(svc)
      // Fails for the request as received only, as a request the database cannot hold would.
      breakRecording({ when: (e) => JSON.stringify(e.request).includes('unstorable') })
      const ok = expectSyncSuccess(await s.sync({ title: 'unstorable' }), { status: 201, message: 'created' })
      mendRecording()
      const [event] = await eventsOf(ok.messageId)
      assert.equal(event?.event, 'Ticket Created')
      assert.match(JSON.stringify(event?.request), /could not store this request/)
      assert.equal((await psaTickets(s)).length, 1)
      assert.deepEqual(await effects(), [])
    })

    test('webhook strategy: the job runs again and reports the ticket its first attempt made', async () => {
      const h: Hooked = await hooked(svc)
      receivers.push(h.receiver)
      await h.partner('PATCH', `/api/partner/integrations/${h.integrationId}`, {
        deduplication: { enabled: false },
      })
      // The first attempt's recording and both of its second tries fail.
      breakRecording({ times: 3 })
      const res: Response = await h.post({ title: 'backup failed' })
      assert.equal(res.status, 201, res.text)
      const update = await h.statusUpdate(res.body.data.messageId)
      assert.equal(update.payload.event, 'Ticket Created')
      assert.equal(update.payload.payload.status, 'success')
      const events = await eventsOf(res.body.data.messageId)
      assert.equal(events.length, 1)
      assert.equal(events[0]?.event, 'Ticket Created')
      assert.equal((await psaTickets(h)).length, 1, 'one ticket in the PSA')
      assert.deepEqual(await effects(), [])
    })
  })
}
