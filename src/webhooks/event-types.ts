// The event types (docs/webhooks.md#event-types): every webhook event as JSON Schema (the one
// source of the OpenAPI `webhooks` section, of the vendor guide's list and of the tests that check real
// events against it), with when each is sent and examples. events.ts builds the bodies.
import Type, { type Static } from 'typebox'
import { errorCodes } from '../platform/core/errors.js'
import type { EventName, PsaChangeKind, psaChangeEvent } from '../platform/core/outcome.js'
import * as parts from './event-examples.js'

type PsaEventName = (typeof psaChangeEvent)[PsaChangeKind]

const Meta = {
  sequence: Type.Integer({
    minimum: 1,
    description:
      'Grows with every event alertbridge sends, so within an integration too: keep the highest you applied and ' +
      'drop an event with a lower one (a state_snapshot older than the one you hold). Numbers may be skipped.',
  }),
  occurredAt: Type.String({
    format: 'date-time',
    description:
      'When what the event reports happened: the outcome recorded, the PSA change heard, the state read.',
  }),
  test: Type.Boolean({
    description:
      'true for a test event (POST /api/vendor-api/webhook/test), the outcome of a test alert, or any event of a test integration (POST /api/vendor-api/sandbox).',
  }),
}

export const StatusUpdateEvent = Type.Object(
  {
    module: Type.Literal('alerts'),
    eventType: Type.Literal('status_update'),
    payload: Type.Object({
      event: Type.String({
        description: 'the event name: see the catalogue for each name and when it is sent',
      }),
      messageId: Type.String({
        description: 'the data.messageId of the alert call (a PSA change: the event’s own)',
      }),
      messageID: Type.String({ description: 'the same value, in the spelling the contract records' }),
      correlationId: Type.Union([Type.String(), Type.Null()], {
        description: 'the ticket’s; it can differ from the one sent when de-duplication folded the alert',
      }),
      vendorOrganizationId: Type.String({ description: 'your vendor id' }),
      vendorUserOrganizationId: Type.String({ description: 'the partner’s id' }),
      integrationId: Type.String(),
      payload: Type.Object({
        status: Type.Union([Type.Literal('success'), Type.Literal('suppressed'), Type.Literal('failed')]),
        message: Type.String({ description: 'a sentence for a success, else what happened and what to do' }),
      }),
      error: Type.Union([Type.Enum(errorCodes), Type.Null()], {
        description: 'the stable code of a failure (status failed); null otherwise',
      }),
      ...Meta,
    }),
  },
  { $id: 'StatusUpdateEvent', description: 'The outcome of an alert, or a change made in the PSA.' },
)
export type StatusUpdateEvent = Static<typeof StatusUpdateEvent>

export const StateSnapshotEvent = Type.Object(
  {
    module: Type.Literal('integrations'),
    eventType: Type.Literal('state_snapshot'),
    payload: Type.Object({
      isIntegrationActive: Type.Boolean({
        description:
          'the integration is pending or connected and its partner not disabled: alerts are accepted',
      }),
      isAlertsEnabled: Type.Boolean({ description: 'the partner has alerting on' }),
      productGroups: Type.Record(Type.String(), Type.Array(Type.String()), {
        description: 'product group → alert types this partner may use',
      }),
      accounts: Type.Array(Type.String(), { description: 'every mapped account id, sorted' }),
      vendorOrganizationId: Type.String(),
      vendorUserId: Type.String({ description: 'the partner’s id' }),
      integrationId: Type.String(),
      ...Meta,
    }),
  },
  { $id: 'StateSnapshotEvent', description: 'The integration’s state as the vendor should see it.' },
)
export type StateSnapshotEvent = Static<typeof StateSnapshotEvent>

export interface EventTypeEntry {
  event: string
  eventType: 'status_update' | 'state_snapshot'
  statuses: readonly ('success' | 'suppressed' | 'failed')[]
  /** When it is sent. */
  when: string
  /** The `error` codes it can carry (failed only). */
  errors: readonly string[]
}

const alertEvents: Record<EventName, Omit<EventTypeEntry, 'event' | 'eventType'>> = {
  'Ticket Created': { statuses: ['success'], when: 'an OPEN created a ticket in the PSA', errors: [] },
  'Ticket Updated': {
    statuses: ['success'],
    when: 'an UPDATE, or an OPEN de-duplicated onto an open ticket, was added to the ticket as a note',
    errors: [],
  },
  'Ticket Closed': {
    statuses: ['success'],
    when: 'a RESOLVED closed the ticket (self-healing on)',
    errors: [],
  },
  'Ticket Reopened': {
    statuses: ['success'],
    when: 'an alert of a closed ticket reopened it (the partner’s closed-ticket policy is reopen)',
    errors: [],
  },
  'Ticket Left Open': {
    statuses: ['success'],
    when: 'a RESOLVED found the ticket worked on by a technician and left it open with a note (closeOnlyUntouched)',
    errors: [],
  },
  'Failed To Create Ticket': {
    statuses: ['failed', 'suppressed'],
    when: 'an OPEN made no ticket: the PSA refused or failed, the account is not mapped, no rule, the ticket is closed (failed); ticket creation off or the rule suppresses it (suppressed)',
    errors: [
      'PSA_ERROR',
      'ACCOUNT_UNKNOWN',
      'ACCOUNT_NOT_MAPPED',
      'NO_RULE',
      'RULES_DISABLED',
      'TICKET_CLOSED',
    ],
  },
  'Failed To Update Ticket': {
    statuses: ['failed'],
    when: 'the PSA refused or failed to add the note (after the retries)',
    errors: ['PSA_ERROR'],
  },
  'Failed To Close Ticket': {
    statuses: ['failed'],
    when: 'the PSA refused or failed to close the ticket (after the retries)',
    errors: ['PSA_ERROR'],
  },
  'Ticket Not Found': {
    statuses: ['failed'],
    when: 'an UPDATE or RESOLVED names a correlationId with no ticket, or its rule or mapping is gone',
    errors: ['TICKET_NOT_FOUND', 'RULE_GONE', 'ACCOUNT_NOT_MAPPED'],
  },
  'Ticket Already Closed': {
    statuses: ['failed'],
    when: 'an UPDATE or RESOLVED names a ticket that is closed',
    errors: ['TICKET_CLOSED'],
  },
  'Self-Healing Disabled': {
    statuses: ['suppressed'],
    when: 'a RESOLVED arrived while the partner has self-healing off: the ticket stays open',
    errors: [],
  },
  'Alert Suppressed': {
    statuses: ['suppressed'],
    when: 'the partner’s rules suppress this status of the alert',
    errors: [],
  },
  'Suppressed By Maintenance Window': {
    statuses: ['suppressed'],
    when: 'an OPEN arrived during a maintenance window of the partner in suppress mode; the detail names the window',
    errors: [],
  },
  'Held By Maintenance Window': {
    statuses: ['suppressed'],
    when: 'an OPEN arrived during a maintenance window in hold mode: it is held and released through the rules when the window ends (a later status_update tells what came of it)',
    errors: [],
  },
  'Held Alert Dropped': {
    statuses: ['suppressed'],
    when: 'a RESOLVED arrived for an alert held by a maintenance window: the held alert is dropped, no ticket is made',
    errors: [],
  },
  'Alerting Disabled': {
    statuses: ['failed'],
    when: 'the integration is not active or the partner has alerting off',
    errors: ['INTEGRATION_NOT_ACTIVE', 'ALERTING_DISABLED'],
  },
  'Invalid Alert': {
    statuses: ['failed'],
    when: 'the product group or alert type is not in the partner’s catalogue, or an UPDATE/RESOLVED lacks its correlationId',
    errors: ['INVALID_ALERT', 'CORRELATION_ID_REQUIRED'],
  },
  'Internal Error': {
    statuses: ['failed'],
    when: 'alertbridge failed unexpectedly; quote the messageId to support',
    errors: ['INTERNAL'],
  },
}

const psaEvents: Record<PsaEventName, string> = {
  'Ticket Closed In PSA':
    'a technician closed the ticket in the PSA; a later RESOLVED answers 409 (treat it as handled)',
  'Ticket Reopened In PSA': 'a technician reopened the ticket in the PSA; a later RESOLVED closes it',
  'Ticket Merged In PSA': 'the ticket was merged into another in the PSA; later alerts go to the survivor',
  'Ticket Deleted In PSA':
    'the ticket was deleted in the PSA; it is closed here and a later alert follows the closed-ticket policy',
}

/** Every event, in the order the vendor guide lists them. */
export const eventTypeList: readonly EventTypeEntry[] = [
  ...Object.entries(alertEvents).map(([event, e]) => ({ event, eventType: 'status_update' as const, ...e })),
  ...Object.entries(psaEvents).map(([event, when]) => ({
    event,
    eventType: 'status_update' as const,
    statuses: ['success'] as const,
    when: `${when} (two-way sync; sent whichever strategy the alerts use)`,
    errors: [],
  })),
  {
    event: 'state_snapshot',
    eventType: 'state_snapshot',
    statuses: [],
    when: 'the integration’s active state, alerting, product groups or mapped accounts changed (coalesced over 3 s), or its partner was disabled or enabled',
    errors: [],
  },
]

const eventList = (eventType: EventTypeEntry['eventType']) =>
  eventTypeList
    .filter((e) => e.eventType === eventType && e.event !== 'state_snapshot')
    .map(
      (e) =>
        `- **${e.event}** (${e.statuses.join(', ')}): ${e.when}${e.errors.length ? `; error: ${e.errors.join(', ')}` : ''}`,
    )
    .join('\n')

// Typed here (the examples' file stays free of this one's imports); the tests check each against its schema.
export const statusUpdateExamples = parts.statusUpdateExamples as Record<string, StatusUpdateEvent>
export const stateSnapshotExample = parts.stateSnapshotExample as StateSnapshotEvent

/** The events' schemas, named in the document's components.schemas. */
export const webhookSchemas = { StatusUpdateEvent, StateSnapshotEvent }

/** The OpenAPI 3.1 `webhooks` section: the events alertbridge POSTs to the vendor's webhook URL. */
export function openApiWebhooks(): Record<string, unknown> {
  const post = (
    operationId: string,
    summary: string,
    description: string,
    schema: keyof typeof webhookSchemas,
    examples: Record<string, unknown>,
  ) => ({
    post: {
      operationId,
      summary,
      description,
      parameters: parts.signatureHeaders,
      requestBody: {
        required: true,
        content: {
          'application/json': {
            // The named schema (components.schemas, webhookSchemas below).
            schema: { $ref: `#/components/schemas/${schema}` },
            examples: Object.fromEntries(Object.entries(examples).map(([k, value]) => [k, { value }])),
          },
        },
      },
      responses: parts.answers,
    },
  })
  return {
    status_update: post(
      'statusUpdateWebhook',
      'An alert’s outcome, or a change made in the PSA',
      `One per alert accepted by the webhook strategy (the immediate answer is a preview; this event is the outcome), and one per change a technician made in the PSA to one of the integration's tickets. Events:\n\n${eventList('status_update')}`,
      'StatusUpdateEvent',
      statusUpdateExamples,
    ),
    state_snapshot: post(
      'stateSnapshotWebhook',
      'The integration’s state',
      eventTypeList.find((e) => e.event === 'state_snapshot')!.when,
      'StateSnapshotEvent',
      { snapshot: stateSnapshotExample },
    ),
  }
}
