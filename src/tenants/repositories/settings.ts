import type { Kysely } from 'kysely'
import type { Database } from '../../platform/db/schema.js'
import { defineRepository } from '../../platform/db/store.js'

export class SettingsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async get(key: string): Promise<string | null> {
    const r = await this.db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst()
    return r?.value ?? null
  }

  /** Sets the value only if the key is absent; answers whether this call set it. */
  async setIfAbsent(key: string, value: string): Promise<boolean> {
    const r = await this.db
      .insertInto('settings')
      .values({ key, value })
      .onConflict((oc) => oc.column('key').doNothing())
      .executeTakeFirst()
    return Number(r.numInsertedOrUpdatedRows ?? 0) === 1
  }

  /** Replaces the value only if it is still `expected`; answers whether this call replaced it. */
  async compareAndSet(key: string, expected: string, value: string): Promise<boolean> {
    const r = await this.db
      .updateTable('settings')
      .set({ value })
      .where('key', '=', key)
      .where('value', '=', expected)
      .executeTakeFirst()
    return Number(r.numUpdatedRows ?? 0) === 1
  }

  /** Sets the value, whether or not the key exists. */
  async put(key: string, value: string): Promise<void> {
    await this.db
      .insertInto('settings')
      .values({ key, value })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
      .execute()
  }
}

declare module '../../platform/db/store.js' {
  interface Repositories {
    settings: SettingsRepository
  }
}
defineRepository('settings', (kysely) => new SettingsRepository(kysely))
