// `npm run backup -- <file>`: an online backup of the embedded SQLite database named by DATABASE_URL,
// taken while the service runs (ops/backup/sqlite.ts). PostgreSQL has its own tools (pg_dump); see
// docs/operations.md for both, and for restoring.

import { ConfigError, loadConfig } from '../../platform/config.js'
import { DatabaseUnavailable } from '../../platform/db/failures.js'
import { BackupRefusal, backupSqlite } from './sqlite.js'

async function main(): Promise<number> {
  const target = process.argv.slice(2).find((a) => !a.startsWith('-'))
  if (!target) {
    process.stderr.write('usage: npm run backup -- <file>   (the file must not exist yet)\n')
    return 2
  }
  const config = loadConfig(process.env)
  if (config.database.kind === 'postgres') {
    process.stderr.write(
      'backup: DATABASE_URL names PostgreSQL; this command backs up the embedded SQLite database only. ' +
        'Back PostgreSQL up with pg_dump (see docs/operations.md).\n',
    )
    return 1
  }
  const started = Date.now()
  const result = await backupSqlite(config.database.path, target)
  const mb = (result.bytes / 1024 / 1024).toFixed(1)
  process.stdout.write(
    `backed up ${config.database.path} to ${target}: ${result.pages} pages (${mb} MiB), integrity ok, ` +
      `${Date.now() - started} ms\n`,
  )
  return 0
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`)
      process.exit(2)
    }
    // Refusals and database failures are one sentence; anything else is shown without its stack.
    const known = err instanceof BackupRefusal || err instanceof DatabaseUnavailable
    const text = err instanceof Error ? err.message : String(err)
    process.stderr.write(`backup: ${known ? text : `the backup failed: ${text}`}\n`)
    process.exit(1)
  },
)
