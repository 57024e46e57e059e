// Processing in batches (docs/decisions/speed/write-batcher.md), in one process on both databases:
// - a backlog of 300 alerts (200 on PostgreSQL: a few batches of each runner's claims) drains while GET /healthz keeps answering
//   (many times during the drain; how fast is measured by npm run bench, not asserted), and every
//   alert gets exactly one event, one status_update delivery and one sandbox ticket;
// - a batch in which some alerts fail (one whose event cannot be written, a partner whose PSA answers
//   500) records the others and those failures correctly.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { EventRepository } from '../../../src/webhooks/events-repository.js'
import { type Hooked, hooked } from '../../support/hooked.js'
import type { Receiver } from '../../support/receiver.js'
import { backends, type Response, startService, type TestService } from '../../support/service.js'
import { hold } from '../../support/wait.js'

const env = { ALLOW_PRIVATE_NETWORK: 'true', PSA_RETRY_SCHEDULE: '0.05,0.05', WEBHOOK_RETRY_SCHEDULE: '0.05' }
const realInsert = EventRepository.prototype.insert

/** Posts `n` alerts, `parallel` at a time; answers their messageIds in order. */
async function postMany(h: Hooked, n: number, parallel: number, title = (i: number) => `alert ${i}`) {
  const ids: string[] = new Array(n)
  let next = 0
  const one = async () => {
    for (let i = next++; i < n; i = next++) {
      const res: Response = await h.post({ title: title(i) })
      assert.equal(res.status, 201, res.text)
      ids[i] = res.body.data.messageId
    }
  }
  await Promise.all(Array.from({ length: parallel }, one))
  return ids
}

for (const backend of backends('matrix')) {
  describe(`batched processing (${backend})`, () => {
    let svc: TestService
    const receivers: Receiver[] = []
    before(async () => {
      svc = await startService({ backend, env })
    })
    after(async () => {
      EventRepository.prototype.insert = realInsert
      await svc.close()
      for (const r of receivers) await r.close()
    })

    const make = async () => {
      const h = await hooked(svc)
      receivers.push(h.receiver)
      const off = await h.partner('PATCH', `/api/partner/integrations/${h.integrationId}`, {
        deduplication: { enabled: false },
      })
      assert.equal(off.status, 200, off.text)
      return h
    }
    const countBy = async (table: 'events' | 'webhook_deliveries', ids: string[]) => {
      const rows = await svc.services.store.kysely
        .selectFrom(table)
        .select(['message_id'])
        .where('message_id', 'in', ids)
        .execute()
      const counts = new Map<string, number>()
      for (const r of rows) counts.set(r.message_id!, (counts.get(r.message_id!) ?? 0) + 1)
      return counts
    }
    const sandboxTickets = async (partnerId: string) =>
      Number(
        (
          await svc.services.store.kysely
            .selectFrom('sandbox_tickets')
            .select((eb) => eb.fn.countAll<number | string>().as('n'))
            .where('partner_id', '=', partnerId)
            .executeTakeFirstOrThrow()
        ).n,
      )

    test('a drain of hundreds keeps /healthz answering; one event, one status_update, one ticket each', async (t) => {
      const h = await make()
      const n = backend === 'sqlite' ? 300 : 200
      let worstMs = 0
      /** /healthz answers that came back while status_updates were still arriving. */
      let duringDrain = 0
      let polling = true
      const poll = (async () => {
        while (polling) {
          const started = performance.now()
          const res = await fetch(`${svc.url}/healthz`)
          await res.arrayBuffer()
          assert.equal(res.status, 200)
          worstMs = Math.max(worstMs, performance.now() - started)
          if (polling) duringDrain++
          await hold(25, 'the pace of the /healthz probes')
        }
      })()
      try {
        const ids = await postMany(h, n, 32)
        const updates = () => h.receiver.accepted('status_update')
        await h.receiver.waitFor(() => updates().length >= n, `${n} status_updates`, 240_000)
        polling = false
        await poll
        // Answered all along, not once the drain was over: many answers came back while it ran. How
        // fast is the bench's to say (npm run bench: worst /healthz while draining), not a test's.
        assert.ok(duringDrain >= 10, `/healthz answered ${duringDrain} times during the drain`)
        t.diagnostic(
          `${duringDrain} /healthz answers during the drain; the slowest ${Math.round(worstMs)} ms`,
        )

        const byMessage = new Map<string, string[]>()
        for (const r of updates()) {
          const list = byMessage.get(r.body.payload.messageId) ?? []
          list.push(r.id)
          byMessage.set(r.body.payload.messageId, list)
        }
        assert.equal(byMessage.size, n)
        for (const id of ids) assert.equal(new Set(byMessage.get(id)).size, 1, `one webhook-id for ${id}`)
        assert.ok(
          updates().every((r) => r.body.payload.event === 'Ticket Created'),
          'every alert made its ticket',
        )
        const events = await countBy('events', ids)
        const deliveries = await countBy('webhook_deliveries', ids)
        for (const id of ids) {
          assert.equal(events.get(id), 1, `one event for ${id}`)
          assert.equal(deliveries.get(id), 1, `one status_update delivery for ${id}`)
        }
        assert.equal(await sandboxTickets(h.partnerId), n, 'one sandbox ticket per alert')
        assert.deepEqual(h.receiver.unverified, [])
      } finally {
        polling = false
        await poll.catch(() => {})
      }
    })

    test('a batch with failing alerts records the others, and the failures, correctly', async () => {
      const good = await make()
      const broken = await make()
      // The broken partner's PSA answers 500 to every create: its alerts end as failures after retries.
      const fault = await broken.partner('PUT', '/api/partner/sandbox/fault', {
        mode: 'error',
        operations: ['create'],
      })
      assert.equal(fault.status, 200, fault.text)
      // One good alert's event cannot be written the first time: a bad row in the middle of a batch.
      let refused = 0
      EventRepository.prototype.insert = async function (this: EventRepository, e) {
        if (
          e.integrationId === good.integrationId &&
          JSON.stringify(e.request).includes('"alert 7"') &&
          refused === 0
        ) {
          refused++
          throw new Error('injected: this row cannot be written')
        }
        return realInsert.call(this, e)
      }
      try {
        const [goodIds, brokenIds] = await Promise.all([postMany(good, 20, 20), postMany(broken, 10, 10)])
        await good.receiver.waitFor(
          () => good.receiver.accepted('status_update').length >= 20,
          'the good partner',
          60_000,
        )
        await broken.receiver.waitFor(
          () => broken.receiver.accepted('status_update').length >= 10,
          'the broken partner',
          60_000,
        )
        assert.equal(refused, 1, 'the injected failure happened')
        const events = new Map(
          good.receiver
            .accepted('status_update')
            .map((r) => [r.body.payload.messageId, r.body.payload.event]),
        )
        for (const id of goodIds) assert.equal(events.get(id), 'Ticket Created')
        const failed = new Map(
          broken.receiver
            .accepted('status_update')
            .map((r) => [r.body.payload.messageId, r.body.payload.event]),
        )
        for (const id of brokenIds) assert.equal(failed.get(id), 'Failed To Create Ticket')
        for (const [ids, h] of [
          [goodIds, good],
          [brokenIds, broken],
        ] as const) {
          const counts = await countBy('events', [...ids])
          for (const id of ids) assert.equal(counts.get(id), 1, `one event for ${id}`)
          assert.equal(new Set(h.receiver.accepted('status_update').map((r) => r.id)).size, ids.length)
        }
        // The refused row's alert was made in the PSA once: its retry recorded the journaled effect.
        assert.equal(await sandboxTickets(good.partnerId), 20)
        assert.equal(await sandboxTickets(broken.partnerId), 0)
      } finally {
        EventRepository.prototype.insert = realInsert
        await broken.partner('DELETE', '/api/partner/sandbox/fault')
      }
    })
  })
}

describe('the concurrency group of a queued alert', () => {
  let svc: TestService
  const receivers: Receiver[] = []
  before(async () => {
    // No worker: the jobs stay queued to be looked at.
    svc = await startService({ env: { ...env, ROLE: 'api' } })
  })
  after(async () => {
    await svc.close()
    for (const r of receivers) await r.close()
  })

  const groupOf = async (messageId: string) =>
    (
      await svc.services.store.kysely
        .selectFrom('jobs')
        .select('group_key')
        .where('id', '=', messageId)
        .executeTakeFirstOrThrow()
    ).group_key

  test('a sandbox partner has none (never slow); a partner of a remote PSA is capped by its id', async () => {
    const sandbox = await hooked(svc)
    receivers.push(sandbox.receiver)
    const res: Response = await sandbox.post()
    assert.equal(res.status, 201, res.text)
    assert.equal(await groupOf(res.body.data.messageId), null)

    // The same partner moved to ConnectWise: from the next alert on, its alerts are grouped again.
    const moved = await svc.request('PATCH', `/api/admin/partners/${sandbox.partnerId}`, {
      token: svc.adminToken,
      body: {
        psa: {
          kind: 'connectwise',
          site: '127.0.0.1:1',
          companyId: 'acme',
          publicKey: 'pub',
          privateKey: 'priv',
          clientId: '00000000-0000-0000-0000-000000000000',
        },
      },
    })
    assert.equal(moved.status, 200, moved.text)
    const next: Response = await sandbox.post({ title: 'after the move' })
    assert.equal(next.status, 201, next.text)
    assert.equal(await groupOf(next.body.data.messageId), `alert:${sandbox.partnerId}`)
  })
})
