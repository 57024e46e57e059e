// The bodies of the two webhook events, field for field, as vendors code against them. status_update
// (docs/contract.md#webhook-events): module 'alerts', the audit event's name and status, messageId and its
// recorded spelling messageID, the ids of vendor, partner and integration, and a message that is a sentence
// for a success and the outcome's detail for anything else. state_snapshot under module 'integrations': the
// integration's state, the catalogue and its mapped accounts, sorted. Beside the contract's fields, every
// event carries its sequence number, the time it describes and whether it is a test; a status_update
// carries the failure's stable code in `error` (docs/webhooks.md#event-types).
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import type { TSchema } from 'typebox'
import { Value } from 'typebox/value'
import {
  alreadyClosed,
  closed,
  created,
  internalError,
  psaFailed,
  rejected,
  suppressed,
  updated,
} from '../../src/alerts/domain/outcome.js'
import type { Outcome } from '../../src/platform/core/outcome.js'
import {
  eventTypeList,
  openApiWebhooks,
  StateSnapshotEvent,
  StatusUpdateEvent,
  stateSnapshotExample,
  statusUpdateExamples,
} from '../../src/webhooks/event-types.js'
import { stateSnapshot, statusUpdate } from '../../src/webhooks/events.js'

const ids = {
  messageId: '0193a5b0-0000-7000-8000-000000000001',
  vendorId: 'vendor-1',
  partnerId: 'partner-1',
  integrationId: 'integration-1',
}

const meta = { sequence: 42, occurredAt: '2026-11-27T08:00:00.000Z', test: false }

const update = (outcome: Outcome, correlationId: string | null = outcome.correlationId) =>
  statusUpdate({ outcome, correlationId, ...ids, meta })

/** The whole status_update body for one event, status and message. */
const expected = (
  event: string,
  status: string,
  message: string,
  correlationId: string | null,
  error: string | null = null,
) => ({
  module: 'alerts',
  eventType: 'status_update',
  payload: {
    event,
    messageId: ids.messageId,
    messageID: ids.messageId,
    correlationId,
    vendorOrganizationId: 'vendor-1',
    vendorUserOrganizationId: 'partner-1',
    integrationId: 'integration-1',
    payload: { status, message },
    error,
    ...meta,
  },
})

describe('statusUpdate', () => {
  test('a created ticket: exactly the status_update fields, messageId and messageID equal', () => {
    const body = update(created('cid-1'))
    assert.deepEqual(body, expected('Ticket Created', 'success', 'The ticket was created.', 'cid-1'))
    assert.equal(body.payload.messageID, body.payload.messageId)
  })

  test('successes carry a sentence for a message, never the bare outcome word', () => {
    assert.deepEqual(
      update(updated('repeat', 'cid-2')),
      expected('Ticket Updated', 'success', 'The alert was added to the ticket.', 'cid-2'),
    )
    assert.deepEqual(
      update(updated('update', 'cid-2')),
      expected('Ticket Updated', 'success', 'The alert was added to the ticket.', 'cid-2'),
    )
    assert.deepEqual(
      update(closed('cid-3')),
      expected('Ticket Closed', 'success', 'The ticket was closed.', 'cid-3'),
    )
  })

  test('a suppressed outcome carries its detail and the suppressed status', () => {
    const outcome = suppressed(
      'self-healing-off',
      'Self-Healing Disabled',
      'Self-healing is turned off; the ticket was left untouched.',
      'cid-4',
    )
    assert.deepEqual(
      update(outcome),
      expected(
        'Self-Healing Disabled',
        'suppressed',
        'Self-healing is turned off; the ticket was left untouched.',
        'cid-4',
      ),
    )
  })

  test('failures carry the outcome’s detail and the failed status', () => {
    assert.deepEqual(
      update(psaFailed('create', 'The PSA answered 503 Service Unavailable.', null)),
      expected(
        'Failed To Create Ticket',
        'failed',
        'The PSA answered 503 Service Unavailable.',
        null,
        'PSA_ERROR',
      ),
    )
    assert.deepEqual(
      update(alreadyClosed('cid-5', 'psa')),
      expected(
        'Ticket Already Closed',
        'failed',
        'The ticket was already closed in the PSA; it is now marked closed here too.',
        'cid-5',
        'TICKET_CLOSED',
      ),
    )
    assert.deepEqual(
      update(internalError('cid-6')),
      expected(
        'Internal Error',
        'failed',
        'An unexpected error occurred; quote the messageId to support.',
        'cid-6',
        'INTERNAL',
      ),
    )
  })

  test('the correlationId is the one passed in, not the outcome’s', () => {
    // The executor passes the ticket's correlationId once it is known (e.g. a fold into another ticket).
    const body = update(updated('repeat', 'outcome-cid'), 'ticket-cid')
    assert.equal(body.payload.correlationId, 'ticket-cid')
    assert.equal(update(created('cid-7'), null).payload.correlationId, null)
  })

  test('an outcome without an audit event is reported as a failed create', () => {
    const outcome = rejected(
      'unknown-integration',
      'INTEGRATION_NOT_FOUND',
      'No integration links this vendor and partner.',
      null,
      null,
    )
    assert.deepEqual(
      update(outcome),
      expected(
        'Failed To Create Ticket',
        'failed',
        'No integration links this vendor and partner.',
        null,
        'INTEGRATION_NOT_FOUND',
      ),
    )
  })
})

const snapshotInput = {
  isIntegrationActive: true,
  isAlertsEnabled: false,
  productGroups: { 'Endpoint Security': ['Malware Detected', 'Agent Offline'], Backup: ['Backup Failed'] },
  accounts: ['globex-002', 'acme-001', 'initech-003'],
  vendorId: 'vendor-1',
  partnerId: 'partner-1',
  integrationId: 'integration-1',
  meta,
}

describe('stateSnapshot', () => {
  const input = {
    isIntegrationActive: true,
    isAlertsEnabled: false,
    productGroups: { 'Endpoint Security': ['Malware Detected', 'Agent Offline'], Backup: ['Backup Failed'] },
    accounts: ['globex-002', 'acme-001', 'initech-003'],
    vendorId: 'vendor-1',
    partnerId: 'partner-1',
    integrationId: 'integration-1',
    meta,
  }

  test('exactly the state_snapshot fields under module integrations, with the accounts sorted', () => {
    assert.deepEqual(stateSnapshot(input), {
      module: 'integrations',
      eventType: 'state_snapshot',
      payload: {
        isIntegrationActive: true,
        isAlertsEnabled: false,
        productGroups: {
          'Endpoint Security': ['Malware Detected', 'Agent Offline'],
          Backup: ['Backup Failed'],
        },
        accounts: ['acme-001', 'globex-002', 'initech-003'],
        vendorOrganizationId: 'vendor-1',
        vendorUserId: 'partner-1',
        integrationId: 'integration-1',
        ...meta,
      },
    })
  })

  test('sorting the accounts leaves the caller’s array alone', () => {
    const accounts = ['b', 'c', 'a']
    const body = stateSnapshot({ ...input, accounts })
    assert.deepEqual(body.payload.accounts, ['a', 'b', 'c'])
    assert.deepEqual(accounts, ['b', 'c', 'a'])
  })

  test('an inactive integration with no accounts and no catalogue', () => {
    const body = stateSnapshot({
      ...input,
      isIntegrationActive: false,
      isAlertsEnabled: true,
      productGroups: {},
      accounts: [],
    })
    assert.deepEqual(body.payload, {
      isIntegrationActive: false,
      isAlertsEnabled: true,
      productGroups: {},
      accounts: [],
      vendorOrganizationId: 'vendor-1',
      vendorUserId: 'partner-1',
      integrationId: 'integration-1',
      ...meta,
    })
  })
})

describe('the event types (docs/webhooks.md#event-types)', () => {
  const check = (schema: TSchema, body: unknown) =>
    assert.ok(Value.Check(schema, body), JSON.stringify([...Value.Errors(schema, body)].slice(0, 3)))

  test('its examples are valid events', () => {
    for (const example of Object.values(statusUpdateExamples)) check(StatusUpdateEvent, example)
    check(StateSnapshotEvent, stateSnapshotExample)
  })

  test('every body events.ts builds is valid against its schema, for successes and failures', () => {
    for (const outcome of [
      created('c'),
      updated('update', 'c'),
      psaFailed('create', 'The PSA answered 503.', null),
      internalError(null),
      suppressed('self-healing-off', 'Self-Healing Disabled', 'off', 'c'),
    ])
      check(StatusUpdateEvent, update(outcome))
    check(StateSnapshotEvent, stateSnapshot({ ...snapshotInput, meta: { ...meta, test: true } }))
  })

  test('names every status_update event with when it is sent, the PSA-side ones and state_snapshot', () => {
    const names = eventTypeList.map((e) => e.event)
    for (const name of ['Ticket Created', 'Ticket Not Found', 'Ticket Closed In PSA', 'state_snapshot'])
      assert.ok(names.includes(name), name)
    assert.equal(new Set(names).size, names.length)
    for (const e of eventTypeList) assert.ok(e.when.length > 10, e.event)
    // A failure event names the codes it carries; a success names none.
    for (const e of eventTypeList.filter((e) => e.statuses.includes('failed')))
      assert.ok(e.errors.length > 0, e.event)
  })

  test('the OpenAPI webhooks section carries both events with their schema, examples and signature headers', () => {
    const hooks = openApiWebhooks() as Record<string, { post: any }>
    assert.deepEqual(Object.keys(hooks).sort(), ['state_snapshot', 'status_update'])
    const post = hooks.status_update!.post
    assert.deepEqual(post.requestBody.content['application/json'].schema, {
      $ref: '#/components/schemas/StatusUpdateEvent',
    })
    assert.ok(Object.keys(post.requestBody.content['application/json'].examples).length >= 3)
    assert.deepEqual(
      post.parameters.map((p: { name: string }) => p.name),
      ['webhook-id', 'webhook-timestamp', 'webhook-signature'],
    )
    assert.match(post.description, /Ticket Deleted In PSA/)
  })
})
