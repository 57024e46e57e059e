// The decision table's cases are named, not numbered (docs/decision-table.md): the effects written
// down before this build carry the old numbers in `row` and are renamed, so a retry still adopts them.
import { type Kysely, sql } from 'kysely'

const names: Record<string, string> = {
  '9': 'repeat',
  '11': 'create',
  '14': 'update',
  '17': 'already-closed',
  '18': 'close',
}

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [number, name] of Object.entries(names))
    await sql`update psa_effects set row = ${name} where row = ${number}`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [number, name] of Object.entries(names))
    await sql`update psa_effects set row = ${number} where row = ${name}`.execute(db)
}
