// Moves an embedded installation's data to PostgreSQL (`npm run migrate-data -- --from sqlite:<path>
// --to postgres://…`, docs/deploy.md). It refuses, before copying anything, a source that is not at
// this version's schema, a SECRET_KEY that does not open what the source sealed (the PostgreSQL
// processes will need that same key), and a target that already holds rows unless --force; then it
// migrates the target, copies every table in one transaction (copy.ts) and counts again after the
// commit. The source is opened read only and never changed.
import { dirname, join } from 'node:path'
import { parseArgs } from 'node:util'
import SQLite from 'better-sqlite3'
import { Kysely, SqliteDialect } from 'kysely'
import { loadConfig } from '../../platform/config.js'
import { openDatabase } from '../../platform/db/connect.js'
import { describeDatabaseFailure } from '../../platform/db/failures.js'
import { executedMigrations, migrateToLatest, migrationNames } from '../../platform/db/migrate.js'
import type { Database } from '../../platform/db/schema.js'
import { createKeyRing } from '../../platform/security/crypto-box.js'
import { judgeDatabaseKeys } from '../secret-key.js'
import { CopyRefusal, copyDatabase, copyOrder, countRows, type TableCounts } from './copy.js'

export { CopyRefusal }

export const usage =
  'usage: npm run migrate-data -- --from sqlite:<path> --to postgres://user:password@host:5432/db [--force]\n' +
  '  SECRET_KEY (and SECRET_KEY_PREVIOUS during a rotation) must be the key the SQLite installation sealed\n' +
  '  its credentials with: the PostgreSQL processes will run with it. --force replaces what the target holds.\n'

/** A command line that cannot be run; the CLI prints it with the usage. */
export class UsageError extends Error {}

export interface MoveRequest {
  sqlitePath: string
  postgresUrl: string
  force: boolean
  batchSize: number
  secretKey: string
  secretKeyPrevious: string | undefined
}

/** Reads the command line and the environment (SECRET_KEY, SECRET_KEY_PREVIOUS) into a request. */
export function moveRequest(argv: string[], env: Record<string, string | undefined>): MoveRequest {
  let values: { from?: string; to?: string; force?: boolean; 'batch-size'?: string }
  try {
    values = parseArgs({
      args: argv,
      options: {
        from: { type: 'string' },
        to: { type: 'string' },
        force: { type: 'boolean', default: false },
        'batch-size': { type: 'string' },
      },
      strict: true,
      allowPositionals: false,
    }).values
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err))
  }
  const { from, to } = values
  if (!from?.startsWith('sqlite:') || from.length === 'sqlite:'.length)
    throw new UsageError(
      '--from must name the embedded database: sqlite:<path> (e.g. sqlite:./data/alertbridge.db).',
    )
  if (from === 'sqlite::memory:') throw new UsageError('--from names an in-memory database: nothing to move.')
  if (!to || !/^postgres(ql)?:\/\/.+/.test(to))
    throw new UsageError(
      '--to must name the PostgreSQL database: postgres://user:password@host:5432/database.',
    )
  const batchSize = values['batch-size'] === undefined ? 500 : Number(values['batch-size'])
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 10_000)
    throw new UsageError('--batch-size must be a whole number from 1 to 10000.')
  const sqlitePath = from.slice('sqlite:'.length)
  if (!env.SECRET_KEY)
    throw new CopyRefusal(
      'SECRET_KEY is not set: set it to the key the SQLite installation sealed its credentials with, which ' +
        'the PostgreSQL processes will run with too. Unless that installation ran with SECRET_KEY, its key ' +
        `is the file ${join(dirname(sqlitePath), 'secret.key')}: export SECRET_KEY="$(cat ${join(dirname(sqlitePath), 'secret.key')})".`,
    )
  // The same checks of the keys' form as the service's start (config.ts), with the target as its database.
  const config = loadConfig({ ...env, DATABASE_URL: to })
  return {
    sqlitePath,
    postgresUrl: to,
    force: values.force ?? false,
    batchSize,
    secretKey: config.secretKey!,
    secretKeyPrevious: config.secretKeyPrevious,
  }
}

export interface MoveReport {
  counts: TableCounts
  /** What --force replaced, if the target held rows. */
  replaced: TableCounts | null
  migrated: string[]
  ms: number
}

export async function moveData(r: MoveRequest, out: (line: string) => void): Promise<MoveReport> {
  const started = Date.now()
  const sqlite = openSource(r.sqlitePath)
  const source = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) })
  const target = openDatabase({ kind: 'postgres', url: r.postgresUrl })
  try {
    await checkSourceLevel(source, r.sqlitePath)
    const ring = createKeyRing(r.secretKey, r.secretKeyPrevious)
    const verdict = await judgeDatabaseKeys(source, ring, { kind: 'env' }, r.secretKeyPrevious !== undefined)
    if (!verdict.ok) throw new CopyRefusal(`${verdict.refusal} Nothing was copied.`)

    await target.check({ timeoutMs: 30_000 })
    const migrated = await migrateToLatest(target)
    if (migrated.length > 0) out(`migrated the PostgreSQL database to ${migrated.at(-1)}`)
    out(`copying ${copyOrder.length} tables from ${r.sqlitePath} in one transaction…`)
    const width = Math.max(...copyOrder.map((t) => t.length))
    const result = await copyDatabase({
      source: sqlite,
      sourceKysely: source,
      target: target.kysely,
      replace: r.force,
      batchSize: r.batchSize,
      onTable: (table, rows) => out(`  ${table.padEnd(width)} ${String(rows).padStart(9)}`),
    })
    if (result.replaced) {
      const rows = Object.values(result.replaced).reduce((a, b) => a + b, 0)
      out(`--force: replaced the ${rows} rows the PostgreSQL database held`)
    }
    // Counted once more after the commit, outside the copy's transaction: what the processes will see.
    const after = await countRows(target.kysely)
    const differ = copyOrder.filter((t) => after[t] !== result.counts[t])
    if (differ.length > 0)
      throw new Error(
        `after the commit the PostgreSQL database holds other counts than the source ` +
          `(${differ.map((t) => `${t}: ${after[t]}, SQLite ${result.counts[t]}`).join('; ')}): was a process running on it?`,
      )
    const total = Object.values(result.counts).reduce((a, b) => a + b, 0)
    const ms = Date.now() - started
    out(
      `verified: ${total} rows in ${copyOrder.length} tables, each table's count equal to the source's (${ms} ms)`,
    )
    return { counts: result.counts, replaced: result.replaced, migrated, ms }
  } finally {
    await source.destroy()
    await target.close()
  }
}

/** The SQLite file, read only, after a quick_check of every page (as at a start). */
function openSource(path: string): SQLite.Database {
  let sqlite: SQLite.Database | undefined
  try {
    sqlite = new SQLite(path, { readonly: true, fileMustExist: true })
    sqlite.pragma('busy_timeout = 5000')
    const check = sqlite.pragma('quick_check', { simple: true })
    if (check !== 'ok')
      throw new CopyRefusal(`The SQLite file ${path} is damaged (${String(check)}); nothing was copied.`)
    return sqlite
  } catch (err) {
    sqlite?.close()
    if (err instanceof CopyRefusal) throw err
    throw describeDatabaseFailure(err, { kind: 'sqlite', path })
  }
}

/** The source must be at this version's latest migration: the copy's columns are this version's. */
async function checkSourceLevel(source: Kysely<Database>, path: string): Promise<void> {
  const executed = await executedMigrations(source)
  if (executed.length === 0)
    throw new CopyRefusal(
      `${path} is not an alertbridge database (it has no migrations); nothing was copied.`,
    )
  const newer = executed.filter((m) => !migrationNames.includes(m))
  if (newer.length > 0)
    throw new CopyRefusal(
      `${path} was written by a newer alertbridge (migration ${newer.at(-1)}): move it with that version.`,
    )
  const pending = migrationNames.filter((m) => !executed.includes(m))
  if (pending.length > 0)
    throw new CopyRefusal(
      `${path} is at migration ${executed.at(-1)}, this version's schema at ${migrationNames.at(-1)}: start this ` +
        'version on it once (it migrates at start), stop it, then move it. Nothing was copied.',
    )
}
