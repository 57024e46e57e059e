// The Store (src/platform/db/store.ts): the modules' repositories are its members, each made on its first
// read and kept for that Store; a spread of a Store carries them all; a transaction's Store has its own;
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

  test('a spread of a Store carries every repository, made or not yet', () => {
    const { store } = svc.services
    const fresh = new Store(store.kysely, store.box)
    const spread = { ...fresh }
    for (const name of registeredRepositories())
      assert.ok(name in spread && spread[name as keyof typeof spread], name)
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
