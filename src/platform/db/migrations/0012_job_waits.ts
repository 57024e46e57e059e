// Waiting is not failing: a job whose work was asked to wait (a PSA's Retry-After) runs again without
// spending one of its retries. `attempts` keeps counting every run (a later run knows an earlier one may
// have reached the PSA); `waits` counts the runs that only waited, so the retry schedule counts
// attempts − waits.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('jobs')
    .addColumn('waits', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('jobs').dropColumn('waits').execute()
}
