// The PostgreSQL connection pool's edges: a connection the server ends while it is idle must not
// end the service, and closing the database leaves no connection behind.
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { after, before, describe, test } from 'node:test'
import { sql } from 'kysely'
import pg from 'pg'
import { openDatabase } from '../../../src/platform/db/connect.js'
import { setupIntegration } from '../../support/fixtures.js'
import { startService, type TestService } from '../../support/service.js'
import { hold } from '../../support/wait.js'

const base = process.env.TEST_POSTGRES_URL

async function admin<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: base })
  await client.connect()
  try {
    return (await client.query<T>(sql, params)).rows
  } finally {
    await client.end()
  }
}

describe('PostgreSQL connections', { skip: base ? false : 'TEST_POSTGRES_URL is not set' }, () => {
  let svc: TestService
  let database: string
  before(async () => {
    svc = await startService({ backend: 'postgres' })
    const [row] = await svc.services.db.kysely
      .selectNoFrom((eb) => eb.fn<string>('current_database', []).as('name'))
      .execute()
    database = row!.name
  })
  after(() => svc.close())

  const backends = async () =>
    admin<{ pid: number }>(
      'select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [database],
    )

  test('idle connections ended by the server are replaced; the service keeps answering', async () => {
    const s = await setupIntegration(svc)
    assert.equal((await s.sync()).body.message, 'created')
    const idle = await backends()
    assert.ok(idle.length > 0, 'the pool holds connections')
    await admin('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [database])
    // Let the pool hear about it (an unheard 'error' would end this process and fail the file): no
    // outside sign says it has, so the time passing is what lets it.
    await hold(200, 'the pool hears its connections end')
    const after = await s.sync({ title: 'after the restart' })
    assert.equal(after.body.message, 'updated', after.text)
  })

  test('a connection the server ends while it is checked out between statements does not end the service', async () => {
    // Inside a transaction the connection is out of the pool between statements: the server's
    // FATAL arrives with no query to take it. Unheard, that 'error' event would end this process.
    const failed = await svc.services.db.kysely
      .transaction()
      .execute(async (trx) => {
        const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)
        await admin('select pg_terminate_backend($1)', [rows[0]!.pid])
        await hold(200, 'the server’s FATAL reaches the checked-out connection between statements')
        await sql`select 1`.execute(trx)
      })
      .then(
        () => null,
        (err: unknown) => err,
      )
    assert.ok(failed instanceof Error, 'the transaction on the ended connection fails as a value')
    assert.equal((await svc.request('GET', '/readyz')).status, 200, 'the pool replaced the connection')
  })

  test('closing the database closes every connection before it returns', async () => {
    const name = `alertbridge_test_${randomBytes(6).toString('hex')}`
    await admin(`create database ${name}`)
    try {
      const url = new URL(base!)
      url.pathname = `/${name}`
      const db = openDatabase({ kind: 'postgres', url: url.toString() })
      await Promise.all(Array.from({ length: 8 }, () => sql`select pg_sleep(0.02)`.execute(db.kysely)))
      // Connected beforehand, so the look right after close() is one round trip away.
      const watcher = new pg.Client({ connectionString: base })
      await watcher.connect()
      const backends = async () =>
        (await watcher.query('select pid from pg_stat_activity where datname = $1', [name])).rows
      try {
        assert.ok((await backends()).length > 1)
        await db.close()
        assert.deepEqual(await backends(), [])
      } finally {
        await watcher.end()
      }
    } finally {
      await admin(`drop database if exists ${name} with (force)`)
    }
  })
})
