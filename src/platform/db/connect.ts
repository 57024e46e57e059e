// Opens the database named by the configuration. This is the only file that knows which dialect is
// in use; everything above it speaks Kysely.
import { closeSync, mkdirSync, openSync, readSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname } from 'node:path'
import SQLite from 'better-sqlite3'
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely'
import { LRUCache } from 'lru-cache'
import type pg from 'pg'
import type { Config } from '../config.js'
import { DatabaseUnavailable, describeDatabaseFailure } from './failures.js'
import type { Database } from './schema.js'

export type Dialect = 'sqlite' | 'postgres'

export interface Db {
  kysely: Kysely<Database>
  dialect: Dialect
  /**
   * The embedded connection, with the statement cache Kysely uses (the same SQL text is prepared
   * once), for the hot paths that skip the query builder; null on PostgreSQL.
   */
  sqlite: SQLite.Database | null
  /**
   * Throws DatabaseUnavailable (one sentence, no secret) when the database cannot be read. `thorough`
   * (at start) also checks every page of an SQLite file; otherwise it is cheap enough for /readyz.
   */
  check(options?: { thorough?: boolean; timeoutMs?: number }): Promise<void>
  close(): Promise<void>
}

export interface OpenOptions {
  /** A pooled PostgreSQL connection failed (a restart, a terminated backend); the pool replaces it. */
  onIdleError?: (err: Error) => void
  /**
   * Hears the text of every statement the connection runs (transaction control included): what the
   * cost-per-alert test counts (docs/performance.md#statements-per-alert). Nothing is hooked without it.
   */
  onStatement?: (sql: string) => void
}

export function openDatabase(target: Config['database'], options: OpenOptions = {}): Db {
  if (target.kind === 'sqlite') {
    let sqlite: SQLite.Database | undefined
    try {
      if (target.path !== ':memory:') mkdirSync(dirname(target.path), { recursive: true })
      const hear = options.onStatement
      sqlite = new SQLite(target.path, hear ? { verbose: (sql) => hear(String(sql)) } : {})
      sqlite.pragma('journal_mode = WAL')
      // FULL: a commit is on disk before the answer, so an accepted alert survives a power cut too.
      sqlite.pragma('synchronous = FULL')
      sqlite.pragma('foreign_keys = ON')
      sqlite.pragma('busy_timeout = 5000')
    } catch (err) {
      sqlite?.close()
      throw describeDatabaseFailure(err, target)
    }
    const cached = withStatementCache(sqlite)
    const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: cached }) })
    const main = sqlite
    return {
      kysely,
      dialect: 'sqlite',
      sqlite: cached,
      check: async (o = {}) => checkSqlite(main, target.path, o.thorough ?? false),
      close: () => kysely.destroy(),
    }
  }
  // Loaded only where PostgreSQL is used: the embedded default never pays for the driver.
  const { Pool } = createRequire(import.meta.url)('pg') as typeof pg
  const pool = new Pool({ connectionString: target.url, max: 10 })
  // A connection the server ends (a restart, a terminated backend, a dropped database) reports it as
  // an 'error' event, which unheard would end the process. The pool hears it only while the
  // connection is idle in it; while it is checked out between two statements (inside a transaction)
  // no one would. So every connection gets a listener of its own, which reports the failure once; the
  // query that next uses the connection fails as a value, and the pool drops the connection when it
  // comes back. The pool's own event is then the same failure again.
  pool.on('connect', (client) => client.on('error', (err) => options.onIdleError?.(err)))
  pool.on('error', () => {})
  const hear = options.onStatement
  const kysely = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    ...(hear ? { log: (event) => hear(event.query.sql) } : {}),
  })
  const connections = openConnections(pool)
  return {
    kysely,
    dialect: 'postgres',
    sqlite: null,
    async check(o = {}) {
      const timeoutMs = o.timeoutMs ?? 5000
      let timer: NodeJS.Timeout | undefined
      const timeout = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(Object.assign(new Error('timeout'), { code: 'timeout' })), timeoutMs)
      })
      try {
        await Promise.race([sql`select 1`.execute(kysely), timeout])
      } catch (err) {
        throw describeDatabaseFailure(err, target)
      } finally {
        clearTimeout(timer)
      }
    },
    async close() {
      await kysely.destroy()
      await connections.closed()
    },
  }
}

/**
 * The live connection keeps pages in its cache (and recent pages in the WAL) and would go on
 * answering from them over a file that was overwritten or deleted; so the file's header is read as it
 * is now, and a fresh read-only connection opens it. At start, a quick_check reads every page.
 */
/** The first 16 bytes of every SQLite database file. */
const sqliteMagic = Buffer.from('SQLite format 3\0', 'latin1')

function checkSqlite(main: SQLite.Database, path: string, thorough: boolean): void {
  const target = { kind: 'sqlite', path } as const
  try {
    if (thorough) {
      const result = main.pragma('quick_check', { simple: true })
      if (result !== 'ok')
        throw new DatabaseUnavailable(`the SQLite file ${path} is damaged (${String(result)})`, true)
      return
    }
    if (path === ':memory:') {
      main.prepare('select count(*) from sqlite_master').get()
      return
    }
    const header = Buffer.alloc(sqliteMagic.length)
    const fd = openSync(path, 'r')
    try {
      const read = readSync(fd, header, 0, header.length, 0)
      if (read > 0 && !header.subarray(0, read).equals(sqliteMagic.subarray(0, read)))
        throw Object.assign(new Error('file is not a database'), { code: 'SQLITE_NOTADB' })
    } finally {
      closeSync(fd)
    }
    const fresh = new SQLite(path, { readonly: true, fileMustExist: true })
    try {
      fresh.prepare('select count(*) from sqlite_master').get()
    } finally {
      fresh.close()
    }
  } catch (err) {
    throw describeDatabaseFailure(err, target)
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
