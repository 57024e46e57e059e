// Hot queries built and compiled once (docs/decisions/speed/hot-reads-prepared.md). Kysely builds and
// compiles every query afresh, which on the alert path cost more than running it (a profile of the accept
// path put one three-table read at 15 % of CPU, two thirds of it building). A prepared query is built once
// with placeholder values, compiled for the connection's dialect, and then only binds the values of each
// call; the SQL text is the same every time, so SQLite's statement cache (connect.ts) reuses its prepared
// statement too.
import { type Compilable, CompiledQuery, type Kysely, type QueryResult } from 'kysely'
import type { Database } from './schema.js'

/** Stands for the i-th argument while the query is compiled; never a value a caller passes. */
const placeholder = (i: number) => `\u0000prepared-argument-${i}\u0000`

export type Prepared<A extends readonly unknown[], R> = (db: Kysely<Database>, ...args: A) => Promise<R[]>

/** A query compiled once per dialect, whose calls only bind their values. */
function compiledOnce<A extends readonly unknown[], R>(
  arity: number,
  build: (db: Kysely<Database>, ...args: A) => Compilable<R>,
): (db: Kysely<Database>, args: A) => Promise<QueryResult<R>> {
  const compiled = new WeakMap<object, { sql: string; bind: (args: A) => unknown[] }>()
  return (db, args) => {
    // Transactions share their database's adapter: one compilation serves both.
    const key = db.getExecutor().adapter
    let c = compiled.get(key)
    if (!c) {
      const names = Array.from({ length: arity }, (_, i) => placeholder(i))
      const q = build(db, ...(names as unknown as A)).compile()
      const slots = q.parameters.map((p) => (typeof p === 'string' ? names.indexOf(p) : -1))
      if (slots.filter((s) => s >= 0).length < arity)
        throw new Error('prepared: every argument must be used as a value of the query')
      const constants = [...q.parameters]
      c = { sql: q.sql, bind: (a) => slots.map((s, i) => (s >= 0 ? a[s] : constants[i])) }
      compiled.set(key, c)
    }
    return db.executeQuery<R>(CompiledQuery.raw(c.sql, c.bind(args)))
  }
}

/**
 * `build` makes the query from its arguments (each used only as a value); what it returns rows of.
 * The compiled form is kept per Kysely instance's dialect (a transaction compiles like its database).
 */
export function prepared<A extends readonly unknown[], R>(
  arity: A['length'],
  build: (db: Kysely<Database>, ...args: A) => Compilable<R>,
): Prepared<A, R> {
  const run = compiledOnce(arity, build)
  return async (db, ...args) => (await run(db, args)).rows
}

/** As `prepared`, answering the whole result: a write's rows affected as well as any rows it returns. */
export function preparedResult<A extends readonly unknown[], R>(
  arity: A['length'],
  build: (db: Kysely<Database>, ...args: A) => Compilable<R>,
): (db: Kysely<Database>, ...args: A) => Promise<QueryResult<R>> {
  const run = compiledOnce(arity, build)
  return (db, ...args) => run(db, args)
}

/**
 * A write of one object of values (an INSERT's row, an UPDATE's fields), prepared the same way: the
 * object's keys at the first call fix the query, and every call must give the same keys (a missing
 * one would make Kysely leave its column out). Answers the whole result: rows and rows affected.
 */
export function preparedRow<V extends Record<string, unknown>, R>(
  build: (db: Kysely<Database>, values: V) => Compilable<R>,
): (db: Kysely<Database>, values: V) => Promise<QueryResult<R>> {
  let keys: string[] | null = null
  let run: ((db: Kysely<Database>, args: unknown[]) => Promise<QueryResult<R>>) | null = null
  return (db, values) => {
    if (!keys || !run) {
      const fixed = Object.keys(values)
      keys = fixed
      run = compiledOnce(fixed.length, (d, ...args: unknown[]) =>
        build(d, Object.fromEntries(fixed.map((k, i) => [k, args[i]])) as V),
      )
    }
    const k = keys
    if (Object.keys(values).length !== k.length || k.some((name) => !(name in values)))
      throw new Error(`preparedRow: the values must have exactly the keys ${k.join(', ')}`)
    return run(
      db,
      k.map((name) => values[name]),
    )
  }
}
