// What every PSA elsewhere (all but the built-in sandbox) sets up the same way: one instance of the
// kind's operations per connection, kept in a ConnectionPool by the connection's fingerprint, each
// with its own ConnectionLimiter and a PsaHttp that speaks for the kind (its name, its error text, its
// wait after a 429 without Retry-After). A kind states only what differs (docs/psa/README.md, "One
// connection, made once").
import type { Static, TObject } from 'typebox'
import type { PsaConnection, PsaOperations } from '../adapter.js'
import { type PsaKindDefinition, type PsaKindEntry, psaKind } from '../registry.js'
import { ConnectionPool } from './connections.js'
import { PsaHttp, type PsaHttpOptions, type PsaKindOptions } from './http.js'
import { ConnectionLimiter, type LimiterOptions } from './limiter.js'

/** What a connection's operations are made with: its HTTP core and the limiter that core runs through. */
export interface PsaWire {
  http: PsaHttp
  limiter: ConnectionLimiter
}

/** How the kind's PSA speaks: its name, its error text, its wait after a 429 without Retry-After. */
export type PsaDialect = Pick<
  PsaHttpOptions,
  'name' | 'errorText' | 'defaultRetryAfterMs' | 'textual500IsRefusal'
>

export interface RemoteKind<T extends TObject> extends Omit<PsaKindDefinition<T>, 'adapter' | 'inProcess'> {
  dialect: PsaDialect
  /** The connection's limits (the PSA's own, or those its settings give). */
  limits(settings: Static<T>): LimiterOptions
  /** The kind's operations on one connection, made once per connection. */
  connect(wire: PsaWire, conn: PsaConnection<Static<T>>): PsaOperations
}

/** A PSA kind that talks to its PSA through the service's outbound client. */
export function remotePsaKind<T extends TObject>(options: PsaKindOptions, k: RemoteKind<T>): PsaKindEntry {
  const { dialect, limits, connect, ...entry } = k
  const pool = new ConnectionPool<Static<T>, PsaOperations>((conn) => {
    const limiter = new ConnectionLimiter(limits(conn.settings))
    const http = new PsaHttp({
      ...dialect,
      http: options.http,
      log: options.log,
      requestTimeoutMs: options.requestTimeoutMs,
      limiter,
    })
    const operations = connect({ http, limiter }, conn)
    operations.budgetShare = () => limiter.share()
    return operations
  })
  return psaKind({ ...entry, adapter: (conn) => pool.of(conn) })
}
