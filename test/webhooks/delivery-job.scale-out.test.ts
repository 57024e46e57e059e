// Two processes of one installation (one PostgreSQL database, one Redis prefix) work through one slow
// vendor's backlog together, and the vendor's endpoint still sees at most 4 requests at once
// (docs/webhooks.md#concurrency: the delivery jobs' group slots in Redis), every delivery arriving,
// signed, under its webhook-id.
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { after, before, describe, test } from 'node:test'
import { must } from '../../src/platform/core/result.js'
import { type Receiver, startReceiver } from '../support/receiver.js'
import { backends, startService, type TestService } from '../support/service.js'

const backend = 'postgres+redis'
const env = { ALLOW_PRIVATE_NETWORK: 'true' }

describe('the per-endpoint limit across processes (postgres+redis)', {
  skip: !backends('matrix').includes(backend),
}, () => {
  let first: TestService
  let second: TestService
  let receiver: Receiver
  before(async () => {
    first = await startService({ backend, env })
    second = await startService({ backend, env, shareWith: first })
    receiver = await startReceiver()
  })
  after(async () => {
    // The second process leaves the database and the prefix to the first, which drops them.
    await second?.close()
    await first?.close()
    await receiver?.close()
  })

  test('two workers never have more than 4 requests open to one endpoint; every delivery arrives', async () => {
    receiver.respond(() => ({ status: 204, delayMs: 300 }))
    const { vendor, webhookSecret } = must(
      await first.services.tenants.provisioning.createVendor({
        name: 'Slow Vendor',
        webhookUrl: receiver.url,
      }),
    )
    receiver.setSecret(webhookSecret)
    const ids: string[] = []
    const now = first.services.clock().toISOString()
    // As the outbox queues them: each delivery with its job, in one transaction.
    await first.services.store.transaction(async (tx) => {
      for (let i = 0; i < 40; i++) {
        const id = await tx.deliveries.insert(
          {
            vendorId: vendor.id,
            partnerId: null,
            integrationId: null,
            messageId: randomUUID(),
            eventType: 'status_update',
            body: JSON.stringify({ module: 'alerts', n: i }),
          },
          now,
        )
        assert.ok(id)
        ids.push(id)
      }
      await first.services.webhooks.deliveryJobs.enqueue(
        tx,
        ids.map((id) => ({ id, vendorId: vendor.id })),
      )
    })
    first.services.webhooks.deliveryJobs.handOver()

    const arrived = () => new Set(receiver.accepted().map((r) => r.id))
    await receiver.waitFor(() => ids.every((id) => arrived().has(id)), 'all 40 deliveries', 60_000)
    assert.ok(receiver.maxConcurrent() <= 4, `at most 4 open at once, saw ${receiver.maxConcurrent()}`)
    assert.ok(receiver.maxConcurrent() >= 2, 'deliveries to one endpoint do run in parallel')
    assert.deepEqual([...arrived()].sort(), [...ids].sort())
    assert.deepEqual(receiver.unverified, [])
    // Both processes sent: the limit above held between them, not inside one. (An attempt is counted
    // once recorded, a moment after the receiver answered it.)
    const sent = () => [first, second].map((s) => s.services.webhooks.sender.attempts)
    await receiver.waitFor(
      () => sent()[0]! + sent()[1]! === receiver.requests.length,
      'the attempts recorded',
    )
    assert.ok(
      sent().every((n) => n > 0),
      `attempts per process: ${sent().join(', ')}`,
    )
  })
})
