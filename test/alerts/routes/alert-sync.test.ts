// Every row of docs/decision-table.md over HTTP against the real service on loopback, with exact response
// shapes and the audit event each row records (or the absence of one).
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { type Setup, setupIntegration } from '../../support/fixtures.js'
import { backends, startService, type TestService } from '../../support/service.js'
import { expectSyncFailure, expectSyncSuccess } from '../../support/shapes.js'

for (const backend of backends()) {
  describe(`synchronous alerts, decision-table rows (${backend})`, () => {
    let svc: TestService
    before(async () => {
      svc = await startService({ backend })
    })
    after(() => svc.close())

    /** The newest audit event of the setup's partner. */
    async function lastEvent(s: Setup) {
      const res = await s.partner('GET', '/api/partner/events?limit=1')
      assert.equal(res.status, 200)
      return res.body.data[0]
    }

    async function expectEvent(
      s: Setup,
      messageId: string,
      event: string,
      status: string,
      httpStatus: number,
    ) {
      const e = await lastEvent(s)
      assert.ok(e, 'an event was recorded')
      assert.equal(e.messageId, messageId)
      assert.equal(e.event, event)
      assert.equal(e.status, status)
      assert.equal(e.httpStatus, httpStatus)
      assert.equal(e.strategy, 'sync')
    }

    async function openTicket(s: Setup, data = {}) {
      return expectSyncSuccess(await s.sync(data), { status: 201, message: 'created' })
    }

    test('row 1: a body that is not JSON answers 400 INVALID_JSON and stores nothing', async () => {
      const before = await svc.counts()
      const res = await svc.request('POST', '/api/oem-alerts-api/alert/sync', { raw: '{"clientId": "x",' })
      expectSyncFailure(res, { status: 400, error: 'INVALID_JSON', correlationId: null })
      assert.deepEqual(await svc.counts(), before)
    })

    test('row 1: a body that fails the schema answers 400 VALIDATION_FAILED naming the field', async () => {
      const s = await setupIntegration(svc)
      const before = await svc.counts()
      const res = await svc.request('POST', '/api/oem-alerts-api/alert/sync', {
        body: s.body({ title: 42 as unknown as string }, { correlationId: 'vendor-1' }),
      })
      expectSyncFailure(res, { status: 400, error: 'VALIDATION_FAILED', correlationId: 'vendor-1' })
      assert.match(res.body.detail, /data\/title/)
      assert.deepEqual(await svc.counts(), before)
    })

    test('row 2: wrong credentials answer 401 and store nothing', async () => {
      const s = await setupIntegration(svc)
      const before = await svc.counts()
      const cases: Record<string, unknown>[] = [
        { clientSecret: 'abs_wrong' },
        { clientId: 'cli_unknown' },
        { organizationOemToken: 'abo_wrong' },
        { grantType: 'password' },
        { scope: 'everything' },
      ]
      for (const extra of cases) {
        const res = await svc.request('POST', '/api/oem-alerts-api/alert/sync', { body: s.body({}, extra) })
        expectSyncFailure(res, { status: 401, error: 'INVALID_CREDENTIALS', correlationId: null })
      }
      assert.deepEqual(await svc.counts(), before)
    })

    test('row 2: the organization token of another vendor answers 401', async () => {
      const a = await setupIntegration(svc)
      const b = await setupIntegration(svc)
      const res = await svc.request('POST', '/api/oem-alerts-api/alert/sync', {
        body: a.body({}, { organizationOemToken: b.orgToken, integrationId: b.integrationId }),
      })
      expectSyncFailure(res, { status: 401, error: 'INVALID_CREDENTIALS' })
    })

    test('row 3: over the vendor rate limit answers 429 with Retry-After and RateLimit headers', async () => {
      const s = await setupIntegration(svc)
      const patch = await svc.request('PATCH', `/api/admin/vendors/${s.vendorId}`, {
        token: svc.adminToken,
        body: { rateLimitPerMinute: 2 },
      })
      assert.equal(patch.status, 200)
      expectSyncSuccess(await s.sync(), { status: 201, message: 'created' })
      expectSyncSuccess(await s.sync(), { status: 200, message: 'updated' })
      const before = await svc.counts()
      const res = await s.sync()
      expectSyncFailure(res, { status: 429, error: 'RATE_LIMITED' })
      const retryAfter = Number(res.headers.get('retry-after'))
      assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`)
      assert.equal(res.headers.get('ratelimit-policy'), '"alerts";q=2;w=60')
      assert.match(res.headers.get('ratelimit') ?? '', /^"alerts";r=0;t=\d+$/)
      assert.deepEqual(await svc.counts(), before)
    })

    test('row 4: an integrationId that is not the organization’s answers 404 and stores nothing', async () => {
      const s = await setupIntegration(svc)
      const before = await svc.counts()
      const res = await svc.request('POST', '/api/oem-alerts-api/alert/sync', {
        body: s.body({}, { integrationId: '01a20000-0000-7000-8000-000000000000' }),
      })
      expectSyncFailure(res, { status: 404, error: 'INTEGRATION_NOT_FOUND' })
      assert.deepEqual(await svc.counts(), before)
    })

    test('row 5: an integration that is not pending or connected answers 409 Alerting Disabled', async () => {
      const s = await setupIntegration(svc, { stopAt: 'mapping' })
      const res = await s.sync()
      const { messageId } = expectSyncFailure(res, { status: 409, error: 'INTEGRATION_NOT_ACTIVE' })
      assert.match(res.body.detail, /mapping/)
      await expectEvent(s, messageId, 'Alerting Disabled', 'failed', 409)
    })

    test('row 5: alerting turned off answers 409 ALERTING_DISABLED', async () => {
      const s = await setupIntegration(svc)
      await s.partner('PATCH', `/api/partner/integrations/${s.integrationId}`, { alertsEnabled: false })
      const { messageId } = expectSyncFailure(await s.sync(), { status: 409, error: 'ALERTING_DISABLED' })
      await expectEvent(s, messageId, 'Alerting Disabled', 'failed', 409)
      const resolved = await s.sync({ incidentStatus: 'RESOLVED' }, { correlationId: 'anything' })
      expectSyncFailure(resolved, { status: 409, error: 'ALERTING_DISABLED', correlationId: 'anything' })
    })

    test('row 6: a product group or alert type outside the catalogue answers 400 Invalid Alert', async () => {
      const s = await setupIntegration(svc)
      const group = expectSyncFailure(await s.sync({ productGroup: 'Firewall' }), {
        status: 400,
        error: 'INVALID_ALERT',
      })
      await expectEvent(s, group.messageId, 'Invalid Alert', 'failed', 400)
      const type = await s.sync({ alertType: 'Backup Failed' })
      expectSyncFailure(type, { status: 400, error: 'INVALID_ALERT' })
      assert.match(type.body.detail, /Backup Failed/)
    })

    test('row 6: a vendor without a catalogue gets 400 saying so', async () => {
      const s = await setupIntegration(svc, { catalogue: null, rule: null })
      const res = await s.sync()
      expectSyncFailure(res, { status: 400, error: 'INVALID_ALERT' })
      assert.match(res.body.detail, /no product-group catalogue/)
    })

    test('row 7: unknown account, unmapped account, no rule, all rules off each answer 404', async () => {
      const s = await setupIntegration(svc)
      const unknown = expectSyncFailure(await s.sync({ accountId: 'nobody' }), {
        status: 404,
        error: 'ACCOUNT_UNKNOWN',
      })
      await expectEvent(s, unknown.messageId, 'Failed To Create Ticket', 'failed', 404)
      expectSyncFailure(await s.sync({ accountId: 'globex-002' }), {
        status: 404,
        error: 'ACCOUNT_NOT_MAPPED',
      })
      expectSyncFailure(await s.sync({ productGroup: 'Backup', alertType: 'Backup Failed' }), {
        status: 404,
        error: 'NO_RULE',
      })
      await s.partner('PATCH', `/api/partner/integrations/${s.integrationId}/rules/${s.ruleId}`, {
        enabled: false,
      })
      expectSyncFailure(await s.sync(), { status: 404, error: 'RULES_DISABLED' })
      assert.equal((await svc.services.store.tickets.list({ partnerId: s.partnerId, limit: 10 })).length, 0)
    })

    test('row 8: a suppress rule, a rule suppressing OPEN, or ticket creation off answer 200 suppressed', async () => {
      const s = await setupIntegration(svc, {
        rule: { productGroup: 'Endpoint Security', action: 'suppress' },
      })
      const a = expectSyncSuccess(await s.sync(), { status: 200, message: 'suppressed' })
      await expectEvent(s, a.messageId, 'Failed To Create Ticket', 'suppressed', 200)

      const b = await setupIntegration(svc, {
        rule: { productGroup: 'Endpoint Security', suppressStatuses: ['OPEN'] },
      })
      expectSyncSuccess(await b.sync(), { status: 200, message: 'suppressed' })

      const c = await setupIntegration(svc)
      await c.partner('PATCH', `/api/partner/integrations/${c.integrationId}`, { ticketCreation: false })
      expectSyncSuccess(await c.sync(), { status: 200, message: 'suppressed' })

      for (const x of [s, b, c]) {
        assert.equal((await svc.services.store.tickets.list({ partnerId: x.partnerId, limit: 10 })).length, 0)
      }
    })

    test('row 9: OPEN with the correlationId of an open ticket appends and keeps the id', async () => {
      const s = await setupIntegration(svc)
      const first = await openTicket(s)
      const again = await s.sync({ title: 'Seen again' }, { correlationId: first.correlationId })
      const { messageId } = expectSyncSuccess(again, {
        status: 200,
        message: 'updated',
        correlationId: first.correlationId,
      })
      await expectEvent(s, messageId, 'Ticket Updated', 'success', 200)
      const ticket = await s.partner('GET', `/api/partner/tickets/${first.correlationId}`)
      assert.equal(ticket.body.occurrenceCount, 2)
    })

    test('row 9: with de-duplication on, an OPEN with the same key appends to the open ticket', async () => {
      const s = await setupIntegration(svc)
      const first = await openTicket(s)
      const dup = await s.sync({ title: 'Different title, same key' })
      expectSyncSuccess(dup, { status: 200, message: 'updated', correlationId: first.correlationId })
      const sandbox = await s.partner('GET', '/api/partner/sandbox/tickets')
      assert.equal(sandbox.body.data.length, 1)
      assert.equal(sandbox.body.data[0].notes.length, 1)
      assert.match(sandbox.body.data[0].notes[0].text, /Different title, same key/)
    })

    test('row 11: with de-duplication off, the same key creates another ticket', async () => {
      const s = await setupIntegration(svc)
      await s.partner('PATCH', `/api/partner/integrations/${s.integrationId}`, {
        deduplication: { enabled: false },
      })
      const a = await openTicket(s)
      const b = await openTicket(s)
      assert.notEqual(a.correlationId, b.correlationId)
    })

    test('row 10: OPEN with the correlationId of a closed ticket answers 409', async () => {
      const s = await setupIntegration(svc)
      const first = await openTicket(s)
      expectSyncSuccess(
        await s.sync({ incidentStatus: 'RESOLVED' }, { correlationId: first.correlationId }),
        {
          status: 200,
          message: 'closed',
        },
      )
      const res = await s.sync({}, { correlationId: first.correlationId })
      const { messageId } = expectSyncFailure(res, {
        status: 409,
        error: 'TICKET_CLOSED',
        correlationId: first.correlationId,
      })
      await expectEvent(s, messageId, 'Failed To Create Ticket', 'failed', 409)
    })

    test('row 11: OPEN creates a ticket in the PSA, records Ticket Created and connects the integration', async () => {
      const s = await setupIntegration(svc)
      const res = await s.sync()
      const { messageId, correlationId } = expectSyncSuccess(res, { status: 201, message: 'created' })
      await expectEvent(s, messageId, 'Ticket Created', 'success', 201)
      const ticket = await s.partner('GET', `/api/partner/tickets/${correlationId}`)
      assert.equal(ticket.body.status, 'open')
      assert.match(ticket.body.psaTicketId, /^SBX-\d+$/)
      const sandbox = await s.partner('GET', '/api/partner/sandbox/tickets')
      assert.equal(sandbox.body.data[0].id, ticket.body.psaTicketId)
      assert.equal(sandbox.body.data[0].companyId, '100')
      const integration = await s.partner('GET', `/api/partner/integrations/${s.integrationId}`)
      assert.equal(integration.body.state, 'connected')
    })

    test('row 11: OPEN with a new vendor correlationId (either spelling) creates the ticket under that id', async () => {
      const s = await setupIntegration(svc)
      expectSyncSuccess(await s.sync({}, { correlationId: 'vendor-abc-1' }), {
        status: 201,
        message: 'created',
        correlationId: 'vendor-abc-1',
      })
      await s.partner('PATCH', `/api/partner/integrations/${s.integrationId}`, {
        deduplication: { enabled: false },
      })
      expectSyncSuccess(await s.sync({}, { correlationID: 'vendor-abc-2' }), {
        status: 201,
        message: 'created',
        correlationId: 'vendor-abc-2',
      })
    })

    test('row 12: UPDATE or RESOLVED without a correlationId answers 400', async () => {
      const s = await setupIntegration(svc)
      for (const incidentStatus of ['UPDATE', 'RESOLVED'] as const) {
        const res = await s.sync({ incidentStatus })
        const { messageId } = expectSyncFailure(res, {
          status: 400,
          error: 'CORRELATION_ID_REQUIRED',
          correlationId: null,
        })
        await expectEvent(s, messageId, 'Invalid Alert', 'failed', 400)
      }
    })

    test('row 13: UPDATE for an unknown correlationId answers 404 Ticket Not Found', async () => {
      const s = await setupIntegration(svc)
      const res = await s.sync({ incidentStatus: 'UPDATE' }, { correlationId: 'never-seen' })
      const { messageId } = expectSyncFailure(res, {
        status: 404,
        error: 'TICKET_NOT_FOUND',
        correlationId: 'never-seen',
      })
      await expectEvent(s, messageId, 'Ticket Not Found', 'failed', 404)
    })

    test('row 13: UPDATE after the rule or the account mapping was removed answers 404', async () => {
      const s = await setupIntegration(svc)
      const a = await openTicket(s)
      await s.partner('DELETE', `/api/partner/integrations/${s.integrationId}/rules/${s.ruleId}`)
      expectSyncFailure(await s.sync({ incidentStatus: 'UPDATE' }, { correlationId: a.correlationId }), {
        status: 404,
        error: 'RULE_GONE',
      })

      const t = await setupIntegration(svc)
      const b = await openTicket(t)
      await t.partner('DELETE', `/api/partner/integrations/${t.integrationId}/accounts/acme-001`)
      const res = await t.sync({ incidentStatus: 'RESOLVED' }, { correlationId: b.correlationId })
      const { messageId } = expectSyncFailure(res, { status: 404, error: 'ACCOUNT_NOT_MAPPED' })
      await expectEvent(t, messageId, 'Ticket Not Found', 'failed', 404)
    })

    test('row 13a: a rule that suppresses UPDATE leaves the ticket untouched and answers suppressed', async () => {
      const s = await setupIntegration(svc, {
        rule: { productGroup: 'Endpoint Security', suppressStatuses: ['UPDATE'] },
      })
      const a = await openTicket(s)
      const res = await s.sync({ incidentStatus: 'UPDATE' }, { correlationId: a.correlationId })
      const { messageId } = expectSyncSuccess(res, {
        status: 200,
        message: 'suppressed',
        correlationId: a.correlationId,
      })
      await expectEvent(s, messageId, 'Alert Suppressed', 'suppressed', 200)
      const sandbox = await s.partner('GET', '/api/partner/sandbox/tickets')
      assert.equal(sandbox.body.data[0].notes.length, 0)
    })

    test('row 14: UPDATE on an open ticket appends a note and answers updated', async () => {
      const s = await setupIntegration(svc)
      const a = await openTicket(s)
      const res = await s.sync(
        { incidentStatus: 'UPDATE', summary: 'Still spreading' },
        { correlationId: a.correlationId },
      )
      const { messageId } = expectSyncSuccess(res, {
        status: 200,
        message: 'updated',
        correlationId: a.correlationId,
      })
      await expectEvent(s, messageId, 'Ticket Updated', 'success', 200)
      const sandbox = await s.partner('GET', '/api/partner/sandbox/tickets')
      assert.match(sandbox.body.data[0].notes[0].text, /Still spreading/)
    })

    test('row 15: UPDATE on a closed ticket answers 409 Ticket Already Closed', async () => {
      const s = await setupIntegration(svc)
      const a = await openTicket(s)
      await s.sync({ incidentStatus: 'RESOLVED' }, { correlationId: a.correlationId })
      const res = await s.sync({ incidentStatus: 'UPDATE' }, { correlationId: a.correlationId })
      const { messageId } = expectSyncFailure(res, {
        status: 409,
        error: 'TICKET_CLOSED',
        correlationId: a.correlationId,
      })
      await expectEvent(s, messageId, 'Ticket Already Closed', 'failed', 409)
    })

    test('row 16: RESOLVED with self-healing off answers suppressed and leaves the ticket open', async () => {
      const s = await setupIntegration(svc)
      const a = await openTicket(s)
      await s.partner('PATCH', `/api/partner/integrations/${s.integrationId}`, { selfHealing: false })
      const res = await s.sync({ incidentStatus: 'RESOLVED' }, { correlationId: a.correlationId })
      const { messageId } = expectSyncSuccess(res, {
        status: 200,
        message: 'suppressed',
        correlationId: a.correlationId,
      })
      await expectEvent(s, messageId, 'Self-Healing Disabled', 'suppressed', 200)
      const ticket = await s.partner('GET', `/api/partner/tickets/${a.correlationId}`)
      assert.equal(ticket.body.status, 'open')
    })

    test('row 17: RESOLVED on a ticket closed here answers 409', async () => {
      const s = await setupIntegration(svc)
      const a = await openTicket(s)
      await s.sync({ incidentStatus: 'RESOLVED' }, { correlationId: a.correlationId })
      const res = await s.sync({ incidentStatus: 'RESOLVED' }, { correlationId: a.correlationId })
      const { messageId } = expectSyncFailure(res, { status: 409, error: 'TICKET_CLOSED' })
      await expectEvent(s, messageId, 'Ticket Already Closed', 'failed', 409)
    })

    test('row 17: RESOLVED on a ticket a technician closed in the PSA answers 409 and marks it closed', async () => {
      const s = await setupIntegration(svc)
      const a = await openTicket(s)
      const ticket = await s.partner('GET', `/api/partner/tickets/${a.correlationId}`)
      const closedInPsa = await s.partner(
        'PATCH',
        `/api/partner/sandbox/tickets/${ticket.body.psaTicketId}`,
        { status: 'Closed' },
      )
      assert.equal(closedInPsa.status, 200)
      const res = await s.sync({ incidentStatus: 'RESOLVED' }, { correlationId: a.correlationId })
      const { messageId } = expectSyncFailure(res, { status: 409, error: 'TICKET_CLOSED' })
      assert.match(res.body.detail, /in the PSA/)
      await expectEvent(s, messageId, 'Ticket Already Closed', 'failed', 409)
      const after = await s.partner('GET', `/api/partner/tickets/${a.correlationId}`)
      assert.equal(after.body.status, 'closed')
    })

    test('row 18: RESOLVED closes the ticket in the PSA and answers closed with statusCode "200"', async () => {
      const s = await setupIntegration(svc)
      const a = await openTicket(s)
      const res = await s.sync({ incidentStatus: 'RESOLVED' }, { correlationId: a.correlationId })
      const { messageId } = expectSyncSuccess(res, {
        status: 200,
        message: 'closed',
        correlationId: a.correlationId,
      })
      await expectEvent(s, messageId, 'Ticket Closed', 'success', 200)
      const sandbox = await s.partner('GET', '/api/partner/sandbox/tickets')
      assert.equal(sandbox.body.data[0].status, 'Closed')
      const ticket = await s.partner('GET', `/api/partner/tickets/${a.correlationId}`)
      assert.equal(ticket.body.status, 'closed')
      assert.ok(ticket.body.closedAt)
    })

    test('row 19: a PSA failure on create answers 502 and leaves no ticket behind', async () => {
      const s = await setupIntegration(svc)
      await s.partner('PUT', '/api/partner/sandbox/fault', {
        mode: 'error',
        operations: ['create'],
        count: 1,
      })
      const res = await s.sync()
      const { messageId } = expectSyncFailure(res, { status: 502, error: 'PSA_ERROR', correlationId: null })
      assert.match(res.body.detail, /500/)
      await expectEvent(s, messageId, 'Failed To Create Ticket', 'failed', 502)
      assert.equal((await svc.services.store.tickets.list({ partnerId: s.partnerId, limit: 10 })).length, 0)
      // The fault was for one call: the vendor's retry succeeds.
      await openTicket(s)
    })

    test('row 19: PSA timeouts on update and close answer 502 and leave the ticket open', async () => {
      const s = await setupIntegration(svc)
      const a = await openTicket(s)
      await s.partner('PUT', '/api/partner/sandbox/fault', {
        mode: 'timeout',
        operations: ['append', 'close'],
      })
      const update = await s.sync({ incidentStatus: 'UPDATE' }, { correlationId: a.correlationId })
      const u = expectSyncFailure(update, { status: 502, error: 'PSA_ERROR', correlationId: a.correlationId })
      await expectEvent(s, u.messageId, 'Failed To Update Ticket', 'failed', 502)
      const close = await s.sync({ incidentStatus: 'RESOLVED' }, { correlationId: a.correlationId })
      const c = expectSyncFailure(close, { status: 502, error: 'PSA_ERROR', correlationId: a.correlationId })
      await expectEvent(s, c.messageId, 'Failed To Close Ticket', 'failed', 502)
      const ticket = await s.partner('GET', `/api/partner/tickets/${a.correlationId}`)
      assert.equal(ticket.body.status, 'open')
      await s.partner('DELETE', '/api/partner/sandbox/fault')
      expectSyncSuccess(await s.sync({ incidentStatus: 'RESOLVED' }, { correlationId: a.correlationId }), {
        status: 200,
        message: 'closed',
      })
    })

    test('row 20: an unexpected error answers 500 without detail of the cause and records Internal Error', async () => {
      const s = await setupIntegration(svc)
      await s.partner('PUT', '/api/partner/sandbox/fault', {
        mode: 'defect',
        operations: ['create'],
        count: 1,
      })
      const res = await s.sync()
      const { messageId } = expectSyncFailure(res, { status: 500, error: 'INTERNAL' })
      assert.doesNotMatch(res.body.detail, /simulated defect/)
      await expectEvent(s, messageId, 'Internal Error', 'failed', 500)
      assert.equal((await svc.services.store.tickets.list({ partnerId: s.partnerId, limit: 10 })).length, 0)
      await openTicket(s)
    })
  })
}
