// The job queue's table (docs/architecture.md#one-scheduler).
// Each table joins the Database (src/platform/db/schema.ts) from here.
import type { Generated } from 'kysely'

export interface JobsTable {
  id: string
  kind: string
  dedupe_key: string | null
  payload: string
  attempts: number
  run_at: string
  lease_token: string | null
  last_error: string | null
  /** Set when the job is dead: its payload does not fit its kind (last_error says why). */
  failed_at: string | null
  /** Jobs of one group (an alert job: its partner) are held to a number in flight at once. */
  group_key: string | null
  created_at: string
  /** Set while the job waits for its key (a disabled tenant) to be resumed. */
  hold_key: Generated<string | null>
  /** Runs that only waited as they were asked to (migration 0012_job_waits): not counted as failures. */
  waits: Generated<number>
}

declare module '../db/schema.js' {
  interface Database {
    jobs: JobsTable
  }
}
