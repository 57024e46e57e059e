// /readyz names each dependency it checks (the database) and answers 503 with the reason, in the
// failure shape, when the database cannot be read while the service runs: an SQLite file overwritten
// or deleted under it (the connection's cache would go on answering), a PostgreSQL database that went
// away. /healthz stays 200: the process is alive.
import assert from 'node:assert/strict'
import { rmSync, statSync, writeFileSync } from 'node:fs'
import { describe, test } from 'node:test'
import pg from 'pg'
import { backends, startService } from '../../support/service.js'
import { expectFailure } from '../../support/shapes.js'
import { startTcpProxy } from '../../support/tcp-proxy.js'
import { waitFor } from '../../support/wait.js'

describe('/readyz when the database cannot be read', () => {
  test('SQLite: a file overwritten with garbage while running answers 503 naming it', async () => {
    const svc = await startService()
    try {
      assert.deepEqual((await svc.request('GET', '/readyz')).body, {
        status: 'ok',
        checks: { database: 'ok' },
      })
      const { path } = svc.services.config.database as { path: string }
      writeFileSync(path, Buffer.alloc(statSync(path).size || 4096, 0x41))
      const res = await svc.request('GET', '/readyz')
      expectFailure(res, 503, 'DATABASE_UNAVAILABLE')
      assert.match(res.body.detail, /The database cannot be read: the SQLite file \S+ is not a database/)
      assert.deepEqual(res.body.checks, { database: 'failed' }, 'each dependency by name, in the failure too')
      assert.equal((await svc.request('GET', '/healthz')).status, 200)
    } finally {
      await svc.close()
    }
  })

  test('SQLite: a deleted file answers 503', async () => {
    const svc = await startService()
    try {
      const { path } = svc.services.config.database as { path: string }
      for (const f of [path, `${path}-wal`, `${path}-shm`]) rmSync(f, { force: true })
      const res = await svc.request('GET', '/readyz')
      expectFailure(res, 503, 'DATABASE_UNAVAILABLE')
      assert.match(res.body.detail, /the SQLite file \S+ does not exist/)
    } finally {
      await svc.close()
    }
  })

  test('PostgreSQL: a database that was dropped answers 503 naming it', {
    skip: !process.env.TEST_POSTGRES_URL && 'TEST_POSTGRES_URL is not set',
  }, async () => {
    const svc = await startService({ backend: 'postgres' })
    try {
      assert.equal((await svc.request('GET', '/readyz')).status, 200)
      const { url } = svc.services.config.database as { url: string }
      const name = new URL(url).pathname.slice(1)
      const admin = new pg.Client({ connectionString: process.env.TEST_POSTGRES_URL })
      await admin.connect()
      try {
        await admin.query(`drop database ${name} with (force)`)
      } finally {
        await admin.end()
      }
      const res = await svc.request('GET', '/readyz')
      expectFailure(res, 503, 'DATABASE_UNAVAILABLE')
      assert.match(
        res.body.detail,
        new RegExp(`The database cannot be read: the PostgreSQL database ${name} does not exist`),
      )
      assert.doesNotMatch(res.text, /postgres:\/\//)
    } finally {
      await svc.close()
    }
  })

  test('PostgreSQL + Redis: a Redis that stops answering answers 503 REDIS_UNAVAILABLE, then ok again', {
    skip:
      !backends('matrix').includes('postgres+redis') &&
      'TEST_POSTGRES_URL and TEST_REDIS_URL are not both set',
  }, async () => {
    const target = new URL(process.env.TEST_REDIS_URL!)
    let proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) })
    const port = proxy.port
    const via = new URL(process.env.TEST_REDIS_URL!)
    via.host = `127.0.0.1:${port}`
    via.password = 'redis-password-5678'
    const svc = await startService({ backend: 'postgres+redis', env: { REDIS_URL: via.toString() } })
    try {
      assert.deepEqual((await svc.request('GET', '/readyz')).body, {
        status: 'ok',
        checks: { database: 'ok', redis: 'ok' },
      })
      await proxy.close()
      const res = await svc.request('GET', '/readyz')
      expectFailure(res, 503, 'REDIS_UNAVAILABLE')
      assert.deepEqual(res.body.checks, { database: 'ok', redis: 'failed' })
      assert.match(res.body.detail, new RegExp(`Redis at 127\\.0\\.0\\.1:${port} `))
      assert.doesNotMatch(res.text, /redis-password-5678/)
      // Redis back on the same address: ready again once the connection is re-made.
      proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) }, port)
      await waitFor(async () => (await svc.request('GET', '/readyz')).status === 200, {
        what: '/readyz to answer 200 again',
        timeoutMs: 15_000,
        intervalMs: 200,
      })
    } finally {
      await svc.close()
      await proxy.close()
    }
  })
})
