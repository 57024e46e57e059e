// Re-sealing after a rotation, on each backend, with the pieces boot and the runtime use: two
// re-sealers at once (two processes on PostgreSQL) while partners save new settings lose nothing and
// move every value to the new key; a process still on the old key leaves the database alone; the new
// key alone is refused until re-sealing is done; values of the first format are re-sealed too.
import assert from 'node:assert/strict'
import { createCipheriv, randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import pino from 'pino'
import { Resealer } from '../../src/ops/reseal.js'
import { SealedValues } from '../../src/ops/sealed-values.js'
import { openKeyRing } from '../../src/ops/secret-key.js'
import { loadConfig } from '../../src/platform/config.js'
import { type Db, openDatabase } from '../../src/platform/db/connect.js'
import { migrateToLatest } from '../../src/platform/db/migrate.js'
import { Store } from '../../src/platform/db/store.js'
import { createKeyRing } from '../../src/platform/security/crypto-box.js'
import { KeyRefusal } from '../../src/platform/security/key-check.js'
import { defaultIntegrationSettings } from '../../src/tenants/provisioning.js'
import { SettingsRepository } from '../../src/tenants/repositories/settings.js'
import { newKey } from '../support/process.js'
import { backends, postgresDatabase } from '../support/service.js'

const silent = pino({ level: 'silent' })
const board = (p: { psa: { settings: unknown } } | null): string | undefined =>
  (p?.psa.settings as { defaults?: { board?: string } } | undefined)?.defaults?.board
const now = '2026-11-22T10:00:00.000Z'

function sealV1(key: string, plaintext: string): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(key, 'base64'), iv)
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
  return `v1.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`
}

for (const backend of backends('databases')) {
  describe(`re-sealing (${backend})`, () => {
    let url: string
    let cleanup: () => Promise<void>
    const open: Db[] = []
    const connect = async (): Promise<Db> => {
      const db = openDatabase(loadConfig({ DATABASE_URL: url, SECRET_KEY: newKey() }).database)
      open.push(db)
      return db
    }

    before(async () => {
      if (backend === 'sqlite') {
        const dir = mkdtempSync(join(tmpdir(), 'alertbridge-reseal-'))
        url = `sqlite:${join(dir, 'alertbridge.db')}`
        cleanup = async () => rmSync(dir, { recursive: true, force: true })
      } else {
        const database = await postgresDatabase({ migrated: true })
        url = database.url
        cleanup = database.drop
      }
    })
    after(async () => {
      for (const db of open) await db.close()
      await cleanup()
    })

    test('two re-sealers at once, with partners saving settings meanwhile, move everything and lose nothing', async () => {
      const [A, B] = [newKey(), newKey()]
      const db = await connect()
      await migrateToLatest(db)
      const onA = new Store(db.kysely, createKeyRing(A))
      const expected = new Map<string, string>()
      const vendor = await onA.vendors.insert({
        id: 'vendor-1',
        name: 'Vendor',
        clientId: 'cli_1',
        clientSecretDigest: 'digest',
        now,
        patch: { webhookSecret: 'whsec_vendor', webhookAuthHeader: '{"name":"x-key","value":"header"}' },
      })
      for (let i = 0; i < 120; i++) {
        const id = `partner-${String(i).padStart(3, '0')}`
        await onA.partners.insert({
          id,
          name: id,
          apiKeyDigest: `digest-${i}`,
          psa: { kind: 'sandbox', settings: { defaults: { board: `Board ${i}` } } },
          now,
        })
        expected.set(id, `Board ${i}`)
      }
      await onA.integrations.insert({
        id: 'integration-1',
        vendorId: vendor.id,
        partnerId: 'partner-000',
        orgTokenDigest: 'digest',
        settings: defaultIntegrationSettings(),
        now,
      })
      await onA.integrations.setVendorCredentials(
        'integration-1',
        { header: 'authorization', value: 'Bearer v' },
        now,
      )
      // A value an earlier build sealed (first format, no key id).
      await db.kysely
        .updateTable('partners')
        .set({ psa_settings_enc: sealV1(A, JSON.stringify({ defaults: { board: 'Legacy' } })) })
        .where('id', '=', 'partner-119')
        .execute()
      expected.set('partner-119', 'Legacy')

      const first = await openKeyRing({
        kysely: db.kysely,
        secretKey: A,
        secretKeyPrevious: undefined,
        keyFile: null,
      })
      assert.equal(first.event, null)
      const rotation = await openKeyRing({
        kysely: db.kysely,
        secretKey: B,
        secretKeyPrevious: A,
        keyFile: null,
      })
      assert.equal(rotation.event, 'rotation-started')

      // Before re-sealing, B alone is refused: most values are still sealed with A.
      await assert.rejects(
        openKeyRing({ kysely: db.kysely, secretKey: B, secretKeyPrevious: undefined, keyFile: null }),
        (err: unknown) =>
          err instanceof KeyRefusal &&
          /^\d+ sealed values in this database do not open with SECRET_KEY/.test(err.message),
      )

      // A process still running with A as its key (and B as previous) leaves the database alone.
      const stale = new Resealer({
        sealed: new SealedValues(db.kysely),
        settings: new SettingsRepository(db.kysely),
        ring: createKeyRing(A, B),
        log: silent,
      })
      assert.deepEqual(await stale.pass(), { idle: true, resealed: 0, unreadable: 0, remaining: 0 })

      // Two processes re-seal at once while partners save new settings (sealed with B).
      const ring = createKeyRing(B, A)
      const resealers = await Promise.all(
        [0, 1].map(async () => {
          const own = backend !== 'sqlite' ? await connect() : db
          return new Resealer({
            sealed: new SealedValues(own.kysely),
            settings: new SettingsRepository(own.kysely),
            ring,
            log: silent,
            batchSize: 7,
            pauseMs: 0,
          })
        }),
      )
      const onB = new Store(db.kysely, ring)
      const saves = (async () => {
        for (let i = 0; i < 120; i += 3) {
          const id = `partner-${String(i).padStart(3, '0')}`
          await onB.partners.update(
            id,
            { psa: { kind: 'sandbox', settings: { defaults: { board: `Saved ${i}` } } } },
            now,
          )
          expected.set(id, `Saved ${i}`)
        }
      })()
      const [passes] = await Promise.all([Promise.all(resealers.map((r) => r.pass())), saves])
      assert.equal(
        passes.reduce((n, p) => n + p.unreadable, 0),
        0,
      )
      // A value saved between a re-sealer's read and its write is left as saved; a last pass finds none left.
      const last = await resealers[0]!.pass()
      assert.equal(last.remaining, 0)

      const counts = await new SealedValues(db.kysely).counts(ring.currentKeyId, ring.previousKeyId)
      assert.deepEqual(counts, { current: 123, previous: 0, unversioned: 0, other: 0 })
      const onlyB = new Store(db.kysely, createKeyRing(B))
      for (const [id, saved] of expected) assert.equal(board(await onlyB.partners.findById(id)), saved, id)
      const endpoint = await onlyB.vendors.webhookEndpoint('vendor-1')
      assert.equal(endpoint.secret, 'whsec_vendor')
      assert.equal(endpoint.authHeader, '{"name":"x-key","value":"header"}')
      assert.deepEqual(await onlyB.integrations.vendorCredentials('integration-1'), {
        header: 'authorization',
        value: 'Bearer v',
      })

      // Deterministically: a value saved after the re-sealer read it is not overwritten by the re-sealer.
      await onA.partners.insert({
        id: 'partner-late',
        name: 'late',
        apiKeyDigest: 'digest-late',
        psa: { kind: 'sandbox', settings: { defaults: { board: 'Old' } } },
        now,
      })
      const sealed = new SealedValues(db.kysely)
      const column = sealed.columns.find((c) => c.table === 'partners')!
      const [read] = await sealed.notSealedWith(column, ring.currentKeyId, null, 10)
      assert.equal(read?.id, 'partner-late')
      await onB.partners.update(
        'partner-late',
        { psa: { kind: 'sandbox', settings: { defaults: { board: 'New' } } } },
        now,
      )
      assert.equal(await sealed.replace(read!, ring.seal('{"defaults":{"board":"Old"}}')), false)
      const late = await onlyB.partners.findById('partner-late')
      assert.equal(board(late), 'New')

      // Now B alone starts, and A (retired) does not.
      const after = await openKeyRing({
        kysely: db.kysely,
        secretKey: B,
        secretKeyPrevious: undefined,
        keyFile: null,
      })
      assert.equal(after.event, null)
      await assert.rejects(
        openKeyRing({ kysely: db.kysely, secretKey: A, secretKeyPrevious: undefined, keyFile: null }),
        /rotated away from/,
      )
    })
  })
}
