// Reads and rewrites the sealed values of every column in the declared list (sealed-columns.ts),
// whatever table they live in. Which key sealed a value is read from its prefix (`v2.<key id>.`), so
// counting needs no decryption. A rewrite is a compare-and-set on the old value: a value changed since
// it was read (a partner saving new settings, another process re-sealing it) is left as it is.
import { type Kysely, type RawBuilder, sql } from 'kysely'
import type { Database } from '../platform/db/schema.js'
import { sealedPrefix } from '../platform/security/crypto-box.js'
import { likeSealed, type SealedColumn, sealedColumns } from './sealed-columns.js'

export interface SealedCounts {
  current: number
  previous: number
  /** The first format, which names no key. */
  unversioned: number
  /** Sealed with a key that is neither the current nor the previous one. */
  other: number
}

export interface StoredSealed {
  column: SealedColumn
  id: string
  /** The column's value as stored (the sealed value, or the JSON around it). */
  stored: string
}

/** Matches no stored value: where there is no previous key. */
const nothing = 'v2.none.'

export class SealedValues {
  constructor(
    private readonly db: Kysely<Database>,
    readonly columns: readonly SealedColumn[] = sealedColumns,
  ) {}

  /** How many sealed values each key holds, over every sealed column. */
  async counts(currentKeyId: string, previousKeyId: string | null): Promise<SealedCounts> {
    const total: SealedCounts = { current: 0, previous: 0, unversioned: 0, other: 0 }
    for (const c of this.columns) {
      const col = sql.ref(c.column)
      const cur = likeSealed(c, sealedPrefix(currentKeyId))
      const prev = likeSealed(c, previousKeyId ? sealedPrefix(previousKeyId) : nothing)
      const v2 = likeSealed(c, 'v2.')
      const { rows } = await sql<{
        current: unknown
        previous: unknown
        unversioned: unknown
        total: unknown
      }>`
        select
          coalesce(sum(case when ${col} like ${cur} then 1 else 0 end), 0) as current,
          coalesce(sum(case when ${col} like ${prev} then 1 else 0 end), 0) as previous,
          coalesce(sum(case when ${col} like ${v2} then 0 else 1 end), 0) as unversioned,
          count(*) as total
        from ${sql.table(c.table)} where ${col} is not null`.execute(this.db)
      const r = rows[0]
      if (!r) continue
      const n = {
        current: Number(r.current),
        previous: Number(r.previous),
        unversioned: Number(r.unversioned),
      }
      total.current += n.current
      total.previous += n.previous
      total.unversioned += n.unversioned
      total.other += Number(r.total) - n.current - n.previous - n.unversioned
    }
    return total
  }

  /** One stored sealed value of any column, or null when the database holds none. */
  async any(): Promise<StoredSealed | null> {
    for (const c of this.columns) {
      const row = await this.first(c, sql`${sql.ref(c.column)} is not null`)
      if (row) return row
    }
    return null
  }

  /** One stored value of the first format (no key id), or null. */
  async anyUnversioned(): Promise<StoredSealed | null> {
    for (const c of this.columns) {
      const row = await this.first(c, sql`${sql.ref(c.column)} not like ${likeSealed(c, 'v2.')}`)
      if (row) return row
    }
    return null
  }

  /** Up to `limit` values of one column not sealed with `keyId`, in id order after `afterId`. */
  async notSealedWith(
    c: SealedColumn,
    keyId: string,
    afterId: string | null,
    limit: number,
  ): Promise<StoredSealed[]> {
    const col = sql.ref(c.column)
    const id = sql.ref(c.id)
    const { rows } = await sql<{ id: string; stored: string }>`
      select ${id} as id, ${col} as stored from ${sql.table(c.table)}
      where ${col} is not null and ${col} not like ${likeSealed(c, sealedPrefix(keyId))}
        ${afterId === null ? sql`` : sql`and ${id} > ${afterId}`}
      order by ${id} limit ${limit}`.execute(this.db)
    return rows.map((r) => ({ column: c, id: String(r.id), stored: r.stored }))
  }

  /** Runs `work` in one transaction, with a SealedValues that writes inside it. */
  transaction<T>(work: (tx: SealedValues) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new SealedValues(trx, this.columns)))
  }

  /** Replaces a stored value if it is still `from`; answers whether it did. */
  async replace(value: StoredSealed, to: string): Promise<boolean> {
    const c = value.column
    const result = await sql`
      update ${sql.table(c.table)} set ${sql.ref(c.column)} = ${to}
      where ${sql.ref(c.id)} = ${value.id} and ${sql.ref(c.column)} = ${value.stored}`.execute(this.db)
    return Number(result.numAffectedRows ?? 0) === 1
  }

  private async first(c: SealedColumn, where: RawBuilder<unknown>): Promise<StoredSealed | null> {
    const { rows } = await sql<{ id: string; stored: string }>`
      select ${sql.ref(c.id)} as id, ${sql.ref(c.column)} as stored from ${sql.table(c.table)}
      where ${sql.ref(c.column)} is not null and ${where} limit 1`.execute(this.db)
    const r = rows[0]
    return r ? { column: c, id: String(r.id), stored: r.stored } : null
  }
}
