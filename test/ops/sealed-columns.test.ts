// Every column that holds a sealed value is in the one list the key check, re-sealing and the metrics
// read: a sealed column left out would stay on a retired key after a rotation, unreadable for good.
// Sealed columns are named `*_enc` by convention; this reads the migrated schema to find them all.
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { sql } from 'kysely'
import { columnName, sealedColumns } from '../../src/ops/sealed-columns.js'
import { loadConfig } from '../../src/platform/config.js'
import { openDatabase } from '../../src/platform/db/connect.js'
import { migrateToLatest } from '../../src/platform/db/migrate.js'
import { newKey } from '../support/process.js'

test('every *_enc column of the schema is in the list of sealed columns', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'alertbridge-sealed-'))
  const config = loadConfig({
    DATABASE_URL: `sqlite:${join(dir, 'a.db')}`,
    ADMIN_TOKEN: 'x'.repeat(40),
    SECRET_KEY: newKey(),
    LOG_LEVEL: 'silent',
  })
  const db = openDatabase(config.database)
  try {
    await migrateToLatest(db)
    const { rows } = await sql<{ name: string; col: string }>`
      select m.name as name, p.name as col
      from sqlite_master m join pragma_table_info(m.name) p
      where m.type = 'table' and p.name like '%\\_enc' escape '\\'`.execute(db.kysely)
    const found = rows.map((r) => `${r.name}.${r.col}`).sort()
    const listed = [...new Set(sealedColumns.map((c) => `${c.table}.${c.column}`))].sort()
    assert.ok(found.length >= 4, `found ${found.join(', ')}`)
    assert.deepEqual(found, listed, `sealed columns: ${sealedColumns.map(columnName).join(', ')}`)
  } finally {
    await db.close()
    rmSync(dir, { recursive: true, force: true })
  }
})
