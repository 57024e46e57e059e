// The bodies of the two webhook events, field for field, as vendors code against them. status_update
// (docs/contract.md#webhook-events): module 'alerts', the audit event's name and status, messageId and its
// recorded spelling messageID, the ids of vendor, partner and integration, and a message that is a sentence
// for a success and the outcome's detail for anything else. state_snapshot under module 'integrations': the
// integration's state, the catalogue and its mapped accounts, sorted.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import {
  alreadyClosed,
  closed,
  created,
  internalError,
  type Outcome,
  psaFailed,
  rejected,
  suppressed,
  updated,
} from '../../src/domain/outcome.js'
import { stateSnapshot, statusUpdate } from '../../src/webhooks/events.js'

const ids = {
  messageId: '0193a5b0-0000-7000-8000-000000000001',
  vendorId: 'vendor-1',
  partnerId: 'partner-1',
  integrationId: 'integration-1',
}

const update = (outcome: Outcome, correlationId: string | null = outcome.correlationId) =>
  statusUpdate({ outcome, correlationId, ...ids })

/** The whole status_update body for one event, status and message. */
const expected = (event: string, status: string, message: string, correlationId: string | null) => ({
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
      expected('Failed To Create Ticket', 'failed', 'The PSA answered 503 Service Unavailable.', null),
    )
    assert.deepEqual(
      update(alreadyClosed('cid-5', 'psa')),
      expected(
        'Ticket Already Closed',
        'failed',
        'The ticket was already closed in the PSA; it is now marked closed here too.',
        'cid-5',
      ),
    )
    assert.deepEqual(
      update(internalError('cid-6')),
      expected(
        'Internal Error',
        'failed',
        'An unexpected error occurred; quote the messageId to support.',
        'cid-6',
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
      expected('Failed To Create Ticket', 'failed', 'No integration links this vendor and partner.', null),
    )
  })
})

describe('stateSnapshot', () => {
  const input = {
    isIntegrationActive: true,
    isAlertsEnabled: false,
    productGroups: { 'Endpoint Security': ['Malware Detected', 'Agent Offline'], Backup: ['Backup Failed'] },
    accounts: ['globex-002', 'acme-001', 'initech-003'],
    vendorId: 'vendor-1',
    partnerId: 'partner-1',
    integrationId: 'integration-1',
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
    })
  })
})
