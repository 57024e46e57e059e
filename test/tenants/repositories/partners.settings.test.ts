// The partner's sealed PSA settings are opened once per sealed value and box: read again, the same
// value is not opened again; saved anew, the new value is; a box with other keys over the same rows
// still refuses what it cannot open, whatever another box opened before.
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { type Db, openDatabase } from '../../../src/platform/db/connect.js'
import { migrateToLatest } from '../../../src/platform/db/migrate.js'
import { Store } from '../../../src/platform/db/store.js'
import { SealedValueError } from '../../../src/platform/security/crypto-box.js'
import { countingBox } from '../../support/counting-box.js'
import { newKey } from '../../support/process.js'

const now = '2026-12-04T10:00:00.000Z'
let db: Db

before(async () => {
  db = openDatabase({ kind: 'sqlite', path: ':memory:' })
  await migrateToLatest(db)
})
after(() => db.close())

const withBoard = (store: Store, id: string, board: string) =>
  store.partners.insert({
    id,
    name: 'Partner',
    apiKeyDigest: `digest-${id}`,
    psa: { kind: 'sandbox', settings: { defaults: { board } } },
    now,
  })

const board = (settings: unknown) => (settings as { defaults: { board: string } }).defaults.board

test('a sealed value is opened once; new settings are opened when read', async () => {
  const box = countingBox(newKey())
  const store = new Store(db.kysely, box)
  await withBoard(store, 'partner-1', 'First')
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
  const first = new Store(db.kysely, countingBox(newKey()))
  await withBoard(first, 'partner-2', 'Mine')
  assert.equal(board((await first.partners.findById('partner-2'))?.psa.settings), 'Mine')
  const other = new Store(db.kysely, countingBox(newKey()))
  await assert.rejects(() => other.partners.findById('partner-2'), SealedValueError)
})
