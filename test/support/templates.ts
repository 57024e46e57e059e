// Migrated, empty databases to copy: a test service starts on a copy instead of running every
// migration on a fresh database (most of a start's time on a loaded machine: the migrations' many
// small commits). `npm test` makes both templates once per run (scripts/test.mjs runs
// make-templates.ts) and names them in TEST_SQLITE_TEMPLATE and
// TEST_POSTGRES_TEMPLATE; a file run on its own makes its own on first use, once per process. The
// service still runs its migrator at start and finds nothing pending, so a migration that a
// template lacks is still applied. Suites about migrations themselves start on empty databases
// (postgresDatabase() without a template, or their own files).
import { createHash, randomBytes } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { loadConfig } from '../../src/platform/config.js'
import { openDatabase } from '../../src/platform/db/connect.js'
import { migrateToLatest } from '../../src/platform/db/migrate.js'

/**
 * What the templates are a copy of: the migrations' sources as the repository holds them (tests
 * find the repository by the working directory). A changed migration makes a new PostgreSQL
 * template name, so a template left by an older checkout is never used.
 */
function migrationsDigest(): string {
  const dir = join(process.cwd(), 'src', 'platform', 'db', 'migrations')
  const hash = createHash('sha256')
  for (const file of readdirSync(dir).sort()) hash.update(file).update(readFileSync(join(dir, file)))
  return hash.digest('hex').slice(0, 12)
}

async function migrate(databaseUrl: string): Promise<void> {
  const config = loadConfig({ DATABASE_URL: databaseUrl, SECRET_KEY: randomBytes(32).toString('base64') })
  const db = openDatabase(config.database)
  try {
    await migrateToLatest(db)
  } finally {
    await db.close()
  }
}

let sqlite: Promise<string> | undefined

/** The path of a migrated, empty SQLite file (closed, its WAL folded in): copy it, never open it. */
export function sqliteTemplate(): Promise<string> {
  const named = process.env.TEST_SQLITE_TEMPLATE
  if (named) return Promise.resolve(named)
  sqlite ??= (async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'alertbridge-template-')), 'alertbridge.db')
    await migrate(`sqlite:${path}`)
    return path
  })()
  return sqlite
}

async function onServer<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await run(client)
  } finally {
    await client.end()
  }
}

let postgres: Promise<string> | undefined

/**
 * The name of a migrated, empty database on TEST_POSTGRES_URL's server, for `create database …
 * template …`. Its name starts like every test database's, so CI's clean-up drops it with them.
 * Made under an advisory lock: processes that start together make it once.
 */
export function postgresTemplate(): Promise<string> {
  const named = process.env.TEST_POSTGRES_TEMPLATE
  if (named) return Promise.resolve(named)
  postgres ??= (async () => {
    const base = process.env.TEST_POSTGRES_URL!
    const name = `alertbridge_test_template_${migrationsDigest()}`
    await onServer(base, async (client) => {
      await client.query('select pg_advisory_lock(8802411)')
      try {
        const found = await client.query('select 1 from pg_database where datname = $1', [name])
        if (found.rowCount) return
        // Made under another name and renamed when complete: a process that died half-way leaves
        // no template that looks finished.
        const building = `${name}_${randomBytes(4).toString('hex')}`
        await client.query(`create database ${building}`)
        const url = new URL(base)
        url.pathname = `/${building}`
        await migrate(url.toString())
        await client.query(`alter database ${building} rename to ${name}`)
      } finally {
        await client.query('select pg_advisory_unlock(8802411)')
      }
    })
    return name
  })()
  return postgres
}
