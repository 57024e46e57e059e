// The write batcher (src/platform/db/write-batch.ts) on both databases: writes of one turn share one
// transaction; one that throws rolls back only its own rows and gets its own error; accepted alerts go
// ahead of background writes; a few background writes wait a turn or two for more; a write alone that
// throws changes nothing; a caller resumes only after the commit. The table written is `counters` (name, value), which nothing else in the test touches.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Store } from '../../../src/platform/db/store.js'
import { WriteBatcher } from '../../../src/platform/db/write-batch.js'
import { backends, startService, type TestService } from '../../support/service.js'

for (const backend of backends('databases')) {
  describe(`write batches (${backend})`, () => {
    let svc: TestService
    let store: Store
    before(async () => {
      svc = await startService({ backend })
      store = svc.services.store
    })
    after(() => svc.close())

    const put =
      (name: string, value = 1) =>
      async (tx: Store) => {
        await tx.kysely.insertInto('counters').values({ name, value }).execute()
        return name
      }
    const names = async (prefix: string) =>
      (await store.kysely.selectFrom('counters').select('name').where('name', 'like', `${prefix}%`).execute())
        .map((r) => r.name)
        .sort()

    test('writes of one turn share one transaction, and each answers its own value', async () => {
      const batches: number[] = []
      const writes = new WriteBatcher(store, { onBatch: (n) => batches.push(n) })
      const answers = await Promise.all(['share-a', 'share-b', 'share-c'].map((n) => writes.run(put(n))))
      assert.deepEqual(answers, ['share-a', 'share-b', 'share-c'])
      assert.deepEqual(batches, [3])
      assert.deepEqual(await names('share-'), ['share-a', 'share-b', 'share-c'])
    })

    test('a write that throws rolls back its own rows only and gets its own error', async () => {
      const writes = new WriteBatcher(store)
      const bad = new Error('a bad row')
      const results = await Promise.allSettled([
        writes.run(put('one-bad-a')),
        writes.run(async (tx) => {
          await put('one-bad-b')(tx) // written, then rolled back with its savepoint
          throw bad
        }),
        writes.run(put('one-bad-a')), // a duplicate key: the database refuses it
        writes.run(put('one-bad-c')),
      ])
      assert.equal(results[0].status, 'fulfilled')
      assert.equal(results[1].status === 'rejected' && results[1].reason, bad)
      assert.equal(results[2].status, 'rejected')
      assert.equal(results[3].status, 'fulfilled')
      assert.deepEqual(await names('one-bad-'), ['one-bad-a', 'one-bad-c'])
    })

    test('a write alone that throws changes nothing', async () => {
      const writes = new WriteBatcher(store)
      await assert.rejects(
        writes.run(async (tx) => {
          await put('alone-a')(tx)
          throw new Error('refused')
        }),
        /refused/,
      )
      assert.deepEqual(await names('alone-'), [])
    })

    test('accepted alerts go first; background writes wait beyond their share of a batch', async () => {
      const batches: number[] = []
      const writes = new WriteBatcher(store, { maxWork: 2, onBatch: (n) => batches.push(n) })
      const order: string[] = []
      const track = (name: string) => async (tx: Store) => {
        order.push(name)
        return put(name)(tx)
      }
      await Promise.all([
        writes.run(track('lane-w1')),
        writes.run(track('lane-w2')),
        writes.run(track('lane-w3')),
        writes.run(track('lane-a1'), 'accept'),
      ])
      assert.deepEqual(order, ['lane-a1', 'lane-w1', 'lane-w2', 'lane-w3'])
      assert.deepEqual(batches, [3, 1])
    })

    test('while alerts are accepted, background writes take a smaller share of a batch', async () => {
      const batches: number[] = []
      const writes = new WriteBatcher(store, {
        maxWork: 4,
        maxWorkWhileAccepting: 1,
        onBatch: (n) => batches.push(n),
      })
      await Promise.all([
        writes.run(put('load-w1')),
        writes.run(put('load-w2')),
        writes.run(put('load-w3')),
        writes.run(put('load-a1'), 'accept'),
      ])
      // The accepted alert with one background write, then the other two (no accept: up to 4).
      assert.deepEqual(batches, [2, 2])
    })

    test('a few background writes wait a turn or two for more; accepted alerts and full batches do not', async () => {
      const batches: number[] = []
      const writes = new WriteBatcher(store, { onBatch: (n) => batches.push(n) })
      const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))
      // One background write per turn, three turns: the first waits for the next two.
      const spread = [writes.run(put('gather-w1'))]
      await nextTurn()
      spread.push(writes.run(put('gather-w2')))
      await nextTurn()
      spread.push(writes.run(put('gather-w3')))
      await Promise.all(spread)
      assert.deepEqual(batches, [3])

      // Without gathering, each turn's write is a commit of its own.
      batches.length = 0
      const eager = new WriteBatcher(store, { gatherTurns: 0, onBatch: (n) => batches.push(n) })
      const alone = [eager.run(put('eager-w1'))]
      await nextTurn()
      alone.push(eager.run(put('eager-w2')))
      await Promise.all(alone)
      assert.deepEqual(batches, [1, 1])

      // An accepted alert commits at once: a background write of the next turn is not in its batch.
      batches.length = 0
      const accepting = new WriteBatcher(store, { gatherBelow: 2, onBatch: (n) => batches.push(n) })
      const accepted = accepting.run(put('gather-a1'), 'accept')
      await nextTurn()
      await Promise.all([accepted, accepting.run(put('gather-after-a1'))])
      assert.deepEqual(batches, [1, 1])

      // So does a batch of gatherBelow background writes.
      batches.length = 0
      const full = [accepting.run(put('gather-full-1')), accepting.run(put('gather-full-2'))]
      await nextTurn()
      await Promise.all([...full, accepting.run(put('gather-full-late'))])
      assert.deepEqual(batches, [2, 1])
    })

    test('a caller resumes after its batch committed: its rows are there for anyone to read', async () => {
      const writes = new WriteBatcher(store)
      await writes.run(put('seen-a'))
      // Read outside any transaction, on another connection for PostgreSQL.
      assert.deepEqual(await names('seen-'), ['seen-a'])
    })
  })
}
