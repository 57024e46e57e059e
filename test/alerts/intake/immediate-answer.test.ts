// immediateAnswer: what the webhook strategy answers before the queued job calls the PSA
// (docs/decisions/webhook-strategy/immediate-answer-is-a-preview.md). A create answers 201 created under
// the decision's correlationId, an append 200 updated and a close 200 closed under the ticket's
// correlationId; a final outcome keeps its message, correlationId, error and detail, and is always answered
// with 200 (the failure reaches the vendor in the body and, later, in the status_update).
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { type Decision, decide } from '../../../src/alerts/domain/decide.js'
import {
  alreadyClosed,
  internalError,
  psaFailed,
  rejected,
  suppressed,
} from '../../../src/alerts/domain/outcome.js'
import { afterQueuedOpen, immediateAnswer } from '../../../src/alerts/intake/immediate-answer.js'
import type { AccountMapping, Ticket } from '../../../src/platform/core/types.js'
import { rule as baseRule, ticket as baseTicket, ctx } from '../../support/decision.js'

const mapping: AccountMapping = { accountId: 'acme', psaCompanyId: '100', board: null }
const ticket = (over: Partial<Ticket> = {}): Ticket => baseTicket({ correlationId: 'ticket-cid', ...over })
const rule = baseRule()

describe('immediateAnswer: the webhook strategy’s answer before the PSA is called', () => {
  test('create answers 201 created with the decision’s correlationId', () => {
    const decision: Decision = {
      kind: 'create',
      rule,
      mapping,
      correlationId: 'decision-cid',
      dedupKey: 'key',
      dedupOpenKey: 'key',
      retireTicketId: null,
      replaces: null,
    }
    assert.deepEqual(immediateAnswer(decision), {
      message: 'created',
      httpStatus: 201,
      correlationId: 'decision-cid',
      error: null,
      detail: null,
    })
  })

  test('append answers 200 updated with the ticket’s correlationId, for rows 9 and 14', () => {
    for (const row of ['repeat', 'update'] as const) {
      assert.deepEqual(immediateAnswer({ kind: 'append', row, ticket: ticket(), mapping }), {
        message: 'updated',
        httpStatus: 200,
        correlationId: 'ticket-cid',
        error: null,
        detail: null,
      })
    }
  })

  test('close answers 200 closed with the ticket’s correlationId', () => {
    assert.deepEqual(
      immediateAnswer({ kind: 'close', ticket: ticket({ correlationId: 'closing-cid' }), mapping, rule }),
      { message: 'closed', httpStatus: 200, correlationId: 'closing-cid', error: null, detail: null },
    )
  })

  test('a suppressed outcome answers 200 suppressed with its correlationId and detail', () => {
    const outcome = suppressed(
      'self-healing-off',
      'Self-Healing Disabled',
      'Self-healing is turned off.',
      'cid-7',
    )
    assert.deepEqual(immediateAnswer({ kind: 'done', outcome }), {
      message: 'suppressed',
      httpStatus: 200,
      correlationId: 'cid-7',
      error: null,
      detail: 'Self-healing is turned off.',
    })
  })

  test('a rejected outcome answers 200 failed, carrying its error and detail', () => {
    const outcome = rejected(
      'ticket-not-found',
      'TICKET_NOT_FOUND',
      'No ticket has correlationId x.',
      'Ticket Not Found',
      'x',
    )
    assert.equal(outcome.httpStatus, 404, 'the synchronous strategy would answer 404')
    assert.deepEqual(immediateAnswer({ kind: 'done', outcome }), {
      message: 'failed',
      httpStatus: 200,
      correlationId: 'x',
      error: 'TICKET_NOT_FOUND',
      detail: 'No ticket has correlationId x.',
    })
  })

  test('every failure constructor keeps its error, detail and correlationId (null too)', () => {
    for (const outcome of [
      alreadyClosed('cid-1', 'here'),
      psaFailed('update', 'The PSA answered 503.', 'cid-2'),
      internalError(null),
      rejected(
        'missing-correlation-id',
        'CORRELATION_ID_REQUIRED',
        'needs the correlationId',
        'Invalid Alert',
        null,
      ),
    ]) {
      assert.deepEqual(immediateAnswer({ kind: 'done', outcome }), {
        message: 'failed',
        httpStatus: 200,
        correlationId: outcome.correlationId,
        error: outcome.error,
        detail: outcome.detail,
      })
      assert.notEqual(outcome.error, null)
      assert.notEqual(outcome.detail, null)
    }
  })

  test('through decide(): a new ticket gets the new or the vendor’s correlationId, a fold the holder’s', () => {
    assert.equal(immediateAnswer(decide(ctx())).correlationId, 'new-cid')
    const own = immediateAnswer(decide(ctx({ correlationId: 'vendor-cid' })))
    assert.deepEqual([own.httpStatus, own.message, own.correlationId], [201, 'created', 'vendor-cid'])
    // De-duplication folds an OPEN without a correlationId into the open ticket holding its key.
    const folded = immediateAnswer(decide(ctx({}, { dedupTicket: ticket({ correlationId: 'holder-cid' }) })))
    assert.deepEqual(
      [folded.httpStatus, folded.message, folded.correlationId],
      [200, 'updated', 'holder-cid'],
    )
    const closing = immediateAnswer(
      decide(ctx({ incidentStatus: 'RESOLVED', correlationId: 'ticket-cid' }, { ticket: ticket() })),
    )
    assert.deepEqual(
      [closing.httpStatus, closing.message, closing.correlationId],
      [200, 'closed', 'ticket-cid'],
    )
  })

  test('through decide(): an unmapped account answers 200 failed with the row 7 error and detail', () => {
    const answer = immediateAnswer(decide(ctx({}, { mappings: new Map() })))
    assert.equal(answer.httpStatus, 200)
    assert.equal(answer.message, 'failed')
    assert.equal(answer.error, 'ACCOUNT_NOT_MAPPED')
    assert.match(answer.detail ?? '', /accountId 'acme' is not mapped/)
    assert.equal(answer.correlationId, null)
  })
})

describe('afterQueuedOpen: a follow-up of a ticket whose OPEN is still queued', () => {
  const notFound = immediateAnswer({
    kind: 'done',
    outcome: rejected(
      'ticket-not-found',
      'TICKET_NOT_FOUND',
      "No ticket has correlationId 'c1'.",
      'Ticket Not Found',
      'c1',
    ),
  })

  test('an UPDATE is previewed as the append it will be, a RESOLVED as the close (or suppression)', () => {
    assert.deepEqual(afterQueuedOpen(notFound, { incidentStatus: 'UPDATE', correlationId: 'c1' }, true), {
      message: 'updated',
      httpStatus: 200,
      correlationId: 'c1',
      error: null,
      detail: null,
    })
    assert.equal(
      afterQueuedOpen(notFound, { incidentStatus: 'RESOLVED', correlationId: 'c1' }, true).message,
      'closed',
    )
    assert.equal(
      afterQueuedOpen(notFound, { incidentStatus: 'RESOLVED', correlationId: 'c1' }, false).message,
      'suppressed',
    )
  })

  test('any other answer is kept as it is', () => {
    const closed = immediateAnswer({ kind: 'done', outcome: alreadyClosed('c1', 'here') })
    assert.deepEqual(afterQueuedOpen(closed, { incidentStatus: 'UPDATE', correlationId: 'c1' }, true), closed)
    assert.deepEqual(
      afterQueuedOpen(notFound, { incidentStatus: 'OPEN', correlationId: 'c1' }, true),
      notFound,
    )
  })
})
