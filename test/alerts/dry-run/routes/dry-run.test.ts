// The rule tester's dry run (docs/decisions/portal/dry-run.md): the real decision over the integration's
// current rules, toggles, mappings and tickets says create, append, close, suppress or refuse, and why —
// and not one row changes.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { type AlertData, defaultAlert, type Setup, setupIntegration } from '../../../support/fixtures.js'
import { backends, startService, type TestService } from '../../../support/service.js'
import { expectFailure, expectSyncSuccess } from '../../../support/shapes.js'

for (const backend of backends()) {
  describe(`dry run of an alert (${backend})`, () => {
    let svc: TestService
    before(async () => {
      // No state_snapshot left waiting to be coalesced between two snapshots of the rows.
      svc = await startService({ backend, env: { SNAPSHOT_COALESCE_MS: '0' } })
    })
    after(() => svc.close())

    /** A dry run whose answer is 200 and which changed no row. */
    async function dry(s: Setup, data: Partial<AlertData>, extra: Record<string, unknown> = {}) {
      const before = await svc.snapshot()
      const res = await s.partner('POST', `/api/partner/integrations/${s.integrationId}/dry-run`, {
        data: { ...defaultAlert, ...data },
        ...extra,
      })
      assert.equal(res.status, 200, res.text)
      // OPEN: also ruleChecks and conditionWork (test/alerts/rules/routes/rules.limits.test.ts), and ticketText for a
      // templated rule (test/alerts/rules/routes/rule-templates.test.ts).
      const optional = ['ruleChecks', 'conditionWork', 'ticketText']
      assert.deepEqual(
        Object.keys(res.body).filter((k) => !optional.includes(k)),
        [
          'matchedRule',
          'action',
          'summary',
          'reason',
          'ticket',
          'existingTicket',
          'row',
          'error',
          // The names beside the ids (docs/partner-api.md#names; test/partner-api/tickets/names-view.test.ts).
          'accountName',
          'psaCompanyId',
          'psaCompanyName',
          'boardName',
          'priorityName',
          'typeName',
          'statusName',
        ],
      )
      assert.deepEqual(await svc.snapshot(), before, 'a dry run changes nothing')
      return res.body
    }

    test('create: the matching rule and the ticket it would make, the PSA defaults applied', async () => {
      const s = await setupIntegration(svc, {
        rule: { productGroup: 'Endpoint Security', ticket: { priority: 'P1 - Critical' } },
      })
      await s.partner('PUT', '/api/partner/psa', {
        kind: 'sandbox',
        defaults: { board: 'Default', priority: 'P3', type: 'Incident' },
      })
      const r = await dry(s, {})
      assert.equal(r.action, 'create')
      assert.equal(r.row, 'create')
      assert.equal(r.error, null)
      assert.equal(r.matchedRule.id, s.ruleId)
      assert.equal(r.matchedRule.productGroup, 'Endpoint Security')
      assert.equal(typeof r.matchedRule.precedence, 'number')
      assert.deepEqual(r.ticket, {
        board: 'Default',
        priority: 'P1 - Critical',
        type: 'Incident',
        status: null,
      })
      assert.equal(r.existingTicket, null)
      assert.match(r.reason, /new ticket would be created for account 'acme-001' in PSA company '100'/)
      // The account mapping's board goes before the rule's and the defaults'.
      await s.partner('PUT', `/api/partner/integrations/${s.integrationId}/accounts/acme-001`, {
        psaCompanyId: '100',
        board: 'Acme Board',
      })
      assert.equal((await dry(s, {})).ticket.board, 'Acme Board')
      // Nothing was created by either run.
      assert.deepEqual((await s.partner('GET', '/api/partner/tickets')).body.data, [])
    })

    test('append: to the open ticket its correlationId names, to the one de-duplication finds, and an UPDATE', async () => {
      const s = await setupIntegration(svc)
      const opened = expectSyncSuccess(await s.sync(), { status: 201, message: 'created' })
      const ticket = (await s.partner('GET', `/api/partner/tickets/${opened.correlationId}`)).body
      assert.match(ticket.psaTicketId, /^SBX-\d+$/)
      const existing = {
        correlationId: opened.correlationId,
        psaTicketId: ticket.psaTicketId,
        status: 'open',
      }
      const byId = await dry(s, {}, { correlationId: opened.correlationId })
      assert.equal(byId.action, 'append')
      assert.equal(byId.row, 'repeat')
      assert.deepEqual(byId.existingTicket, existing)
      assert.equal(byId.matchedRule.id, s.ruleId)
      assert.match(byId.reason, /is open; the alert would be added to it as a note/)

      const byKey = await dry(s, { title: 'Malware again' })
      assert.equal(byKey.action, 'append')
      assert.deepEqual(byKey.existingTicket, existing)
      assert.match(byKey.reason, /De-duplication/)

      const update = await dry(s, { incidentStatus: 'UPDATE' }, { correlationID: opened.correlationId })
      assert.equal(update.action, 'append')
      assert.equal(update.row, 'update')
      assert.equal(update.matchedRule.id, s.ruleId)
      assert.equal(update.ticket, null)
    })

    test('close: a RESOLVED of an open ticket with self-healing on', async () => {
      const s = await setupIntegration(svc)
      const opened = expectSyncSuccess(await s.sync(), { status: 201, message: 'created' })
      const r = await dry(s, { incidentStatus: 'RESOLVED' }, { correlationId: opened.correlationId })
      assert.equal(r.action, 'close')
      assert.equal(r.row, 'close')
      assert.equal(r.matchedRule.id, s.ruleId)
      assert.equal(r.existingTicket.status, 'open')
      assert.match(r.reason, /would get a resolution note and be closed/)
    })

    test('suppress: by a suppressing rule, and a RESOLVED with self-healing off', async () => {
      const s = await setupIntegration(svc)
      const quiet = await s.partner('POST', `/api/partner/integrations/${s.integrationId}/rules`, {
        productGroup: 'Backup',
        action: 'suppress',
      })
      const r = await dry(s, { productGroup: 'Backup', alertType: 'Backup Warning' })
      assert.equal(r.action, 'suppress')
      assert.equal(r.row, 'suppressed')
      assert.equal(r.matchedRule.id, quiet.body.id)
      assert.equal(r.ticket, null)
      assert.match(r.reason, /suppresses productGroup 'Backup'/)

      const opened = expectSyncSuccess(await s.sync(), { status: 201, message: 'created' })
      await s.partner('PATCH', `/api/partner/integrations/${s.integrationId}`, { selfHealing: false })
      const healing = await dry(s, { incidentStatus: 'RESOLVED' }, { correlationId: opened.correlationId })
      assert.equal(healing.action, 'suppress')
      assert.equal(healing.row, 'self-healing-off')
      assert.equal(healing.existingTicket.correlationId, opened.correlationId)
    })

    test('refuse: an unmapped account, an unknown type, an unknown or closed ticket, alerting off', async () => {
      const s = await setupIntegration(svc)
      const cases: [Partial<AlertData>, Record<string, unknown>, string, string][] = [
        [{ accountId: 'globex-002' }, {}, 'ACCOUNT_NOT_MAPPED', 'no-mapping-or-rule'],
        [{ accountId: 'nobody' }, {}, 'ACCOUNT_UNKNOWN', 'no-mapping-or-rule'],
        [{ alertType: 'Coffee Spilled' }, {}, 'INVALID_ALERT', 'not-in-catalogue'],
        [{ productGroup: 'Backup', alertType: 'Backup Failed' }, {}, 'NO_RULE', 'no-mapping-or-rule'],
        [{ incidentStatus: 'UPDATE' }, {}, 'CORRELATION_ID_REQUIRED', 'missing-correlation-id'],
        [
          { incidentStatus: 'UPDATE' },
          { correlationId: 'never-seen' },
          'TICKET_NOT_FOUND',
          'ticket-not-found',
        ],
      ]
      for (const [data, extra, error, row] of cases) {
        const r = await dry(s, data, extra)
        assert.equal(r.action, 'refuse', `${error}: ${JSON.stringify(r)}`)
        assert.equal(r.error, error)
        assert.equal(r.row, row)
        assert.ok(r.reason.length > 10)
      }
      const opened = expectSyncSuccess(await s.sync(), { status: 201, message: 'created' })
      expectSyncSuccess(
        await s.sync({ incidentStatus: 'RESOLVED' }, { correlationId: opened.correlationId }),
        {
          status: 200,
          message: 'closed',
        },
      )
      const closed = await dry(s, { incidentStatus: 'UPDATE' }, { correlationId: opened.correlationId })
      assert.equal(closed.action, 'refuse')
      assert.equal(closed.error, 'TICKET_CLOSED')
      const ticket = (await s.partner('GET', `/api/partner/tickets/${opened.correlationId}`)).body
      assert.deepEqual(closed.existingTicket, {
        correlationId: opened.correlationId,
        psaTicketId: ticket.psaTicketId,
        status: 'closed',
      })
      await s.partner('PATCH', `/api/partner/integrations/${s.integrationId}`, { alertsEnabled: false })
      const off = await dry(s, {})
      assert.equal(off.action, 'refuse')
      assert.equal(off.error, 'ALERTING_DISABLED')
      assert.equal(off.row, 'integration-not-active')
    })

    test('refuse: the vendor is disabled by the operator (before any row of the table)', async () => {
      const s = await setupIntegration(svc)
      const off = await svc.request('POST', `/api/admin/vendors/${s.vendorId}/disable`, {
        token: svc.adminToken,
        body: {},
      })
      assert.equal(off.status, 200, off.text)
      const r = await dry(s, {})
      assert.equal(r.action, 'refuse')
      assert.equal(r.error, 'TENANT_DISABLED')
      assert.equal(r.row, null)
    })

    test('reordering rules changes which rule matches', async () => {
      const s = await setupIntegration(svc)
      const base = `/api/partner/integrations/${s.integrationId}/rules`
      const malware = await s.partner('POST', base, {
        productGroup: 'Endpoint Security',
        alertTypes: ['Malware Detected'],
        action: 'suppress',
        precedence: 1,
      })
      const first = await dry(s, {})
      assert.equal(first.matchedRule.id, malware.body.id)
      assert.equal(first.action, 'suppress')
      await s.partner('PATCH', `${base}/${malware.body.id}`, { precedence: 100 })
      const second = await dry(s, {})
      assert.equal(second.matchedRule.id, s.ruleId)
      assert.equal(second.action, 'create')
    })

    test('the dry run decides as the alert then does', async () => {
      const s = await setupIntegration(svc)
      const predicted = await dry(s, {})
      assert.equal(predicted.action, 'create')
      expectSyncSuccess(await s.sync(), { status: 201, message: 'created' })
      assert.equal((await dry(s, {})).action, 'append')
    })

    test('a pasted alert with the vendor’s credentials is accepted; they are ignored', async () => {
      const s = await setupIntegration(svc)
      const r = await dry(
        s,
        {},
        { clientId: s.clientId, clientSecret: s.clientSecret, grantType: 'client_credentials' },
      )
      assert.equal(r.action, 'create')
    })

    test('bad input is a 400 (or 404 for an integration not the partner’s) in the failure shape, changing nothing', async () => {
      const s = await setupIntegration(svc)
      const other = await setupIntegration(svc, { partnerName: 'Other MSP', vendorName: 'Other vendor' })
      const path = `/api/partner/integrations/${s.integrationId}/dry-run`
      const before = await svc.snapshot()
      const { title: _title, ...noTitle } = defaultAlert
      for (const body of [
        {},
        { data: noTitle },
        { data: { ...defaultAlert, incidentStatus: 'CLOSED' } },
        { data: defaultAlert, correlationId: 'has space' },
        { data: defaultAlert, correlationId: 'a', correlationID: 'b' },
        { data: { ...defaultAlert, extra: 'x'.repeat(70_000) } },
        { data: { ...defaultAlert, accountId: 'x'.repeat(129) } },
      ]) {
        expectFailure(await s.partner('POST', path, body), 400, 'VALIDATION_FAILED')
      }
      expectFailure(
        await s.partner('POST', `/api/partner/integrations/${other.integrationId}/dry-run`, {
          data: defaultAlert,
        }),
        404,
        'INTEGRATION_NOT_FOUND',
      )
      expectFailure(
        await s.partner('POST', '/api/partner/integrations/nope/dry-run', { data: defaultAlert }),
        404,
        'INTEGRATION_NOT_FOUND',
      )
      expectFailure(await svc.request('POST', path, { body: { data: defaultAlert } }), 401, 'UNAUTHENTICATED')
      assert.deepEqual(await svc.snapshot(), before)
    })
  })
}
