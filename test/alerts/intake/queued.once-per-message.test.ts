// Each accepted alert yields exactly one event and one status_update, kept by the database (one event
// and one status_update delivery per messageId), not by removing the job in the transaction that
// records the outcome: a job that runs again after its outcome was recorded (its runner died before
// removing it) adopts the recorded outcome and changes nothing, and two attempts of one message racing
// each other record it once.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { factsOf, redactedRequest } from '../../../src/alerts/intake/intake.js'
import { alertJob } from '../../../src/alerts/intake/queued.js'
import type { AlertRequest } from '../../../src/alerts/intake/schema.js'
import { type Hooked, hooked } from '../../support/hooked.js'
import type { Receiver } from '../../support/receiver.js'
import { backends, startService, type TestService } from '../../support/service.js'

const env = { ALLOW_PRIVATE_NETWORK: 'true', PSA_RETRY_SCHEDULE: '0.05,0.05' }

for (const backend of backends('matrix')) {
  describe(`one outcome per message (${backend})`, () => {
    let svc: TestService
    const receivers: Receiver[] = []
    before(async () => {
      svc = await startService({ backend, env })
    })
    after(async () => {
      await svc.close()
      for (const r of receivers) await r.close()
    })
    const make = async () => {
      const h = await hooked(svc)
      receivers.push(h.receiver)
      return h
    }
    const count = async (table: 'events' | 'webhook_deliveries', messageId: string) =>
      Number(
        (
          await svc.services.db.kysely
            .selectFrom(table)
            .where('message_id', '=', messageId)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      )
    const rows = async (table: 'tickets' | 'sandbox_tickets' | 'sandbox_notes') =>
      Number(
        (
          await svc.services.db.kysely
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      )

    /** The alert job the accept path queued for this answer, built again as it was. */
    const jobOf = (s: Hooked, body: Record<string, unknown>, messageId: string, correlationId: string) =>
      alertJob({ psaRetryScheduleMs: [50, 50] }).job({
        id: messageId,
        payload: {
          messageId,
          vendorId: s.vendorId,
          partnerId: s.partnerId,
          integrationId: s.integrationId,
          request: redactedRequest(body as AlertRequest),
          newCorrelationId: correlationId,
        },
      })

    /** A ticket made through the synchronous API, and the executor's job of an UPDATE to it. */
    const updateOfNewTicket = async (messageId: string) => {
      const s = await make()
      const created = await s.sync()
      assert.equal(created.status, 201, created.text)
      const cid: string = created.body.data.correlationID
      const request = redactedRequest(
        s.body({ incidentStatus: 'UPDATE' }, { correlationId: cid }) as unknown as AlertRequest,
      )
      const job = {
        messageId,
        strategy: 'webhook' as const,
        attempt: 1,
        vendorId: s.vendorId,
        partnerId: s.partnerId,
        integrationId: s.integrationId,
        facts: factsOf(request),
        request,
      }
      return { s, cid, job }
    }

    test('a job that runs again after its outcome was recorded changes nothing and sends nothing', async () => {
      const s = await make()
      const body = s.body()
      const res = await svc.request('POST', '/api/oem-alerts-api/alert', { body })
      assert.equal(res.status, 201, res.text)
      const { messageId, correlationId } = res.body.data
      await s.statusUpdate(messageId)
      const before = {
        tickets: await rows('tickets'),
        psa: await rows('sandbox_tickets'),
        notes: await rows('sandbox_notes'),
      }

      // As if the runner had died after recording the outcome and before removing the job: the job is
      // back, claimed once before (so the next claim is its second attempt).
      const job = jobOf(s, body, messageId, correlationId)
      await svc.services.queue.add([{ ...job, runAt: new Date(Date.now() + 60_000) }])
      await svc.services.db.kysely
        .updateTable('jobs')
        .set({ attempts: 1, run_at: new Date().toISOString() })
        .where('id', '=', job.id)
        .execute()
      svc.services.queue.handOver()
      await svc.counts() // waits until the job ran and is gone
      const alertJobs = await svc.services.db.kysely
        .selectFrom('jobs')
        .where('kind', '=', 'alert')
        .select('id')
        .execute()
      assert.deepEqual(alertJobs, [])
      assert.equal(await count('events', messageId), 1)
      assert.equal(await count('webhook_deliveries', messageId), 1)
      assert.deepEqual(
        {
          tickets: await rows('tickets'),
          psa: await rows('sandbox_tickets'),
          notes: await rows('sandbox_notes'),
        },
        before,
        'no ticket, no PSA ticket, no note: the PSA was not called',
      )
      assert.equal(
        s.receiver.accepted('status_update').filter((r) => r.body.payload.messageId === messageId).length,
        1,
      )
    })

    test('two attempts of one message racing each other record it once: one recorded, one adopted', async () => {
      const { s, cid, job } = await updateOfNewTicket(`race-${backend}`)
      const policy = { deferRetryable: false, adoptRecorded: false }
      const results = await Promise.all([
        svc.services.alerts.executor.run(job, policy),
        svc.services.alerts.executor.run(job, policy),
      ])
      assert.deepEqual(results.map((r) => r.kind).sort(), ['adopted', 'recorded'])
      assert.equal(await count('events', job.messageId), 1)
      assert.equal(await count('webhook_deliveries', job.messageId), 1)
      const ticket = await svc.services.store.tickets.findByCorrelation(s.integrationId, cid)
      assert.equal(
        ticket?.occurrenceCount,
        2,
        'one occurrence added: the adopted attempt rolled its own back',
      )
      svc.services.queue.handOver()
      await s.statusUpdate(job.messageId)
    })

    test('a later attempt of a recorded message is adopted before anything is done', async () => {
      const { s, job } = await updateOfNewTicket(`again-${backend}`)
      const first = await svc.services.alerts.executor.run(job, {
        deferRetryable: false,
        adoptRecorded: false,
      })
      assert.equal(first.kind, 'recorded')
      const notes = async () =>
        (await svc.services.psa.sandbox.list(s.partnerId, 10)).flatMap((t) => t.notes).length
      const notesBefore = await notes()
      const again = await svc.services.alerts.executor.run(job, {
        deferRetryable: false,
        adoptRecorded: true,
      })
      assert.equal(again.kind, 'adopted')
      assert.equal(await notes(), notesBefore, 'no second note in the PSA')
    })
  })
}
