// The partner API's shapes of a maintenance window (docs/partner-api.md#maintenance-windows): one
// TypeBox source for validation, types and the OpenAPI document.
import Type, { type Static } from 'typebox'
import { Instant, Nullable } from '../../../platform/http/schemas.js'
import { maxDurationMinutes } from './maintenance.js'
import { earliestDate, horizonYears, maxCount, maxInterval } from './rrule.js'

const Names = (what: string) =>
  Type.Array(Type.String({ minLength: 1, maxLength: 128 }), {
    maxItems: 200,
    uniqueItems: true,
    description: `${what}; empty or missing: every one`,
  })

export const Scope = Type.Object(
  {
    accountIds: Type.Optional(Names('the vendor accountIds the window covers')),
    productGroups: Type.Optional(Names('the product groups it covers')),
    alertTypes: Type.Optional(Names('the alert types it covers')),
  },
  { additionalProperties: false },
)

const Mode = Type.Union([Type.Literal('suppress'), Type.Literal('hold')], {
  description:
    'suppress: a new OPEN is answered 200 suppressed (event Suppressed By Maintenance Window); hold: it is kept and released through the rules when the window ends',
})

export const Recurrence = Type.Object(
  {
    rrule: Type.String({
      minLength: 1,
      maxLength: 500,
      description: `RFC 5545 RRULE properties without DTSTART, e.g. FREQ=WEEKLY;BYDAY=SU: FREQ DAILY or coarser, INTERVAL 1–${maxInterval}, COUNT 1–${maxCount}, no BYHOUR/BYMINUTE/BYSECOND; it must occur within ${horizonYears} years (every limit: docs/partner-api.md#maintenance-windows)`,
    }),
    timeZone: Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone, e.g. Europe/Berlin' }),
    startTime: Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'local start, HH:MM' }),
    durationMinutes: Type.Integer({
      minimum: 1,
      maximum: maxDurationMinutes,
      description: 'wall-clock minutes',
    }),
    startDate: Type.Optional(
      Type.String({
        pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$',
        description: `the local date the rule counts from (its DTSTART), ${earliestDate} to ${horizonYears} years from today; default: today in timeZone`,
      }),
    ),
  },
  { additionalProperties: false },
)

export const WindowInput = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 128 }),
    mode: Type.Optional(Mode),
    startsAt: Type.Optional(Instant('a one-off window’s start')),
    endsAt: Type.Optional(Instant('a one-off window’s end')),
    recurrence: Type.Optional(Recurrence),
    scope: Type.Optional(Scope),
  },
  {
    additionalProperties: false,
    description: 'Either startsAt and endsAt (one-off) or recurrence (recurring).',
  },
)
export type WindowInput = Static<typeof WindowInput>

export const WindowView = Type.Object({
  id: Type.String(),
  name: Type.String(),
  mode: Mode,
  kind: Type.Union([Type.Literal('once'), Type.Literal('recurring')]),
  startsAt: Nullable(Type.String({ description: 'one-off: the start' })),
  endsAt: Nullable(Type.String({ description: 'one-off: the end' })),
  recurrence: Nullable(
    Type.Object({
      rrule: Type.String(),
      timeZone: Type.String(),
      startTime: Type.String(),
      durationMinutes: Type.Integer(),
      startDate: Type.String(),
    }),
  ),
  scope: Type.Object({
    accountIds: Type.Array(Type.String()),
    productGroups: Type.Array(Type.String()),
    alertTypes: Type.Array(Type.String()),
  }),
  activeNow: Type.Boolean(),
  activeUntil: Nullable(Type.String({ description: 'while active: when the current occurrence ends' })),
  nextStart: Nullable(Type.String({ description: 'the next occurrence’s start; null: none' })),
  held: Type.Integer({ description: 'alerts held now, released when the window ends' }),
  createdAt: Type.String(),
  updatedAt: Type.String(),
})
export type WindowView = Static<typeof WindowView>

/** Occurrences answered at most, over every window in the range (the dashboard's timeline). */
export const maxOccurrences = 200
/** The longest range the occurrences are expanded over. */
export const maxOccurrenceRangeDays = 93

export const OccurrencesQuery = Type.Object({
  integrationId: Type.Optional(Type.String({ maxLength: 64, description: 'one integration; missing: all' })),
  since: Type.Optional(Instant('occurrences ending after (default: 24 hours before until)')),
  until: Type.Optional(Instant('occurrences starting before (default: now)')),
  from: Type.Optional(Instant('the same as since')),
  to: Type.Optional(Instant('the same as until')),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: maxOccurrences,
      default: maxOccurrences,
      description: 'occurrences',
    }),
  ),
})

export const OccurrenceView = Type.Object({
  windowId: Type.String(),
  name: Type.String(),
  mode: Mode,
  integrationId: Type.String(),
  vendorName: Type.String({ description: 'the integration’s vendor' }),
  timeZone: Nullable(Type.String({ description: 'a recurring window’s IANA time zone; null: one-off' })),
  start: Type.String(),
  end: Type.String(),
})
export type OccurrenceView = Static<typeof OccurrenceView>

export const Occurrences = Type.Object({
  since: Type.String(),
  until: Type.String(),
  data: Type.Array(OccurrenceView, {
    description: 'in start order; recurrences expanded in their time zone',
  }),
  truncated: Type.Boolean({ description: 'more occurrences overlap the range than limit' }),
})
export type Occurrences = Static<typeof Occurrences>
