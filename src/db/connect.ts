// Opens the database named by the configuration. This is the only file that knows which dialect is
// in use; everything above it speaks Kysely.
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import SQLite from 'better-sqlite3'
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely'
import { LRUCache } from 'lru-cache'
import pg from 'pg'
import type { Config } from '../config.js'
import type { Database } from './schema.js'

export type Dialect = 'sqlite' | 'postgres'

export interface Db {
  kysely: Kysely<Database>
  dialect: Dialect
  /** The embedded connection itself, for the queue's hot insert; null on PostgreSQL. */
  sqlite: SQLite.Database | null
  close(): Promise<void>
}

export interface OpenOptions {
  /** A pooled PostgreSQL connection failed while idle (a restart, a terminated backend). */
  onIdleError?: (err: Error) => void
}

export function openDatabase(target: Config['database'], options: OpenOptions = {}): Db {
  if (target.kind === 'sqlite') {
    if (target.path !== ':memory:') mkdirSync(dirname(target.path), { recursive: true })
    const sqlite = new SQLite(target.path)
    sqlite.pragma('journal_mode = WAL')
    // FULL: a commit is on disk before the answer, so an accepted alert survives a power cut too.
    sqlite.pragma('synchronous = FULL')
    sqlite.pragma('foreign_keys = ON')
    sqlite.pragma('busy_timeout = 5000')
    const kysely = new Kysely<Database>({
      dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
    })
    return { kysely, dialect: 'sqlite', sqlite, close: () => kysely.destroy() }
  }
  const pool = new pg.Pool({ connectionString: target.url, max: 10 })
  // pg reports an idle connection's failure on the pool, which replaces the connection. Unheard,
  // that 'error' event would end the process.
  pool.on('error', (err) => options.onIdleError?.(err))
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) })
  const connections = openConnections(pool)
  return {
    kysely,
    dialect: 'postgres',
    sqlite: null,
    async close() {
      await kysely.destroy()
      await connections.closed()
    },
  }
}

/**
 * `pool.end()` resolves once it has asked every connection to end, not once they have. A caller
 * that drops the database or exits right after would see connections still closing.
 */
function openConnections(pool: pg.Pool): { closed(): Promise<void> } {
  const open = new Set<pg.PoolClient>()
  let allClosed: (() => void) | null = null
  pool.on('connect', (client) => open.add(client))
  pool.on('remove', (client) => {
    open.delete(client)
    if (open.size === 0) allClosed?.()
  })
  return {
    closed: () =>
      open.size === 0
        ? Promise.resolve()
        : new Promise((resolve) => {
            allClosed = resolve
          }),
  }
}

/**
 * Kysely prepares every query afresh; preparing costs as much as running a small query. The same SQL
 * text reuses its prepared statement instead. Safe because Kysely runs one query at a time on this
 * connection and never streams here (a statement is busy only while it iterates).
 */
function withStatementCache(db: SQLite.Database): SQLite.Database {
  const statements = new LRUCache<string, SQLite.Statement>({ max: 1000 })
  const prepare = (source: string): SQLite.Statement => {
    let statement = statements.get(source)
    if (!statement) {
      statement = db.prepare(source)
      statements.set(source, statement)
    }
    return statement
  }
  return new Proxy(db, {
    get(target, property) {
      if (property === 'prepare') return prepare
      const value = Reflect.get(target, property, target)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}
