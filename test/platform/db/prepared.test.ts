// Prepared queries (src/platform/db/prepared.ts) on both databases: each call binds its own arguments, the
// query's own constants stay, it works inside a transaction, and a builder that does not use every
// argument as a value is refused rather than silently binding the wrong value.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Kysely } from 'kysely'
import { prepared } from '../../../src/platform/db/prepared.js'
import type { Database } from '../../../src/platform/db/schema.js'
import { backends, startService, type TestService } from '../../support/service.js'

for (const backend of backends('databases')) {
  describe(`prepared queries (${backend})`, () => {
    let svc: TestService
    before(async () => {
      svc = await startService({ backend })
      await svc.services.store.kysely
        .insertInto('counters')
        .values([
          { name: 'prep-a', value: 1 },
          { name: 'prep-b', value: 2 },
          { name: 'prep-c', value: 3 },
        ])
        .execute()
    })
    after(() => svc.close())

    const between = prepared(2, (db: Kysely<Database>, low: number, high: number) =>
      db
        .selectFrom('counters')
        .select(['name', 'value'])
        .where('name', 'like', 'prep-%') // a constant of the query, kept on every call
        .where('value', '>=', low)
        .where('value', '<=', high)
        .orderBy('name'),
    )

    test('each call binds its own arguments; the constants stay', async () => {
      const db = svc.services.store.kysely
      const names = async (low: number, high: number) =>
        (await between(db, low, high)).map((r) => [r.name, Number(r.value)])
      assert.deepEqual(await names(1, 2), [
        ['prep-a', 1],
        ['prep-b', 2],
      ])
      assert.deepEqual(await names(3, 3), [['prep-c', 3]])
      assert.deepEqual(await names(4, 9), [])
    })

    test('inside a transaction it reads what the transaction wrote', async () => {
      await svc.services.store.transaction(async (tx) => {
        await tx.kysely.insertInto('counters').values({ name: 'prep-d', value: 4 }).execute()
        assert.deepEqual(
          (await between(tx.kysely, 4, 4)).map((r) => r.name),
          ['prep-d'],
        )
      })
    })

    test('an argument the query does not use as a value is refused', async () => {
      const unused = prepared(1, (db: Kysely<Database>, _name: string) =>
        db.selectFrom('counters').select('name').where('name', '=', 'prep-a'),
      )
      await assert.rejects(unused(svc.services.store.kysely, 'prep-b'), /every argument must be used/)
    })
  })
}
