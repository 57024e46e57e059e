// Every repository over one connection (or one transaction). `transaction` hands the callback a
// Store whose repositories all write inside the same transaction.
//
// The Store knows no table of any feature: each module adds its repositories where it defines them
// (docs/architecture.md#tables-and-repositories). A repository file declares its member on
// `Repositories` and registers how it is made:
//
//   declare module '../../platform/db/store.js' {
//     interface Repositories { tickets: TicketRepository }
//   }
//   defineRepository('tickets', (kysely) => new TicketRepository(kysely))
//
// A repository is made the first time a Store's member is read, once per Store: a transaction's Store
// makes only the repositories its work uses, and making a Store costs nothing per repository. The
// members are getters of the class, so a spread of a Store (`{ ...store }`) carries no repository:
// hand a function the members it reads (`{ storms: store.storms, tickets: store.tickets }`).
import type SQLite from 'better-sqlite3'
import { type Kysely, sql } from 'kysely'
import type { CryptoBox } from '../security/crypto-box.js'
import type { Database } from './schema.js'

/** Every module's repositories, by their Store member's name (filled in by declaration merging). */
// biome-ignore lint/suspicious/noEmptyInterface: the modules' repository files add the members.
export interface Repositories {}

type Make<K extends keyof Repositories> = (kysely: Kysely<Database>, box: CryptoBox) => Repositories[K]
const registered = new Set<string>()

/**
 * Registers how a Store makes one module's repository: a member `name` on every Store (a getter of the
 * class), made on its first read from the Store's connection (or transaction) and the key ring, and kept
 * for that Store. Each name is registered once.
 */
export function defineRepository<K extends keyof Repositories>(name: K, make: Make<K>): void {
  if (registered.has(name)) throw new Error(`the repository ${name} is registered twice`)
  registered.add(name)
  Object.defineProperty(Store.prototype, name, {
    configurable: true,
    get(this: Store) {
      let repository = this.made.get(name)
      if (repository === undefined) {
        repository = make(this.kysely, this.box)
        this.made.set(name, repository)
      }
      return repository
    },
  })
}

/** The names every repository is registered under. */
export function registeredRepositories(): ReadonlySet<string> {
  return registered
}

export interface Store extends Readonly<Repositories> {}

// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface adds the registered repositories.
export class Store {
  constructor(
    readonly kysely: Kysely<Database>,
    /** @internal The key ring the repositories that seal values are made with. */
    readonly box: CryptoBox,
    private readonly inTransaction = false,
    /** The embedded connection, when the database is SQLite: savepoints skip the query builder. */
    private readonly sqlite: SQLite.Database | null = null,
  ) {}

  /** @internal The repositories this Store has made so far, by name (defineRepository's getters keep them). */
  readonly made = new Map<string, unknown>()

  async transaction<T>(work: (tx: Store) => Promise<T>): Promise<T> {
    if (this.inTransaction) return work(this)
    return this.kysely.transaction().execute((trx) => work(new Store(trx, this.box, true, this.sqlite)))
  }

  /**
   * Inside a transaction: runs `work` under a savepoint; if it throws, what it wrote is rolled back (the
   * transaction's earlier writes stay) and the error is thrown on. On SQLite the transaction holds the one
   * connection, so the savepoint statements run on it directly (its statement cache, connect.ts, prepares
   * each once): the write batches use one per write (docs/decisions/speed/write-batcher.md).
   */
  async savepoint<T>(name: string, work: () => Promise<T>): Promise<T> {
    return this.savepointUnless(name, async () => ({ keep: true, value: await work() }))
  }

  /**
   * The same, where `work` says whether to keep what it wrote: `keep: false` rolls its writes back
   * (the transaction's earlier writes stay) and answers its value, without an exception (another
   * attempt got there first, say). A throw still rolls back and is thrown on.
   */
  async savepointUnless<T>(name: string, work: () => Promise<{ keep: boolean; value: T }>): Promise<T> {
    const sqlite = this.sqlite
    const run = sqlite
      ? async (statement: string) => {
          sqlite.prepare(statement).run()
        }
      : async (statement: string) => {
          await sql.raw(statement).execute(this.kysely)
        }
    await run(`savepoint ${name}`)
    let done: { keep: boolean; value: T }
    try {
      done = await work()
    } catch (err) {
      await run(`rollback to savepoint ${name}`)
      await run(`release savepoint ${name}`)
      throw err
    }
    if (!done.keep) await run(`rollback to savepoint ${name}`)
    await run(`release savepoint ${name}`)
    return done.value
  }
}
