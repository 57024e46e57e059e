// Runs the versioned migrations at start. The list is explicit so that a build needs no file scanning.
import { type Migration, type MigrationProvider, Migrator } from 'kysely'
import type { Db } from './connect.js'
import * as m0001 from './migrations/0001_initial.js'
import * as m0002 from './migrations/0002_queue_and_webhooks.js'
import * as m0003 from './migrations/0003_vendor_api.js'
import * as m0004 from './migrations/0004_once_per_message.js'
import * as m0005 from './migrations/0005_real_psas.js'
import * as m0006 from './migrations/0006_psa_effects.js'
import * as m0007 from './migrations/0007_credentials.js'
import * as m0009 from './migrations/0009_retention.js'
import * as m0010 from './migrations/0010_usage_push.js'
import * as m0011 from './migrations/0011_portal_users.js'

const migrations: Record<string, Migration> = {
  '0001_initial': m0001,
  '0002_queue_and_webhooks': m0002,
  '0003_vendor_api': m0003,
  '0004_once_per_message': m0004,
  '0005_real_psas': m0005,
  '0006_psa_effects': m0006,
  '0007_credentials': m0007,
  '0009_retention': m0009,
  '0010_usage_push': m0010,
  '0011_portal_users': m0011,
}

const provider: MigrationProvider = { getMigrations: async () => migrations }

export async function migrateToLatest(db: Db): Promise<void> {
  const migrator = new Migrator({ db: db.kysely, provider })
  const { error, results } = await migrator.migrateToLatest()
  const failed = results?.find((r) => r.status === 'Error')
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? failed?.migrationName)
    throw new Error(`database migration failed: ${reason}`)
  }
}
