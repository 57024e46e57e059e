// Copies every table of the schema from an embedded SQLite database into a PostgreSQL one, for
// `npm run migrate-data` (ops/data-move/move.ts decides whether to, this file does it). Rows are copied
// as stored: ids, timestamps (ISO text in both databases), 0/1 booleans, digests and sealed values
// byte for byte, so what the embedded installation sealed opens with the same SECRET_KEY. The whole
// copy is one PostgreSQL transaction read from one SQLite read transaction: the target ends up with
// all of it, counted and compared table by table before the commit, or with nothing.
import type SQLite from 'better-sqlite3'
import { type Kysely, sql, type Transaction } from 'kysely'
import type { Database } from '../../platform/db/schema.js'

/**
 * Every table of schema.ts, each after the tables its foreign keys name. A table added to the schema
 * and not here fails to compile (below); one a migration creates with no type in schema.ts is found
 * in the databases at run time and refused.
 */
export const copyOrder = [
  'settings',
  'counters',
  'vendors',
  'partners',
  'partner_users',
  'partner_sessions',
  'psa_sync',
  'psa_sync_pending',
  'psa_tokens',
  'psa_oauth_states',
  'integrations',
  'vendor_tokens',
  'vendor_accounts',
  'vendor_services',
  'usage_counts',
  'account_mappings',
  'service_mappings',
  'service_line_mappings',
  'usage_pushes',
  'rules',
  'tickets',
  'events',
  'psa_effects',
  'jobs',
  'webhook_deliveries',
  'webhook_attempts',
  'sandbox_tickets',
  'sandbox_notes',
  'sandbox_faults',
  'sandbox_billing_lines',
  'operator_audit',
  'idempotency_keys',
  'maintenance_windows',
  'maintenance_held',
  'storm_alerts',
  'storm_lines',
] as const satisfies readonly (keyof Database)[]

export type CopiedTable = (typeof copyOrder)[number]

/** Compiles only while every table of schema.ts is in copyOrder; otherwise the error names the one left out. */
const unplanned: [Exclude<keyof Database, CopiedTable>] extends [never]
  ? true
  : Exclude<keyof Database, CopiedTable> = true

/** A database the copy will not go into or come from; the message says why, in one sentence. */
export class CopyRefusal extends Error {}

/** Row counts per table. */
export type TableCounts = Record<CopiedTable, number>

/** The tables and columns of one database, as they are (not as schema.ts says). */
export type Layout = Map<string, string[]>

/** PostgreSQL takes at most 65,535 parameters per statement; a batch stays well under. */
const maxParameters = 30_000

export async function layoutOf(kysely: Kysely<Database>, dialect: 'sqlite' | 'postgres'): Promise<Layout> {
  const schema =
    dialect === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(kysely)).rows[0]?.schema
      : undefined
  const tables = await kysely.introspection.getTables()
  return new Map(
    tables
      // Views hold no rows of their own; tables of other schemas are not this service's.
      .filter((t) => !t.isView && (schema === undefined || t.schema === schema))
      .map((t) => [t.name, t.columns.map((c) => c.name).sort()]),
  )
}

/**
 * Refuses a pair of databases whose tables or columns are not the ones this build copies: a table
 * copyOrder does not name (nothing knows how to copy it), one it names that is missing, or a table
 * whose columns differ between the two.
 */
export function checkLayouts(source: Layout, target: Layout): void {
  for (const [name, layout] of [
    ['SQLite', source],
    ['PostgreSQL', target],
  ] as const) {
    const unknown = [...layout.keys()].filter((t) => !(copyOrder as readonly string[]).includes(t))
    if (unknown.length > 0)
      throw new CopyRefusal(
        `The ${name} database has ${plural(unknown.length, 'table')} migrate-data does not know how to copy ` +
          `(${unknown.join(', ')}); nothing was copied.`,
      )
    const missing = copyOrder.filter((t) => !layout.has(t))
    if (missing.length > 0)
      throw new CopyRefusal(
        `The ${name} database lacks ${plural(missing.length, 'table')} of this version's schema ` +
          `(${missing.join(', ')}); nothing was copied.`,
      )
  }
  for (const table of copyOrder) {
    const from = source.get(table) ?? []
    const to = target.get(table) ?? []
    const onlyFrom = from.filter((c) => !to.includes(c))
    const onlyTo = to.filter((c) => !from.includes(c))
    if (onlyFrom.length + onlyTo.length > 0)
      throw new CopyRefusal(
        `The table ${table} has different columns in the two databases (only in SQLite: ` +
          `${onlyFrom.join(', ') || 'none'}; only in PostgreSQL: ${onlyTo.join(', ') || 'none'}); nothing was copied.`,
      )
  }
}

export async function countRows(kysely: Kysely<Database>): Promise<TableCounts> {
  const counts = {} as TableCounts
  for (const table of copyOrder) {
    const row = await kysely
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
      .executeTakeFirstOrThrow()
    counts[table] = Number(row.n)
  }
  return counts
}

export interface CopyOptions {
  /** The SQLite connection (read only is enough); the copy reads it inside one read transaction. */
  source: SQLite.Database
  /** A Kysely instance over the same SQLite connection, for the counts. */
  sourceKysely: Kysely<Database>
  target: Kysely<Database>
  /** Empty the target's tables first, in the same transaction; otherwise a target with rows is refused. */
  replace: boolean
  /** Rows per INSERT, at most (fewer for wide tables). */
  batchSize?: number
  /** Called as each table is done. */
  onTable?: (table: CopiedTable, rows: number) => void
}

export interface CopyResult {
  /** The rows of each table, in the source and, before the commit, in the target: the same. */
  counts: TableCounts
  /** What the target held before, when `replace` emptied it. */
  replaced: TableCounts | null
}

/** Copies every table in one target transaction; throws (and the target is left as it was) on any difference. */
export async function copyDatabase(o: CopyOptions): Promise<CopyResult> {
  const layout = await layoutOf(o.target, 'postgres')
  checkLayouts(await layoutOf(o.sourceKysely, 'sqlite'), layout)
  o.source.prepare('begin').run()
  try {
    const counts = await countRows(o.sourceKysely)
    return await o.target.transaction().execute(async (trx) => {
      // Other writers wait until the copy commits (readers do not): a process started on the target
      // too early cannot slip a row in between the emptiness check and the copy.
      await sql`lock table ${sql.join(copyOrder.map((t) => sql.table(t)))} in exclusive mode`.execute(trx)
      const before = await countRows(trx)
      const held = copyOrder.filter((t) => before[t] > 0)
      if (held.length > 0 && !o.replace)
        throw new CopyRefusal(
          `The PostgreSQL database already holds rows (${held.map((t) => `${t}: ${before[t]}`).join(', ')}): ` +
            'migrate-data copies into an empty database; name a new one, or pass --force to replace what it holds.',
        )
      if (held.length > 0) for (const table of [...copyOrder].reverse()) await trx.deleteFrom(table).execute()
      for (const table of copyOrder) {
        const columns = layout.get(table) ?? []
        const rows = await copyTable(o.source, trx, table, columns, o.batchSize ?? 500)
        if (rows !== counts[table])
          throw new Error(`${table}: read ${rows} rows from SQLite, which counted ${counts[table]}`)
        o.onTable?.(table, rows)
      }
      // Webhook events go on numbering where the embedded database stopped (migration 0016_event_sequence).
      await sql`select setval('webhook_event_sequence', greatest(coalesce(max(value), 0), 1), coalesce(max(value), 0) > 0)
                from counters where name = 'webhook_event_sequence'`.execute(trx)
      const after = await countRows(trx)
      const differ = copyOrder.filter((t) => after[t] !== counts[t])
      if (differ.length > 0)
        throw new Error(
          `the copy's row counts differ from the source's (${differ
            .map((t) => `${t}: ${after[t]} instead of ${counts[t]}`)
            .join(', ')}); nothing was copied`,
        )
      return { counts, replaced: held.length > 0 ? before : null }
    })
  } finally {
    o.source.prepare('rollback').run()
  }
}

async function copyTable(
  source: SQLite.Database,
  trx: Transaction<Database>,
  table: CopiedTable,
  columns: string[],
  batchSize: number,
): Promise<number> {
  const size = Math.max(1, Math.min(batchSize, Math.floor(maxParameters / Math.max(1, columns.length))))
  // The table's name and columns come from copyOrder and the checked layout, never from input.
  const select = source.prepare(`select ${columns.map(quoted).join(', ')} from ${quoted(table)}`)
  const loose = trx as unknown as Kysely<Record<string, Record<string, unknown>>>
  let batch: Record<string, unknown>[] = []
  let copied = 0
  const flush = async () => {
    if (batch.length === 0) return
    try {
      await loose.insertInto(table).values(batch).execute()
    } catch (err) {
      throw new Error(`copying ${table} failed: ${err instanceof Error ? err.message : String(err)}`)
    }
    copied += batch.length
    batch = []
  }
  // The statement stays open across the awaits below; nothing else uses the SQLite connection meanwhile.
  for (const row of select.iterate() as Iterable<Record<string, unknown>>) {
    batch.push(row)
    if (batch.length >= size) await flush()
  }
  await flush()
  return copied
}

const quoted = (name: string): string => `"${name.replaceAll('"', '""')}"`

const plural = (n: number, word: string): string => (n === 1 ? `a ${word}` : `${n} ${word}s`)

void unplanned
