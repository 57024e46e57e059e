// When a maintenance window occurs, as the partner gave it (docs/partner-api.md#maintenance-windows):
// once, or by an RFC 5545 RRULE in an IANA time zone's wall time. The types only; maintenance.ts works
// with them.

export type MaintenanceSchedule =
  | { kind: 'once'; startsAt: string; endsAt: string }
  | {
      kind: 'recurring'
      /** RRULE properties without DTSTART, e.g. `FREQ=WEEKLY;BYDAY=SU`. */
      rrule: string
      timeZone: string
      /** The local date the recurrence counts from (its DTSTART's date), YYYY-MM-DD. */
      startDate: string
      /** The local wall time each occurrence starts, HH:MM. */
      startTime: string
      /** Wall-clock minutes from the start to the end of each occurrence. */
      durationMinutes: number
    }

export type Recurring = Extract<MaintenanceSchedule, { kind: 'recurring' }>

export interface Occurrence {
  start: Date
  end: Date
}
