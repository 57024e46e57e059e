// A poll round the connection's budget held back is kept on the partner's psa_sync row (until when,
// and why) for the sync status (docs/psa/sync.md#what-the-partner-sees); the next poll round that
// reads, or finds nothing due, clears it; a push does not (it says nothing of the poll's budget).
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { type Db, openDatabase } from '../../src/platform/db/connect.js'
import { migrateToLatest } from '../../src/platform/db/migrate.js'
import { Store } from '../../src/platform/db/store.js'
import { createCryptoBox } from '../../src/platform/security/crypto-box.js'
import { newKey } from '../support/process.js'

const now = '2026-12-04T10:00:00.000Z'
const later = '2026-12-04T10:00:40.000Z'
const reason = "two-way sync leaves the rest of HaloPSA's 120 requests per minute to alerts (50% used)"
let db: Db
let store: Store

before(async () => {
  db = openDatabase({ kind: 'sqlite', path: ':memory:' })
  await migrateToLatest(db)
  store = new Store(db.kysely, createCryptoBox(newKey()))
  await store.partners.insert({
    id: 'partner-1',
    name: 'Partner',
    apiKeyDigest: 'digest-1',
    psa: { kind: 'sandbox', settings: {} },
    now,
  })
  await store.psaSync.replace(
    { partnerId: 'partner-1', tokenDigest: 'token-1', secret: 'secret-1', psaKind: 'sandbox' },
    now,
  )
})
after(() => db.close())

const held = async () => (await store.psaSync.find('partner-1'))?.held

test('a held round is kept with its reason; the next round that reads clears it', async () => {
  assert.equal(await held(), null, 'a new link is not held')
  await store.psaSync.held('partner-1', later, reason)
  assert.deepEqual(await held(), { until: later, reason })
  await store.psaSync.heard('partner-1', 'push', now)
  assert.deepEqual(await held(), { until: later, reason }, 'a push leaves the poll held')
  await store.psaSync.heard('partner-1', 'poll', now)
  assert.equal(await held(), null, 'a round that read clears it')
})

test('a round with nothing due clears it too; a long reason is cut to 500 characters', async () => {
  await store.psaSync.held('partner-1', later, 'x'.repeat(2000))
  assert.equal((await held())?.reason.length, 500)
  await store.psaSync.polled('partner-1', now)
  assert.equal(await held(), null)
})
