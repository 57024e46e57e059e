// An online backup of the embedded database with SQLite's backup API, while the service runs. The
// whole database is copied in one step, inside one read transaction: in WAL mode that is a
// consistent snapshot (every transaction committed before it, none after), and the service's writers
// are not blocked meanwhile. The copy is written beside the target under another name, switched to a
// self-contained file (no -wal beside it), checked with integrity_check, and only then renamed to the
// target, so a file with the target's name is always a complete, checked backup.
import { chmodSync, existsSync, renameSync, rmSync, statSync } from 'node:fs'
import { dirname } from 'node:path'
import SQLite from 'better-sqlite3'
import { describeDatabaseFailure } from '../../platform/db/failures.js'

/** A backup that cannot be taken; the message says why in one sentence. */
export class BackupRefusal extends Error {}

export interface BackupResult {
  pages: number
  bytes: number
}

/** better-sqlite3 copies this many pages per step: all of them, in one step. */
const allPages = 0x7fffffff

export async function backupSqlite(source: string, target: string): Promise<BackupResult> {
  if (source === ':memory:')
    throw new BackupRefusal('DATABASE_URL names an in-memory database: nothing to back up.')
  if (!existsSync(source))
    throw new BackupRefusal(`There is no database at ${source} (DATABASE_URL): nothing to back up.`)
  if (existsSync(target))
    throw new BackupRefusal(`${target} already exists: name a new file (a backup never overwrites one).`)
  if (!existsSync(dirname(target)))
    throw new BackupRefusal(`The directory ${dirname(target)} does not exist: create it first.`)

  const partial = `${target}.partial-${process.pid}`
  try {
    let db: SQLite.Database | undefined
    try {
      db = new SQLite(source, { fileMustExist: true })
      db.pragma('busy_timeout = 5000')
      await db.backup(partial, { progress: () => allPages })
    } catch (err) {
      throw describeDatabaseFailure(err, { kind: 'sqlite', path: source })
    } finally {
      db?.close()
    }
    const copy = new SQLite(partial, { fileMustExist: true })
    let pages: number
    try {
      copy.pragma('journal_mode = DELETE')
      const integrity = copy.pragma('integrity_check', { simple: true })
      if (integrity !== 'ok')
        throw new BackupRefusal(
          `The copy failed its integrity check (${String(integrity)}); the database may be damaged.`,
        )
      pages = Number(copy.pragma('page_count', { simple: true }))
    } finally {
      copy.close()
    }
    // The copy holds sealed credentials and token digests: readable by its owner only.
    chmodSync(partial, 0o600)
    renameSync(partial, target)
    return { pages, bytes: statSync(target).size }
  } finally {
    for (const leftover of [partial, `${partial}-journal`, `${partial}-wal`, `${partial}-shm`])
      rmSync(leftover, { force: true })
  }
}
