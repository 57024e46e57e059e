// The decision table (docs/decision-table.md), row by row, without I/O. Rows 1–4 are answered at the HTTP
// edge (see test/alerts/routes/alert-sync.test.ts); rows 17 (closed in the PSA), 19 and 20 are the outcome
// constructors the executor uses after the PSA call.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import { type Decision, decide } from '../../../src/alerts/domain/decide.js'
import { alreadyClosed, internalError, psaFailed } from '../../../src/alerts/domain/outcome.js'
import type { Rule } from '../../../src/alerts/rules/rules.js'
import type { Outcome } from '../../../src/platform/core/outcome.js'
import type { AlertFacts, Ticket } from '../../../src/platform/core/types.js'
import type { IntegrationSettings } from '../../../src/tenants/integrations/integration.js'
import { ctx, now, rule, settings, ticket } from '../../support/decision.js'

function outcome(d: Decision): Outcome {
  assert.equal(d.kind, 'done', `expected a final outcome, got ${d.kind}`)
  return (d as Extract<Decision, { kind: 'done' }>).outcome
}

function expectOutcome(
  d: Decision,
  row: string,
  http: number,
  message: string,
  event: string | null,
  error?: string,
) {
  const o = outcome(d)
  assert.equal(o.row, row)
  assert.equal(o.httpStatus, http)
  assert.equal(o.message, message)
  assert.equal(o.event?.name ?? null, event)
  if (error) assert.equal(o.error, error)
  return o
}

describe('decide: rows 5–18 of the decision table', () => {
  test('row 5: an integration that is not pending or connected is refused with 409', () => {
    for (const state of ['created', 'mapping'] as const) {
      expectOutcome(
        decide(ctx({}, { integration: settings({ state }) })),
        'integration-not-active',
        409,
        'failed',
        'Alerting Disabled',
        'INTEGRATION_NOT_ACTIVE',
      )
    }
  })

  test('row 5: alerting disabled is refused with 409, for RESOLVED too', () => {
    const c = ctx(
      { incidentStatus: 'RESOLVED', correlationId: 'cid-1' },
      { integration: settings({ alertsEnabled: false }), ticket: ticket() },
    )
    const o = expectOutcome(
      decide(c),
      'integration-not-active',
      409,
      'failed',
      'Alerting Disabled',
      'ALERTING_DISABLED',
    )
    assert.equal(o.event?.status, 'failed')
  })

  test('row 6: a product group or alert type outside the catalogue is 400', () => {
    expectOutcome(
      decide(ctx({ productGroup: 'Firewall' })),
      'not-in-catalogue',
      400,
      'failed',
      'Invalid Alert',
      'INVALID_ALERT',
    )
    expectOutcome(
      decide(ctx({ alertType: 'Backup Failed' })),
      'not-in-catalogue',
      400,
      'failed',
      'Invalid Alert',
      'INVALID_ALERT',
    )
    expectOutcome(
      decide(ctx({}, { catalogue: null })),
      'not-in-catalogue',
      400,
      'failed',
      'Invalid Alert',
      'INVALID_ALERT',
    )
  })

  test('row 7: unknown account, unmapped account, no rule, all rules off are 404', () => {
    expectOutcome(
      decide(ctx({}, { accountKnown: false })),
      'no-mapping-or-rule',
      404,
      'failed',
      'Failed To Create Ticket',
      'ACCOUNT_UNKNOWN',
    )
    expectOutcome(
      decide(ctx({}, { mappings: new Map() })),
      'no-mapping-or-rule',
      404,
      'failed',
      'Failed To Create Ticket',
      'ACCOUNT_NOT_MAPPED',
    )
    expectOutcome(
      decide(ctx({}, { rules: [] })),
      'no-mapping-or-rule',
      404,
      'failed',
      'Failed To Create Ticket',
      'NO_RULE',
    )
    expectOutcome(
      decide(ctx({}, { rules: [rule({ alertTypes: ['Agent Offline'] })] })),
      'no-mapping-or-rule',
      404,
      'failed',
      'Failed To Create Ticket',
      'NO_RULE',
    )
    expectOutcome(
      decide(ctx({}, { rules: [rule({ enabled: false }), rule({ id: 'r2', enabled: false })] })),
      'no-mapping-or-rule',
      404,
      'failed',
      'Failed To Create Ticket',
      'RULES_DISABLED',
    )
  })

  test('row 8: suppress rule, rule suppressing OPEN, ticket creation off are 200 suppressed', () => {
    for (const c of [
      ctx({}, { rules: [rule({ action: 'suppress' })] }),
      ctx({}, { rules: [rule({ suppressStatuses: ['OPEN'] })] }),
      ctx({}, { integration: settings({ ticketCreation: false }) }),
    ]) {
      const o = expectOutcome(decide(c), 'suppressed', 200, 'suppressed', 'Failed To Create Ticket')
      assert.equal(o.event?.status, 'suppressed')
      assert.equal(o.correlationId, 'new-cid')
    }
  })

  test('row 8 comes before row 9: a suppressing rule wins over an open ticket', () => {
    const c = ctx({ correlationId: 'cid-1' }, { ticket: ticket(), rules: [rule({ action: 'suppress' })] })
    expectOutcome(decide(c), 'suppressed', 200, 'suppressed', 'Failed To Create Ticket')
  })

  test('row 9: OPEN with the correlationId of an open ticket appends to it', () => {
    const d = decide(ctx({ correlationId: 'cid-1' }, { ticket: ticket() }))
    assert.equal(d.kind, 'append')
    assert.equal(d.kind === 'append' && d.row, 'repeat')
  })

  test('row 9: de-duplication folds an OPEN into the open ticket with the same key within the window', () => {
    const d = decide(ctx({}, { dedupTicket: ticket() }))
    assert.equal(d.kind, 'append')
    assert.equal(d.kind === 'append' && d.ticket.correlationId, 'cid-1')
    const windowed = ctx(
      {},
      {
        dedupTicket: ticket(),
        integration: settings({
          deduplication: { enabled: true, keyFields: ['accountId'], windowMinutes: 10 },
        }),
      },
    )
    assert.equal(decide(windowed).kind, 'append')
  })

  test('row 11 after a dedup window passed: a new ticket takes the key from the old one', () => {
    const c = ctx(
      {},
      {
        dedupTicket: ticket({ lastOccurrenceAt: '2026-11-22T11:00:00.000Z' }),
        integration: settings({
          deduplication: { enabled: true, keyFields: ['accountId'], windowMinutes: 30 },
        }),
      },
    )
    const d = decide(c)
    assert.equal(d.kind, 'create')
    assert.equal(d.kind === 'create' && d.retireTicketId, 'ticket-1')
  })

  test('row 10: OPEN with the correlationId of a closed ticket is 409', () => {
    const c = ctx({ correlationId: 'cid-1' }, { ticket: ticket({ status: 'closed' }) })
    expectOutcome(decide(c), 'reopen-refused', 409, 'failed', 'Failed To Create Ticket', 'TICKET_CLOSED')
  })

  test('row 11: OPEN otherwise creates, under the vendor’s correlationId or a new one', () => {
    const d = decide(ctx())
    assert.equal(d.kind, 'create')
    if (d.kind !== 'create') return
    assert.equal(d.correlationId, 'new-cid')
    assert.equal(d.dedupOpenKey, 'key')
    assert.equal(d.mapping.psaCompanyId, '100')
    const own = decide(ctx({ correlationId: 'vendor-1' }))
    assert.equal(own.kind === 'create' && own.correlationId, 'vendor-1')
    const noDedup = decide(
      ctx(
        {},
        {
          integration: settings({
            deduplication: { enabled: false, keyFields: ['accountId'], windowMinutes: null },
          }),
          dedupTicket: ticket(),
        },
      ),
    )
    assert.equal(noDedup.kind === 'create' && noDedup.dedupOpenKey, null)
  })

  test('row 11: the rule with the lowest precedence that covers the alert type is used', () => {
    const rules = [
      rule({ id: 'late', precedence: 50 }),
      rule({ id: 'narrow', precedence: 5, alertTypes: ['Agent Offline'] }),
      rule({ id: 'first', precedence: 20 }),
      rule({ id: 'off', precedence: 1, enabled: false }),
    ]
    const d = decide(ctx({}, { rules }))
    assert.equal(d.kind === 'create' && d.rule.id, 'first')
  })

  test('row 12: UPDATE and RESOLVED without a correlationId are 400', () => {
    for (const incidentStatus of ['UPDATE', 'RESOLVED'] as const) {
      expectOutcome(
        decide(ctx({ incidentStatus })),
        'missing-correlation-id',
        400,
        'failed',
        'Invalid Alert',
        'CORRELATION_ID_REQUIRED',
      )
    }
  })

  test('row 12: a correlationId sent inside data is named, with where it belongs', () => {
    const o = outcome(decide(ctx({ incidentStatus: 'UPDATE', extras: { CorrelationID: 'edr-1' } })))
    assert.equal(o.error, 'CORRELATION_ID_REQUIRED')
    assert.match(o.detail ?? '', /inside data \(body\/data\/CorrelationID\); send it at the top level/)
    const plain = outcome(decide(ctx({ incidentStatus: 'UPDATE', extras: { severity: 'high' } })))
    assert.doesNotMatch(plain.detail ?? '', /inside data/)
  })

  test('row 13: no ticket, its rule gone, or its mapping gone is 404 Ticket Not Found', () => {
    const base = { incidentStatus: 'UPDATE' as const, correlationId: 'cid-1' }
    expectOutcome(
      decide(ctx(base)),
      'ticket-not-found',
      404,
      'failed',
      'Ticket Not Found',
      'TICKET_NOT_FOUND',
    )
    expectOutcome(
      decide(ctx(base, { ticket: ticket(), rules: [] })),
      'ticket-not-found',
      404,
      'failed',
      'Ticket Not Found',
      'RULE_GONE',
    )
    expectOutcome(
      decide(ctx(base, { ticket: ticket(), mappings: new Map() })),
      'ticket-not-found',
      404,
      'failed',
      'Ticket Not Found',
      'ACCOUNT_NOT_MAPPED',
    )
  })

  test('row 13a: the ticket’s rule suppressing the incident status answers suppressed', () => {
    const c = ctx(
      { incidentStatus: 'UPDATE', correlationId: 'cid-1' },
      { ticket: ticket(), rules: [rule({ suppressStatuses: ['UPDATE'] })] },
    )
    expectOutcome(decide(c), 'status-suppressed', 200, 'suppressed', 'Alert Suppressed')
  })

  test('row 14: UPDATE on an open ticket appends', () => {
    for (const status of ['open', 'closing', 'creating'] as const) {
      const d = decide(
        ctx({ incidentStatus: 'UPDATE', correlationId: 'cid-1' }, { ticket: ticket({ status }) }),
      )
      assert.equal(d.kind, 'append')
      assert.equal(d.kind === 'append' && d.row, 'update')
    }
  })

  test('row 15: UPDATE on a closed ticket is 409 Ticket Already Closed', () => {
    const c = ctx(
      { incidentStatus: 'UPDATE', correlationId: 'cid-1' },
      { ticket: ticket({ status: 'closed' }) },
    )
    expectOutcome(decide(c), 'update-closed', 409, 'failed', 'Ticket Already Closed', 'TICKET_CLOSED')
  })

  test('row 16: RESOLVED with self-healing off is suppressed and leaves the ticket', () => {
    const c = ctx(
      { incidentStatus: 'RESOLVED', correlationId: 'cid-1' },
      { ticket: ticket(), integration: settings({ selfHealing: false }) },
    )
    expectOutcome(decide(c), 'self-healing-off', 200, 'suppressed', 'Self-Healing Disabled')
  })

  test('row 17: RESOLVED on a ticket closed here is 409', () => {
    const c = ctx(
      { incidentStatus: 'RESOLVED', correlationId: 'cid-1' },
      { ticket: ticket({ status: 'closed' }) },
    )
    expectOutcome(decide(c), 'already-closed', 409, 'failed', 'Ticket Already Closed', 'TICKET_CLOSED')
  })

  test('row 18: RESOLVED on an open ticket closes it', () => {
    const d = decide(ctx({ incidentStatus: 'RESOLVED', correlationId: 'cid-1' }, { ticket: ticket() }))
    assert.equal(d.kind, 'close')
  })
})

describe('decide: the closed-ticket policy (docs/decision-table.md#closed-ticket-policy)', () => {
  const policy = (p: 'refuse' | 'reopen' | 'new', reopenWindowMinutes = 60) =>
    settings({ closedTickets: { policy: p, reopenWindowMinutes, closeOnlyUntouched: false } })
  const closedAt = (minutesAgo: number) => new Date(now.getTime() - minutesAgo * 60_000).toISOString()
  const closed = (over: Partial<Ticket> = {}) =>
    ticket({ status: 'closed', closedAt: closedAt(10), closedBy: 'psa', ...over })
  const update = { incidentStatus: 'UPDATE' as const, correlationId: 'cid-1' }
  const open = { incidentStatus: 'OPEN' as const, correlationId: 'cid-1' }

  test('refuse (the default) answers as the table always has: rows 10 and 15', () => {
    expectOutcome(
      decide(ctx(open, { ticket: closed() })),
      'reopen-refused',
      409,
      'failed',
      'Failed To Create Ticket',
    )
    expectOutcome(
      decide(ctx(update, { ticket: closed() })),
      'update-closed',
      409,
      'failed',
      'Ticket Already Closed',
    )
  })

  test('reopen-closed: an UPDATE or an OPEN of a ticket closed within the window reopens it', () => {
    for (const alert of [update, open]) {
      const d = decide(ctx(alert, { integration: policy('reopen'), ticket: closed() }))
      assert.equal(d.kind, 'reopen')
      assert.equal((d as Extract<Decision, { kind: 'reopen' }>).ticket.correlationId, 'cid-1')
    }
  })

  test('replace-closed: past the reopen window, or deleted in the PSA, a new ticket links the closed one', () => {
    for (const t of [closed({ closedAt: closedAt(61) }), closed({ psaDeleted: true })]) {
      const d = decide(ctx(update, { integration: policy('reopen'), ticket: t }))
      assert.equal(d.kind, 'create')
      const c = d as Extract<Decision, { kind: 'create' }>
      assert.equal(c.replaces?.id, t.id)
      assert.equal(c.correlationId, 'new-cid', 'the closed ticket keeps its correlationId')
      assert.equal(c.rule.id, 'rule-1')
    }
  })

  test('replace-closed: policy new always opens a new ticket, from an OPEN or an UPDATE', () => {
    for (const alert of [update, open]) {
      const d = decide(ctx(alert, { integration: policy('new'), ticket: closed() }))
      assert.equal(d.kind, 'create')
      assert.equal((d as Extract<Decision, { kind: 'create' }>).replaces?.correlationId, 'cid-1')
    }
  })

  test('a de-duplicated OPEN whose ticket is closed follows the policy; under refuse it creates as before', () => {
    const holder = closed({ id: 'ticket-9', correlationId: 'cid-9', lastOccurrenceAt: closedAt(10) })
    const reopen = decide(ctx({}, { integration: policy('reopen'), closedDedupTicket: holder }))
    assert.equal(reopen.kind, 'reopen')
    const made = decide(ctx({}, { integration: policy('new'), closedDedupTicket: holder }))
    assert.equal((made as Extract<Decision, { kind: 'create' }>).replaces?.id, 'ticket-9')
    const refused = decide(ctx({}, { integration: policy('refuse'), closedDedupTicket: null }))
    assert.equal((refused as Extract<Decision, { kind: 'create' }>).replaces, null)
  })

  test('RESOLVED of a closed ticket is row 17 under every policy', () => {
    for (const p of ['refuse', 'reopen', 'new'] as const) {
      const d = decide(
        ctx(
          { incidentStatus: 'RESOLVED', correlationId: 'cid-1' },
          { integration: policy(p), ticket: closed() },
        ),
      )
      expectOutcome(d, 'already-closed', 409, 'failed', 'Ticket Already Closed')
    }
  })
})

describe('outcomes after the PSA call', () => {
  test('row 17: closed in the PSA is 409 Ticket Already Closed', () => {
    const o = alreadyClosed('cid-1', 'psa')
    assert.deepEqual(
      [o.row, o.httpStatus, o.message, o.event?.name, o.error],
      ['already-closed', 409, 'failed', 'Ticket Already Closed', 'TICKET_CLOSED'],
    )
  })

  test('row 19: a PSA failure is 502 with the operation’s event', () => {
    assert.equal(psaFailed('create', 'x', null).event?.name, 'Failed To Create Ticket')
    assert.equal(psaFailed('update', 'x', 'c').event?.name, 'Failed To Update Ticket')
    const o = psaFailed('close', 'x', 'c')
    assert.deepEqual(
      [o.row, o.httpStatus, o.event?.name, o.error],
      ['psa-failed', 502, 'Failed To Close Ticket', 'PSA_ERROR'],
    )
  })

  test('row 20: anything unexpected is 500 Internal Error', () => {
    const o = internalError(null)
    assert.deepEqual(
      [o.row, o.httpStatus, o.event?.name, o.error],
      ['internal-error', 500, 'Internal Error', 'INTERNAL'],
    )
  })
})

describe('decide: invariants over arbitrary facts', () => {
  const arbitraryContext = fc
    .record({
      incidentStatus: fc.constantFrom('OPEN', 'UPDATE', 'RESOLVED'),
      correlationId: fc.option(fc.constantFrom('cid-1', 'other'), { nil: undefined }),
      accountId: fc.constantFrom('acme', 'nobody'),
      productGroup: fc.constantFrom('Endpoint Security', 'Backup', 'Firewall'),
      alertType: fc.constantFrom('Malware Detected', 'Agent Offline', 'Backup Failed'),
      state: fc.constantFrom('created', 'mapping', 'pending', 'connected'),
      alertsEnabled: fc.boolean(),
      ticketCreation: fc.boolean(),
      selfHealing: fc.boolean(),
      dedup: fc.boolean(),
      ticketStatus: fc.option(fc.constantFrom('creating', 'open', 'closing', 'closed'), { nil: undefined }),
      dedupStatus: fc.option(fc.constantFrom('open', 'closed'), { nil: undefined }),
      ruleAction: fc.constantFrom('ticket', 'suppress'),
      ruleEnabled: fc.boolean(),
      suppress: fc.subarray(['OPEN', 'UPDATE', 'RESOLVED'] as const),
      accountKnown: fc.boolean(),
    })
    .map((f) =>
      ctx(
        {
          incidentStatus: f.incidentStatus as AlertFacts['incidentStatus'],
          correlationId: f.correlationId,
          accountId: f.accountId,
          productGroup: f.productGroup,
          alertType: f.alertType,
        },
        {
          integration: settings({
            state: f.state as IntegrationSettings['state'],
            alertsEnabled: f.alertsEnabled,
            ticketCreation: f.ticketCreation,
            selfHealing: f.selfHealing,
            deduplication: { enabled: f.dedup, keyFields: ['accountId'], windowMinutes: null },
          }),
          accountKnown: f.accountKnown,
          ticket:
            f.ticketStatus && f.correlationId === 'cid-1'
              ? ticket({ status: f.ticketStatus as Ticket['status'] })
              : null,
          dedupTicket: f.dedupStatus
            ? ticket({ id: 'ticket-2', correlationId: 'cid-2', status: f.dedupStatus as Ticket['status'] })
            : null,
          rules: [
            rule({
              action: f.ruleAction as Rule['action'],
              enabled: f.ruleEnabled,
              suppressStatuses: [...f.suppress],
            }),
          ],
        },
      ),
    )

  test('never throws; failures carry an error code, successes none', () => {
    fc.assert(
      fc.property(arbitraryContext, (c) => {
        const d = decide(c)
        if (d.kind !== 'done') return
        const o = d.outcome
        assert.equal(o.message === 'failed', o.error !== null)
        assert.equal(o.message === 'failed', o.httpStatus >= 400)
        assert.ok(o.event, 'rows 5–18 always record an event')
      }),
      { numRuns: 2000 },
    )
  })

  test('only OPEN creates; only RESOLVED closes; nothing acts on an inactive integration', () => {
    fc.assert(
      fc.property(arbitraryContext, (c) => {
        const d = decide(c)
        if (d.kind === 'create') assert.equal(c.alert.incidentStatus, 'OPEN')
        if (d.kind === 'close') assert.equal(c.alert.incidentStatus, 'RESOLVED')
        if (d.kind !== 'done') {
          assert.ok(['pending', 'connected'].includes(c.integration.state) && c.integration.alertsEnabled)
        }
      }),
      { numRuns: 2000 },
    )
  })

  test('a closed ticket is never appended to or closed again', () => {
    fc.assert(
      fc.property(arbitraryContext, (c) => {
        const d = decide(c)
        if (d.kind === 'append' || d.kind === 'close') assert.notEqual(d.ticket.status, 'closed')
      }),
      { numRuns: 2000 },
    )
  })
})
