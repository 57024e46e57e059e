// Delivered and dead deliveries are kept 30 days and then pruned (DESIGN §4); pending ones never are.
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { startService, type TestService } from '../helpers/service.js'

let svc: TestService
before(async () => {
  svc = await startService({ env: { ROLE: 'api' } })
})
after(() => svc.close())

test('pruning removes finished deliveries older than the cut-off, with their attempts, and keeps the rest', async () => {
  const { store } = svc.services
  const { vendor } = await svc.services.provisioning.createVendor({ name: 'Old Vendor' })
  const old = '2026-01-01T00:00:00.000Z'
  const recent = '2026-11-01T00:00:00.000Z'
  const make = async (status: 'pending' | 'delivered' | 'dead', at: string) => {
    const id = await store.deliveries.insert(
      {
        vendorId: vendor.id,
        partnerId: null,
        integrationId: null,
        messageId: null,
        eventType: 'status_update',
        body: '{}',
      },
      at,
    )
    assert.ok(id)
    await store.kysely
      .updateTable('webhook_deliveries')
      .set({ status, updated_at: at })
      .where('id', '=', id)
      .execute()
    await store.kysely
      .insertInto('webhook_attempts')
      .values({
        id: `a-${id}`,
        delivery_id: id,
        number: 1,
        trigger: 'scheduled',
        url: 'https://x',
        started_at: at,
        duration_ms: 1,
        status_code: 500,
        error: null,
        response_body: null,
        next_attempt_at: null,
      })
      .execute()
    return id
  }
  const oldDelivered = await make('delivered', old)
  const oldDead = await make('dead', old)
  const oldPending = await make('pending', old)
  const recentDead = await make('dead', recent)

  const cutoff = '2026-10-01T00:00:00.000Z'
  const pruned =
    (await store.deliveries.prune('delivered', cutoff, 500)) +
    (await store.deliveries.prune('dead', cutoff, 500))
  assert.equal(pruned, 2)
  const left = (await store.kysely.selectFrom('webhook_deliveries').select('id').execute()).map((r) => r.id)
  assert.deepEqual(left.sort(), [oldPending, recentDead].sort())
  const attempts = await store.kysely.selectFrom('webhook_attempts').select('delivery_id').execute()
  assert.ok(!attempts.some((a) => [oldDelivered, oldDead].includes(a.delivery_id)), 'attempts go with them')
})
