// The database as Kysely sees it. Booleans are stored as 0/1 integers and timestamps as ISO-8601 UTC
// text, so that SQLite and PostgreSQL run the same queries; repositories convert at the edge.
//
// `Database` knows no table of any feature: each module adds its tables where it defines them
// (a `tables.ts` of the module, docs/architecture.md#tables-and-repositories), by declaration merging:
//
//   declare module '../platform/db/schema.js' {
//     interface Database { tickets: TicketsTable }
//   }
//
// A migration's columns join their table's interface there.

// biome-ignore lint/suspicious/noEmptyInterface: the modules' tables.ts add the tables.
export interface Database {}
