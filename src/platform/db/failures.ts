// What is wrong with the database, in a sentence an operator can act on: for the refusal at start
// and for /readyz. Built from error codes and the parts of the target that are no secret (the SQLite
// path; PostgreSQL's host, port, user and database name), never from the URL or a driver's message
// that might carry it.
import type { Config } from '../config.js'

/** The database cannot be used; `message` says why in one sentence and carries no secret. */
export class DatabaseUnavailable extends Error {
  constructor(
    message: string,
    /** Corrupt or not a database at all: restoring a backup is the way out. */
    readonly damaged = false,
  ) {
    super(message)
  }
}

interface DriverError {
  code?: unknown
  message?: unknown
}

const codeOf = (err: unknown): string =>
  err && typeof err === 'object' && typeof (err as DriverError).code === 'string'
    ? ((err as DriverError).code as string)
    : ''

/** The target's parts that are safe to show. */
function where(target: Config['database']): { host: string; database: string; user: string } {
  if (target.kind === 'sqlite') return { host: '', database: target.path, user: '' }
  try {
    const url = new URL(target.url)
    return {
      host: `${url.hostname || 'localhost'}:${url.port || '5432'}`,
      database: decodeURIComponent(url.pathname.replace(/^\//, '')) || 'postgres',
      user: decodeURIComponent(url.username),
    }
  } catch {
    return { host: '?', database: '?', user: '?' }
  }
}

export function describeDatabaseFailure(err: unknown, target: Config['database']): DatabaseUnavailable {
  if (err instanceof DatabaseUnavailable) return err
  const code = codeOf(err)
  const w = where(target)
  if (target.kind === 'sqlite') {
    const file = `the SQLite file ${w.database}`
    if (code === 'SQLITE_NOTADB')
      return new DatabaseUnavailable(`${file} is not a database (overwritten, or not SQLite)`, true)
    if (code.startsWith('SQLITE_CORRUPT'))
      return new DatabaseUnavailable(`${file} is damaged (database disk image is malformed)`, true)
    if (code === 'ENOENT') return new DatabaseUnavailable(`${file} does not exist (deleted or moved)`)
    if (code === 'EACCES' || code === 'EPERM')
      return new DatabaseUnavailable(`${file} cannot be read (no permission)`)
    if (code.startsWith('SQLITE_CANTOPEN'))
      return new DatabaseUnavailable(
        `${file} cannot be opened (missing, or no permission on it or its directory)`,
      )
    if (code === 'SQLITE_FULL') return new DatabaseUnavailable(`the disk holding ${file} is full`)
    if (code.startsWith('SQLITE_READONLY') || code === 'SQLITE_PERM')
      return new DatabaseUnavailable(`${file} cannot be written (read-only file or no permission)`)
    if (code.startsWith('SQLITE_IOERR'))
      return new DatabaseUnavailable(`${file} cannot be read or written (${code})`)
    if (code === 'SQLITE_BUSY') return new DatabaseUnavailable(`${file} is locked by another process`)
    return new DatabaseUnavailable(`${file} cannot be used (${code || 'unexpected error'})`)
  }
  const pg = `PostgreSQL at ${w.host}`
  switch (code) {
    case 'ERR_INVALID_URL':
      return new DatabaseUnavailable('the PostgreSQL URL is not valid')
    case 'ECONNREFUSED':
      return new DatabaseUnavailable(`${pg} refused the connection (not running, or another port)`)
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new DatabaseUnavailable(`the PostgreSQL host in DATABASE_URL (${w.host}) does not resolve`)
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return new DatabaseUnavailable(`${pg} cannot be reached (${code})`)
    case 'ECONNRESET':
    case '57P01':
    case '57P02':
    case '57P03':
      return new DatabaseUnavailable(`${pg} closed the connection or is shutting down or starting up`)
    case '28P01':
    case '28000':
      return new DatabaseUnavailable(
        `${pg} refused the login of user ${w.user} (wrong password, or not allowed)`,
      )
    case '3D000':
      return new DatabaseUnavailable(`the PostgreSQL database ${w.database} does not exist at ${w.host}`)
    case '42501':
      return new DatabaseUnavailable(`user ${w.user} lacks a permission on database ${w.database}`)
    case '53300':
      return new DatabaseUnavailable(`${pg} has no connection slot left (too many connections)`)
    case 'timeout':
      return new DatabaseUnavailable(`${pg} did not answer in time`)
  }
  // PostgreSQL's own messages name objects and users, never the client's password.
  if (/^[0-9A-Z]{5}$/.test(code)) {
    const said = err instanceof Error ? `: ${err.message}` : ''
    return new DatabaseUnavailable(`${pg} answered with error ${code}${said}`)
  }
  if (err instanceof Error && /timeout/i.test(err.message))
    return new DatabaseUnavailable(`${pg} did not answer in time`)
  return new DatabaseUnavailable(`${pg} cannot be used (${code || 'unexpected error'})`)
}
