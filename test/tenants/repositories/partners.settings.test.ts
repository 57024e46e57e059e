// The partner's sealed PSA settings are opened once per sealed value and box: read again, the same
// value is not opened again; saved anew, the new value is; a box with other keys over the same rows
// still refuses what it cannot open, whatever another box opened before.
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { type Db, openDatabase } from '../../../src/platform/db/connect.js'
import { migrateToLatest } from '../../../src/platform/db/migrate.js'
import { Store } from '../../../src/platform/db/store.js'
import { type CryptoBox, createKeyRing, SealedValueError } from '../../../src/platform/security/crypto-box.js'
import { newKey } from '../../support/process.js'

const now = '2026-12-04T10:00:00.000Z'
let db: Db

before(async () => {
  db = openDatabase({ kind: 'sqlite', path: ':memory:' })
  await migrateToLatest(db)
})
after(() => db.close())

/** A box that counts what it opens. */
function counting(key: string): CryptoBox & { opened: number } {
  const ring = createKeyRing(key)
  const box = {
    opened: 0,
    seal: (plain: string) => ring.seal(plain),
    open: (sealed: string) => {
      box.opened++
      return ring.open(sealed)
    },
  }
  return box
}

const board = (settings: unknown) => (settings as { defaults: { board: string } }).defaults.board

test('a sealed value is opened once; new settings are opened when read', async () => {
  const box = counting(newKey())
  const store = new Store(db.kysely, box)
  await store.partners.insert({
    id: 'partner-1',
    name: 'Partner',
    apiKeyDigest: 'digest-1',
    psa: { kind: 'sandbox', settings: { defaults: { board: 'First' } } },
    now,
  })
  const opened = box.opened
  for (let i = 0; i < 5; i++)
    assert.equal(board((await store.partners.findById('partner-1'))?.psa.settings), 'First')
  assert.equal(box.opened, opened, 'the same sealed value is not opened again')

  await store.partners.update(
    'partner-1',
    { psa: { kind: 'sandbox', settings: { defaults: { board: 'Second' } } } },
    now,
  )
  assert.equal(board((await store.partners.findById('partner-1'))?.psa.settings), 'Second')
  assert.equal(box.opened, opened + 1, 'the new value is opened once')

  // Each read answers its own object: a caller changing one does not change the next read.
  const read = await store.partners.findById('partner-1')
  assert.ok(read)
  ;(read.psa.settings as { defaults: { board: string } }).defaults.board = 'changed by a caller'
  assert.equal(board((await store.partners.findById('partner-1'))?.psa.settings), 'Second')
})

test('a box with other keys refuses the rows another box opened', async () => {
  const first = new Store(db.kysely, counting(newKey()))
  await first.partners.insert({
    id: 'partner-2',
    name: 'Partner',
    apiKeyDigest: 'digest-2',
    psa: { kind: 'sandbox', settings: { defaults: { board: 'Mine' } } },
    now,
  })
  assert.equal(board((await first.partners.findById('partner-2'))?.psa.settings), 'Mine')
  const other = new Store(db.kysely, counting(newKey()))
  await assert.rejects(() => other.partners.findById('partner-2'), SealedValueError)
})
