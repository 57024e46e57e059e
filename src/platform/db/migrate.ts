// Runs the versioned migrations at start. The list is explicit so that a build needs no file scanning.
//
// Several processes may start together on one PostgreSQL database
// (docs/decisions/scale-out/migration-lock.md). Kysely's migrator already makes that safe, and this file
// relies on it rather than adding a lock of its own: it creates its two bookkeeping tables with
// `if not exists` and, should two processes race there, treats "already exists" as success; then it takes a
// session-level `pg_advisory_lock` on one connection and runs every pending migration in one transaction
// under it. A process that waits for the lock reads the executed list afresh once it has it, finds nothing
// pending and goes on. A process that dies mid-migration ends its session, which rolls the transaction back
// and frees the lock. test/platform/db/migrate.concurrent.test.ts starts three processes on a fresh database at
// once. SQLite needs none of this: one process owns the embedded file.
import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely'
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
import * as m0012 from './migrations/0012_job_waits.js'
import * as m0013 from './migrations/0013_row_names.js'
import * as m0014 from './migrations/0014_delivery_jobs.js'
import * as m0015 from './migrations/0015_psa_sync.js'
import * as m0016 from './migrations/0016_event_sequence.js'
import * as m0017 from './migrations/0017_idempotency_keys.js'
import * as m0018 from './migrations/0018_vendor_listening.js'
import * as m0019 from './migrations/0019_test_alerts.js'
import * as m0020 from './migrations/0020_maintenance_windows.js'
import * as m0021 from './migrations/0021_storm_control.js'
import * as m0022 from './migrations/0022_catch_all.js'
import * as m0023 from './migrations/0023_rule_templates.js'
import * as m0024 from './migrations/0024_partner_test_tickets.js'
import * as m0025 from './migrations/0025_session_devices.js'
import * as m0026 from './migrations/0026_maintenance_upcoming.js'
import * as m0027 from './migrations/0027_steps_in_use.js'
import * as m0028 from './migrations/0028_psa_tokens.js'
import * as m0029 from './migrations/0029_vendor_sandboxes.js'
import * as m0030 from './migrations/0030_tickets_closed_index.js'
import * as m0031 from './migrations/0031_psa_sync_held.js'
import type { Database } from './schema.js'

/** Every migration of this build by name (a test replays them up to a point). */
export const migrations: Readonly<Record<string, Migration>> = {
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
  '0012_job_waits': m0012,
  '0013_row_names': m0013,
  '0014_delivery_jobs': m0014,
  '0015_psa_sync': m0015,
  '0016_event_sequence': m0016,
  '0017_idempotency_keys': m0017,
  '0018_vendor_listening': m0018,
  '0019_test_alerts': m0019,
  '0020_maintenance_windows': m0020,
  '0022_catch_all': m0022,
  '0023_rule_templates': m0023,
  '0024_partner_test_tickets': m0024,
  '0025_session_devices': m0025,
  '0026_maintenance_upcoming': m0026,
  '0021_storm_control': m0021,
  '0027_steps_in_use': m0027,
  '0028_psa_tokens': m0028,
  '0029_vendor_sandboxes': m0029,
  '0030_tickets_closed_index': m0030,
  '0031_psa_sync_held': m0031,
}

const provider: MigrationProvider = { getMigrations: async () => migrations }

/** Every migration of this build, in order: the schema a database at the latest one has. */
export const migrationNames: readonly string[] = Object.keys(migrations).sort()

/** Runs what is pending; answers the names of the migrations this call applied (none: already latest). */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db: db.kysely, provider })
  const { error, results } = await migrator.migrateToLatest()
  const failed = results?.find((r) => r.status === 'Error')
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? failed?.migrationName)
    throw new Error(`database migration failed: ${reason}`)
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName)
}

/** The migrations a database has run, oldest first (none: a database never migrated). */
export async function executedMigrations(kysely: Kysely<Database>): Promise<string[]> {
  const tables = await kysely.introspection.getTables({ withInternalKyselyTables: true })
  if (!tables.some((t) => t.name === 'kysely_migration')) return []
  const rows = await (kysely as unknown as Kysely<KyselyMigrationTable>)
    .selectFrom('kysely_migration')
    .select('name')
    .orderBy('name')
    .execute()
  return rows.map((r) => r.name)
}

interface KyselyMigrationTable {
  kysely_migration: { name: string; timestamp: string }
}
