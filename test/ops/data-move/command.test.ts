// `npm run migrate-data` (src/data-move/): an embedded
// installation filled through its HTTP API is stopped, moved to PostgreSQL, and a service started on
// the copy holds every row as it was and goes on working: an alert appends to a ticket created before
// the move, the partner's sealed PSA credentials still open (the PSA accepts them), the vendor's
// webhook secret still signs, and tokens issued before the move are still valid. The move refuses a
// missing or wrong SECRET_KEY, a target that holds rows (unless --force) and a table it cannot copy.
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, test } from 'node:test'
import SQLite from 'better-sqlite3'
import pg from 'pg'
import { copyOrder } from '../../../src/ops/data-move/copy.js'
import { CopyRefusal, moveData, moveRequest } from '../../../src/ops/data-move/move.js'
import { setupIntegration } from '../../support/fixtures.js'
import { hooked } from '../../support/hooked.js'
import { newKey, runToExit } from '../../support/process.js'
import { postgresDatabase, type Response, requester, startService } from '../../support/service.js'
import { expectSyncSuccess } from '../../support/shapes.js'
import { startConnectWiseSim } from '../../support/sims/connectwise/server.js'

function migrateData(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  return runToExit('ops/data-move/command', args, {
    ...process.env,
    SECRET_KEY: '',
    SECRET_KEY_PREVIOUS: '',
    REDIS_URL: '',
    DATABASE_URL: '',
    ...env,
  })
}

async function rowsIn(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    const tables = await client.query<{ name: string }>(
      "select table_name as name from information_schema.tables where table_schema = 'public' and table_name not like 'kysely%'",
    )
    let total = 0
    for (const { name } of tables.rows)
      total += Number((await client.query(`select count(*) as n from "${name}"`)).rows[0].n)
    return total
  } finally {
    await client.end()
  }
}

const env = {
  ALLOW_PRIVATE_NETWORK: 'true',
  WEBHOOK_RETRY_SCHEDULE: '0.05,0.05,0.05',
  SNAPSHOT_COALESCE_MS: '0',
}
const cwKeys = {
  companyId: 'acme',
  publicKey: 'pub-key',
  privateKey: 'cw-private-KEY-moved',
  clientId: '00000000-0000-4000-8000-000000000001',
}

describe('moving an embedded installation to PostgreSQL', {
  skip: !process.env.TEST_POSTGRES_URL && 'TEST_POSTGRES_URL is not set',
}, () => {
  test('every row moves; a service on the copy appends, opens sealed credentials and takes old tokens', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'alertbridge-move-'))
    const sqlitePath = join(dir, 'alertbridge.db')
    const target = await postgresDatabase()
    // No seeded tickets: the move's one ticket is the only one.
    const cw = await startConnectWiseSim({ privateKey: cwKeys.privateKey, tickets: 0 })
    const cleanups: (() => Promise<unknown>)[] = [async () => rmSync(dir, { recursive: true, force: true })]
    try {
      // The embedded default: no SECRET_KEY, so the key is generated into the data directory.
      const embedded = await startService({
        env: { ...env, DATABASE_URL: `sqlite:${sqlitePath}`, SECRET_KEY: '' },
      })
      const h = await hooked(embedded, {
        partnerName: 'ConnectWise MSP',
        psa: { kind: 'connectwise', baseUrl: cw.url, ...cwKeys },
        psaCompanyId: '1',
        rule: { productGroup: 'Endpoint Security', ticket: { board: 'Service Desk' } },
      })
      cleanups.push(() => h.receiver.close())
      const sandbox = await setupIntegration(embedded, {
        partnerName: 'Sandbox MSP',
        vendor: { id: h.vendorId, clientId: h.clientId, clientSecret: h.clientSecret },
      })

      // A ticket in ConnectWise through the webhook strategy (event, job, delivery, attempt) …
      const opened: Response = await h.post({ title: 'Ransomware on FS-01' })
      assert.equal(opened.status, 201, opened.text)
      const correlationId: string = opened.body.data.correlationId
      const openedEvent = await h.statusUpdate(opened.body.data.messageId)
      // … one in the sandbox PSA with a note appended, synchronously …
      const sandboxCorrelation = expectSyncSuccess(await sandbox.sync({ title: 'Backup agent offline' }), {
        status: 201,
        message: 'created',
      }).correlationId
      const update = { incidentStatus: 'UPDATE' as const }
      expectSyncSuccess(await sandbox.sync(update, { correlationId: sandboxCorrelation }), {
        status: 200,
        message: 'updated',
      })
      // … and a usage count pushed to a sandbox billing line.
      const vendor = (method: string, path: string, body?: unknown) =>
        embedded.request(method, path, { token: sandbox.vendorToken, body })
      assert.equal(
        (
          await vendor('POST', '/api/vendor-api/organization/services', {
            id: 'edr',
            name: 'EDR',
            description: 'seats',
          })
        ).status,
        201,
      )
      const lines = await sandbox.partner('GET', '/api/partner/psa/agreements?companyId=100')
      assert.equal(lines.status, 200, lines.text)
      const product = lines.body.data[0].productId ?? lines.body.data[0].name
      const mapped = await sandbox.partner(
        'PUT',
        `/api/partner/integrations/${sandbox.integrationId}/services/edr`,
        {
          psaProductId: product,
        },
      )
      assert.equal(mapped.status, 200, mapped.text)
      assert.equal(
        (await vendor('POST', '/api/vendor-api/service/edr/count', { unitCount: 12, accountId: 'acme-001' }))
          .status,
        201,
      )

      const before = await embedded.snapshot()
      for (const table of [
        'vendors',
        'partners',
        'integrations',
        'vendor_tokens',
        'vendor_accounts',
        'vendor_services',
        'usage_counts',
        'account_mappings',
        'service_mappings',
        'usage_pushes',
        'rules',
        'tickets',
        'events',
        'webhook_deliveries',
        'webhook_attempts',
        'sandbox_tickets',
        'sandbox_notes',
        'sandbox_billing_lines',
        'settings',
        'counters',
      ] as const)
        assert.ok((before[table]?.length ?? 0) > 0, `the embedded installation has ${table} rows`)
      await embedded.close()
      const key = readFileSync(join(dir, 'secret.key'), 'utf8').trim()

      // Without SECRET_KEY the move says which key it needs and copies nothing.
      const keyless = await migrateData(['--from', `sqlite:${sqlitePath}`, '--to', target.url], {})
      assert.equal(keyless.code, 1, keyless.output)
      assert.match(keyless.output, /SECRET_KEY is not set.*secret\.key/s)
      // A key that does not open the sealed data is refused before anything is copied.
      await assert.rejects(
        moveData(
          moveRequest(['--from', `sqlite:${sqlitePath}`, '--to', target.url], { SECRET_KEY: newKey() }),
          () => {},
        ),
        (err: Error) => err instanceof CopyRefusal && /SECRET_KEY does not open the data/.test(err.message),
      )
      assert.equal(await rowsIn(target.url), 0)

      const moved = await migrateData(['--from', `sqlite:${sqlitePath}`, '--to', target.url], {
        SECRET_KEY: key,
      })
      assert.equal(moved.code, 0, moved.output)
      for (const table of copyOrder)
        assert.match(
          moved.output,
          new RegExp(`^  ${table} +${before[table]?.length ?? 0}$`, 'm'),
          moved.output,
        )
      assert.match(moved.output, /verified: \d+ rows in \d+ tables/)
      assert.doesNotMatch(moved.output, new RegExp(key.replace(/[+/=]/g, '.')))

      // Into a database that holds rows: refused, unless --force (which replaces them, all at once).
      const again = moveRequest(['--from', `sqlite:${sqlitePath}`, '--to', target.url], { SECRET_KEY: key })
      await assert.rejects(
        moveData(again, () => {}),
        /already holds rows \(settings: \d+, counters: \d+, vendors: 1,/,
      )
      const forced = await moveData({ ...again, force: true }, () => {})
      assert.ok(forced.replaced, 'what the target held was replaced')

      // A service on the copy: every row as it was.
      const moved2 = await startService({ env: { ...env, DATABASE_URL: target.url, SECRET_KEY: key } })
      cleanups.push(() => moved2.close())
      assert.deepEqual(await moved2.snapshot(), before)
      const request = requester(moved2.url)

      // Tokens issued before the move: the vendor's access token, the partner's API key, the org token.
      const ticket = await request('GET', `/api/oem-alerts-api/alert/${correlationId}`, {
        token: h.vendorToken,
      })
      assert.equal(ticket.status, 200, ticket.text)
      const tickets = await request('GET', '/api/partner/tickets', { token: sandbox.partnerKey })
      assert.equal(tickets.status, 200, tickets.text)
      assert.equal(tickets.body.data.length, 1)
      const token = await request('POST', '/api/oauth/token', {
        body: {
          grant_type: 'client_credentials',
          client_id: h.clientId,
          client_secret: h.clientSecret,
          scope: 'vendor_manage',
          organization_oem_token: h.orgToken,
        },
      })
      assert.equal(token.status, 200, token.text)

      // The partner's sealed ConnectWise key opens, and ConnectWise takes it.
      const tested = await request('POST', '/api/partner/psa/test', { token: h.partnerKey })
      assert.deepEqual(tested.body.ok, true, tested.text)

      // An alert appends to the ticket created before the move; its status_update is signed with the
      // vendor's webhook secret from before the move (the receiver verifies every signature).
      const notesBefore = cw.state.tickets[0]?.notes.length ?? 0
      const appended = await request('POST', '/api/oem-alerts-api/alert', {
        body: h.body(update, { correlationId }),
      })
      assert.equal(appended.status, 200, appended.text)
      const status = await h.statusUpdate(appended.body.data.messageId)
      assert.equal(status.payload.event, 'Ticket Updated', JSON.stringify(status))
      assert.equal(status.payload.payload.status, 'success', JSON.stringify(status))
      // Event numbers go on from where the embedded database stopped (docs/webhooks.md#event-types).
      assert.ok(status.payload.sequence > openedEvent.payload.sequence, JSON.stringify(status))
      assert.equal(cw.state.tickets.length, 1)
      assert.equal(cw.state.tickets[0]?.notes.length, notesBefore + 1)
      assert.deepEqual(h.receiver.unverified, [])
      const sandboxAgain = await request('POST', '/api/oem-alerts-api/alert/sync', {
        body: sandbox.body(update, { correlationId: sandboxCorrelation }),
      })
      expectSyncSuccess(sandboxAgain, { status: 200, message: 'updated', correlationId: sandboxCorrelation })
      const after = await moved2.counts()
      assert.equal(after.tickets, before.tickets?.length, 'no new ticket: both alerts appended')
      assert.equal(after.sandbox_notes, (before.sandbox_notes?.length ?? 0) + 1)
    } finally {
      for (const cleanup of cleanups.reverse()) await cleanup()
      await cw.close()
      await target.drop()
    }
  })

  test('a table the move does not know, or a file that is no alertbridge database, is refused', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'alertbridge-move-'))
    const sqlitePath = join(dir, 'alertbridge.db')
    const target = await postgresDatabase()
    const key = newKey()
    try {
      const embedded = await startService({ env: { DATABASE_URL: `sqlite:${sqlitePath}`, SECRET_KEY: key } })
      await setupIntegration(embedded)
      await embedded.close()
      const db = new SQLite(sqlitePath)
      db.exec('create table mystery (id text primary key)')
      db.close()
      await assert.rejects(
        moveData(
          moveRequest(['--from', `sqlite:${sqlitePath}`, '--to', target.url], { SECRET_KEY: key }),
          () => {},
        ),
        /The SQLite database has a table migrate-data does not know how to copy \(mystery\); nothing was copied/,
      )
      assert.equal(await rowsIn(target.url), 0)

      const empty = join(dir, 'empty.db')
      new SQLite(empty).close()
      await assert.rejects(
        moveData(
          moveRequest(['--from', `sqlite:${empty}`, '--to', target.url], { SECRET_KEY: key }),
          () => {},
        ),
        /empty\.db is not an alertbridge database \(it has no migrations\); nothing was copied/,
      )
    } finally {
      rmSync(dir, { recursive: true, force: true })
      await target.drop()
    }
  })
})
