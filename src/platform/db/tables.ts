// The platform's own tables: the installation's settings (the admin token's digest, the key check) and
// the counters (the sandbox PSA's ticket numbers).
// Each table joins the Database (src/platform/db/schema.ts) from here.

export interface SettingsTable {
  key: string
  value: string
}

export interface CountersTable {
  name: string
  value: number
}

declare module './schema.js' {
  interface Database {
    settings: SettingsTable
    counters: CountersTable
  }
}
