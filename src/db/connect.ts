// Opens the database named by the configuration. This is the only file that knows which dialect is
// in use; everything above it speaks Kysely.
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import SQLite from 'better-sqlite3'
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely'
import pg from 'pg'
import type { Config } from '../config.js'
import type { Database } from './schema.js'

export type Dialect = 'sqlite' | 'postgres'

export interface Db {
  kysely: Kysely<Database>
  dialect: Dialect
  close(): Promise<void>
}

export function openDatabase(target: Config['database']): Db {
  if (target.kind === 'sqlite') {
    if (target.path !== ':memory:') mkdirSync(dirname(target.path), { recursive: true })
    const sqlite = new SQLite(target.path)
    sqlite.pragma('journal_mode = WAL')
    // FULL: a commit is on disk before the answer, so an accepted alert survives a power cut too.
    sqlite.pragma('synchronous = FULL')
    sqlite.pragma('foreign_keys = ON')
    sqlite.pragma('busy_timeout = 5000')
    const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) })
    return { kysely, dialect: 'sqlite', close: () => kysely.destroy() }
  }
  const pool = new pg.Pool({ connectionString: target.url, max: 10 })
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) })
  return { kysely, dialect: 'postgres', close: () => kysely.destroy() }
}
