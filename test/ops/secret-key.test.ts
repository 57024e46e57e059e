// SECRET_KEY is checked at start and can be rotated, over real process starts on each backend: a key
// that does not open what the database holds stops the start with one sentence (no stack, no secret);
// a lost key file is never replaced by a new key over sealed data; with SECRET_KEY_PREVIOUS both keys
// open, every sealed value is re-sealed with the new key in the background, /metrics and the log show
// it, and afterwards the new key alone works while the old one alone is refused.
import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { columnName, sealedIn } from '../../src/ops/sealed-columns.js'
import { SealedValues } from '../../src/ops/sealed-values.js'
import { loadConfig } from '../../src/platform/config.js'
import { openDatabase } from '../../src/platform/db/connect.js'
import { createKeyRing } from '../../src/platform/security/crypto-box.js'
import { catalogue, setupIntegration } from '../support/fixtures.js'
import { failedStart, newKey, postgresDatabase, stackFrame, startServer } from '../support/process.js'
import { type Receiver, startReceiver } from '../support/receiver.js'
import { backends, requester } from '../support/service.js'

const adminToken = `keys-test-admin-token-${'k'.repeat(24)}`

/** Every sealed value the database holds, by column and row, as stored. */
async function sealedValues(databaseUrl: string): Promise<Map<string, string>> {
  const config = loadConfig({ DATABASE_URL: databaseUrl, SECRET_KEY: newKey() })
  const db = openDatabase(config.database)
  try {
    const out = new Map<string, string>()
    const sealed = new SealedValues(db.kysely)
    for (const column of sealed.columns) {
      for (const v of await sealed.notSealedWith(column, '000000000000', null, 1000)) {
        const inner = sealedIn(column, v.stored)
        if (inner !== null) out.set(`${columnName(column)}:${v.id}`, inner)
      }
    }
    return out
  } finally {
    await db.close()
  }
}

function assertRefused(result: { code: number | null; output: string }, sentence: RegExp, secrets: string[]) {
  assert.equal(result.code, 1, result.output)
  assert.match(result.output, sentence)
  assert.equal(result.output.trim().split('\n').length, 1, `one line:\n${result.output}`)
  assert.doesNotMatch(result.output, stackFrame)
  for (const secret of secrets) assert.equal(result.output.includes(secret), false, 'a secret was printed')
}

const metric = (text: string, key: string): number => {
  const m = new RegExp(`^alertbridge_sealed_values\\{key="${key}"\\} (\\d+)$`, 'm').exec(text)
  assert.ok(m, `alertbridge_sealed_values{key="${key}"} in:\n${text}`)
  return Number(m[1])
}

for (const backend of backends('databases')) {
  describe(`SECRET_KEY check and rotation (real process, ${backend})`, () => {
    let databaseUrl: string
    let cleanup: () => Promise<void>
    let receiver: Receiver

    before(async () => {
      receiver = await startReceiver()
      if (backend === 'sqlite') {
        const dir = mkdtempSync(join(tmpdir(), 'alertbridge-keys-'))
        databaseUrl = `sqlite:${join(dir, 'alertbridge.db')}`
        cleanup = async () => rmSync(dir, { recursive: true, force: true })
      } else {
        const database = await postgresDatabase({ migrated: true })
        databaseUrl = database.url
        cleanup = database.drop
      }
    })
    after(async () => {
      await receiver.close()
      await cleanup()
    })

    test('a wrong key is refused; A → B with A as previous re-seals everything; then B alone works and A alone is refused', async () => {
      const [A, B, C] = [newKey(), newKey(), newKey()]
      const env = { DATABASE_URL: databaseUrl, ADMIN_TOKEN: adminToken, ALLOW_PRIVATE_NETWORK: 'true' }
      const secrets = [A, B, C, adminToken]

      // Key A: a vendor with a webhook secret and auth header, a partner's PSA settings, catalogue credentials.
      const first = await startServer({ ...env, SECRET_KEY: A })
      const svc = { request: requester(first.url), adminToken }
      const vendor = await svc.request('POST', '/api/admin/vendors', {
        token: adminToken,
        body: {
          name: 'Rotating Vendor',
          productGroups: catalogue,
          webhookUrl: receiver.url,
          webhookAuthHeader: { name: 'X-Vendor-Key', value: 'vendor-header-value' },
        },
      })
      assert.equal(vendor.status, 201, vendor.text)
      receiver.setSecret(vendor.body.webhookSecret)
      const s = await setupIntegration(svc, {
        vendor: {
          id: vendor.body.id,
          clientId: vendor.body.clientId,
          clientSecret: vendor.body.clientSecret,
        },
      })
      const credentials = await s.partner('PATCH', `/api/partner/integrations/${s.integrationId}`, {
        vendorCredentials: { header: 'authorization', value: 'Bearer catalogue-credential' },
      })
      assert.equal(credentials.status, 200, credentials.text)
      const created = await s.sync()
      assert.equal(created.status, 201, created.text)
      assert.equal(await first.stop(), 0)

      const onA = await sealedValues(databaseUrl)
      // The vendor's webhook secret and auth header, the PSA settings, the PSA push's secret (two-way
      // sync) and the catalogue credential.
      assert.equal(onA.size, 5, [...onA.keys()].join(', '))
      const ringA = createKeyRing(A)
      const plain = new Map([...onA].map(([where, v]) => [where, ringA.open(v)]))

      // Neither another key nor B alone opens the database's data.
      const refusal = /^alertbridge did not start: SECRET_KEY does not open the data this database holds/
      assertRefused(await failedStart({ ...env, SECRET_KEY: C }), refusal, secrets)
      assertRefused(await failedStart({ ...env, SECRET_KEY: B }), refusal, secrets)
      for (const v of onA.values()) assert.equal(ringA.sealedBy(v), 'current', 'each value names key A')

      // B with A as the previous key: everything still opens and is re-sealed with B.
      const second = await startServer({ ...env, SECRET_KEY: B, SECRET_KEY_PREVIOUS: A, LOG_LEVEL: 'info' })
      try {
        await second.waitForOutput(
          /re-sealing done: every sealed value is sealed with SECRET_KEY; SECRET_KEY_PREVIOUS can be removed/,
        )
        const call = requester(second.url)
        const metrics = (await call('GET', '/metrics')).text
        assert.equal(metric(metrics, 'previous'), 0)
        assert.equal(metric(metrics, 'current'), 5)
        assert.match(metrics, /^alertbridge_resealed_values_total 5$/m)
        // The PSA settings open (the sandbox appends), the webhook secret signs and the auth header goes along.
        const updated = await call('POST', '/api/oem-alerts-api/alert/sync', {
          body: s.body({ incidentStatus: 'UPDATE' }, { correlationId: created.body.data.correlationID }),
        })
        assert.equal(updated.status, 200, updated.text)
        assert.equal(updated.body.message, 'updated')
        const queued = await call('POST', '/api/oem-alerts-api/alert', {
          body: s.body({ title: 'after rotation' }),
        })
        assert.equal(queued.status < 300, true, queued.text)
        const messageId = queued.body.data.messageId
        await receiver.waitFor(
          () => receiver.accepted('status_update').some((r) => r.body.payload.messageId === messageId),
          'the status_update signed with the re-sealed webhook secret',
          30_000,
        )
        const delivered = receiver
          .accepted('status_update')
          .find((r) => r.body.payload.messageId === messageId)!
        assert.equal(delivered.headers['x-vendor-key'], 'vendor-header-value')
        assert.deepEqual(receiver.unverified, [])
      } finally {
        assert.equal(await second.stop(), 0)
      }

      const onB = await sealedValues(databaseUrl)
      assert.deepEqual([...onB.keys()].sort(), [...onA.keys()].sort())
      const ringB = createKeyRing(B)
      for (const [where, v] of onB) {
        assert.equal(ringB.sealedBy(v), 'current', `${where} is sealed with B`)
        assert.equal(ringB.open(v), plain.get(where), `${where} holds what it held`)
      }

      // B alone works now.
      const third = await startServer({ ...env, SECRET_KEY: B })
      try {
        const again = await requester(third.url)('POST', '/api/oem-alerts-api/alert/sync', {
          body: s.body({ incidentStatus: 'UPDATE' }, { correlationId: created.body.data.correlationID }),
        })
        assert.equal(again.status, 200, again.text)
        assert.equal(again.body.message, 'updated')
        const partner = await requester(third.url)('GET', `/api/admin/partners/${s.partnerId}`, {
          token: adminToken,
        })
        assert.equal(partner.status, 200, partner.text)
      } finally {
        assert.equal(await third.stop(), 0)
      }

      // A alone is refused: the database was rotated away from it.
      assertRefused(
        await failedStart({ ...env, SECRET_KEY: A }),
        /^alertbridge did not start: SECRET_KEY is a key this database has been rotated away from/,
        secrets,
      )
    })
  })
}

describe('the embedded key file (real process, SQLite)', () => {
  let dir: string
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'alertbridge-keyfile-'))
  })
  after(() => rmSync(dir, { recursive: true, force: true }))

  test('a missing or different key file over sealed data stops the start; no new key is written', async () => {
    const env = { DATABASE_URL: `sqlite:${join(dir, 'alertbridge.db')}`, ADMIN_TOKEN: adminToken }
    const keyFile = join(dir, 'secret.key')
    const first = await startServer(env)
    const partner = await requester(first.url)('POST', '/api/admin/partners', {
      token: adminToken,
      body: { name: 'Sealed MSP', psa: { kind: 'sandbox' } },
    })
    assert.equal(partner.status, 201, partner.text)
    assert.equal(await first.stop(), 0)
    const key = readFileSync(keyFile, 'utf8')

    rmSync(keyFile)
    assertRefused(
      await failedStart(env),
      /^alertbridge did not start: The key file \S+secret\.key is missing, but the database holds data sealed with a key/,
      [key.trim(), adminToken],
    )
    assert.equal(existsSync(keyFile), false, 'no new key file was generated')

    const other = newKey()
    writeFileSync(keyFile, `${other}\n`)
    assertRefused(
      await failedStart(env),
      /^alertbridge did not start: The key in \S+secret\.key does not open the data this database holds/,
      [key.trim(), other, adminToken],
    )

    writeFileSync(keyFile, key)
    const restored = await startServer(env)
    try {
      const read = await requester(restored.url)('GET', `/api/admin/partners/${partner.body.id}`, {
        token: adminToken,
      })
      assert.equal(read.status, 200, read.text)
    } finally {
      await restored.stop()
    }
  })
})
