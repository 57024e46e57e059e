// The statements the sandbox runs on every create, prepared (docs/psa/README.md, "One connection, made
// once"; docs/decisions/speed/hot-reads-prepared.md): its fault switch is read before each call,
// then a create numbers a ticket and inserts it. store.ts is the storage that uses them.
import { type Insertable, type Kysely, sql } from 'kysely'
import { prepared, preparedRow } from '../../platform/db/prepared.js'
import type { Database } from '../../platform/db/schema.js'
import type { SandboxTicketsTable } from './tables.js'

export const nextNumber = prepared(0, (db: Kysely<Database>) =>
  db
    .insertInto('counters')
    .values({ name: 'sandbox_ticket', value: 1001 })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value: sql`counters.value + 1` }))
    .returning('value'),
)

export const insertTicket = preparedRow((db, row: Insertable<SandboxTicketsTable>) =>
  db.insertInto('sandbox_tickets').values(row),
)

export const faultOf = prepared(1, (db: Kysely<Database>, partnerId: string) =>
  db.selectFrom('sandbox_faults').selectAll().where('partner_id', '=', partnerId),
)
