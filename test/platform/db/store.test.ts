// The Store (src/platform/db/store.ts): the modules' repositories are its members, each made on its first
// read and kept for that Store, none made before; a transaction's Store has its own;
// a name registered twice is refused.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { defineRepository, registeredRepositories, Store } from '../../../src/platform/db/store.js'
import { startService, type TestService } from '../../support/service.js'

describe('the Store', () => {
  let svc: TestService
  before(async () => {
    svc = await startService()
  })
  after(() => svc.close())

  test('every module registers its repositories; each is made once per Store', () => {
    const names = registeredRepositories()
    for (const name of [
      'vendors',
      'partners',
      'integrations',
      'tickets',
      'rules',
      'events',
      'storms',
      'psaSync',
    ])
      assert.ok(names.has(name), `${name} is registered`)
    const store = svc.services.store
    assert.equal(store.tickets, store.tickets, 'read twice, made once')
  })

  test('a Store makes a repository only when it is first read', () => {
    const { store } = svc.services
    const fresh = new Store(store.kysely, store.box)
    assert.equal(fresh.made.size, 0, 'a new Store has made none')
    const tickets = fresh.tickets
    assert.deepEqual([...fresh.made.keys()], ['tickets'])
    assert.equal(fresh.tickets, tickets, 'read again, the same one')
  })

  test("a transaction's Store has repositories of its own", async () => {
    const { store } = svc.services
    await store.transaction(async (tx) => {
      assert.notEqual(tx.tickets, store.tickets)
      assert.equal(tx.tickets, tx.tickets)
    })
  })

  test('a name registered twice is refused', () => {
    assert.throws(
      () => defineRepository('tickets', () => svc.services.store.tickets),
      /the repository tickets is registered twice/,
    )
  })
})
