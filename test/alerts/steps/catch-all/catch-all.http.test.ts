// The catch-all account through the API (docs/partner-api.md#catch-all-account): off, an unmapped
// account's OPEN is refused as before; on, it opens a ticket in the fallback company with the vendor's
// account at the top; the accounts seen unmapped are listed with their counts; mapping one sends its
// later alerts to its company and moves its open catch-all ticket there (the sandbox can), or notes it.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { type Setup, setupIntegration } from '../../../support/fixtures.js'
import { backends, startService, type TestService } from '../../../support/service.js'
import { expectFailure, expectSyncFailure, expectSyncSuccess } from '../../../support/shapes.js'

for (const backend of backends('databases')) {
  describe(`catch-all account (${backend})`, () => {
    let svc: TestService
    before(async () => {
      svc = await startService({ backend })
    })
    after(() => svc.close())

    const integration = (s: Setup) => `/api/partner/integrations/${s.integrationId}`
    const unmapped = async (s: Setup) => {
      const res = await s.partner('GET', `${integration(s)}/unmapped-accounts`)
      assert.equal(res.status, 200, res.text)
      return res.body.data as {
        accountId: string
        name: string | null
        declared: boolean
        alertCount: number
        openCatchAllTickets: number
        lastSeenAt: string
      }[]
    }
    const sandboxTicket = async (s: Setup, correlationId: string) => {
      const t = (await s.partner('GET', `/api/partner/tickets/${correlationId}`)).body
      const all = (await s.partner('GET', '/api/partner/sandbox/tickets?limit=200')).body.data
      const found = all.find((x: { id: string }) => x.id === t.psaTicketId)
      assert.ok(found, `sandbox ticket ${t.psaTicketId}`)
      return found
    }
    const turnOn = async (s: Setup) => {
      const res = await s.partner('PATCH', integration(s), {
        catchAll: { enabled: true, psaCompanyId: '999', board: 'Triage' },
      })
      assert.equal(res.status, 200, res.text)
      assert.deepEqual(res.body.catchAll, { enabled: true, psaCompanyId: '999', board: 'Triage' })
    }

    test('off: ACCOUNT_NOT_MAPPED and ACCOUNT_UNKNOWN as before, and the list counts them', async () => {
      const s = await setupIntegration(svc)
      assert.deepEqual((await s.partner('GET', integration(s))).body.catchAll, {
        enabled: false,
        psaCompanyId: null,
        board: null,
      })
      expectSyncFailure(await s.sync({ accountId: 'globex-002' }), {
        status: 404,
        error: 'ACCOUNT_NOT_MAPPED',
      })
      expectSyncFailure(await s.sync({ accountId: 'globex-002' }), {
        status: 404,
        error: 'ACCOUNT_NOT_MAPPED',
      })
      expectSyncFailure(await s.sync({ accountId: 'ghost-9' }), { status: 404, error: 'ACCOUNT_UNKNOWN' })
      expectSyncSuccess(await s.sync(), { status: 201, message: 'created' })
      const list = await unmapped(s)
      assert.deepEqual(
        list.map(({ lastSeenAt: _, ...r }) => r),
        [
          {
            accountId: 'globex-002',
            name: 'Company globex-002',
            declared: true,
            alertCount: 2,
            openCatchAllTickets: 0,
          },
          { accountId: 'ghost-9', name: null, declared: false, alertCount: 1, openCatchAllTickets: 0 },
        ],
      )
      assert.ok(list.every((r) => !Number.isNaN(Date.parse(r.lastSeenAt))))
    })

    test('bad input: on without a company, an unknown field; nothing changes', async () => {
      const s = await setupIntegration(svc)
      expectFailure(
        await s.partner('PATCH', integration(s), { catchAll: { enabled: true } }),
        400,
        'VALIDATION_FAILED',
      )
      expectFailure(
        await s.partner('PATCH', integration(s), { catchAll: { enabled: true, psaCompanyId: '' } }),
        400,
        'VALIDATION_FAILED',
      )
      expectFailure(
        await s.partner('PATCH', integration(s), { catchAll: { enabled: true, company: '9' } }),
        400,
        'VALIDATION_FAILED',
      )
      assert.equal((await s.partner('GET', integration(s))).body.catchAll.enabled, false)
      expectFailure(
        await s.partner('GET', `${integration(s)}/unmapped-accounts?limit=0`),
        400,
        'VALIDATION_FAILED',
      )
      // Turning it off again keeps the company for the next time.
      await turnOn(s)
      const off = await s.partner('PATCH', integration(s), { catchAll: { enabled: false } })
      assert.deepEqual(off.body.catchAll, { enabled: false, psaCompanyId: '999', board: 'Triage' })
      expectSyncFailure(await s.sync({ accountId: 'globex-002' }), {
        status: 404,
        error: 'ACCOUNT_NOT_MAPPED',
      })
    })

    test('on: a ticket in the fallback company names the account; map it: the ticket moves, later alerts go to the company', async () => {
      const s = await setupIntegration(svc)
      expectSyncFailure(await s.sync({ accountId: 'globex-002' }), {
        status: 404,
        error: 'ACCOUNT_NOT_MAPPED',
      })
      await turnOn(s)

      // The dry run explains the row.
      const dry = await s.partner('POST', `${integration(s)}/dry-run`, {
        data: {
          title: 't',
          summary: 's',
          alertType: 'Malware Detected',
          accountId: 'globex-002',
          productGroup: 'Endpoint Security',
          incidentStatus: 'OPEN',
        },
      })
      assert.equal(dry.status, 200, dry.text)
      assert.equal(dry.body.row, 'catch-all')
      assert.equal(dry.body.action, 'create')
      assert.equal(dry.body.ticket.board, 'Triage')
      assert.match(dry.body.reason, /not mapped.*fallback PSA company '999'/)

      const opened = expectSyncSuccess(await s.sync({ accountId: 'globex-002' }), {
        status: 201,
        message: 'created',
      })
      const t = await sandboxTicket(s, opened.correlationId)
      assert.equal(t.companyId, '999')
      assert.equal(t.board, 'Triage')
      const lines = t.description.split('\n')
      assert.match(lines[0], /^Catch-all ticket/)
      assert.equal(lines[1], 'Vendor account: Company globex-002 (id globex-002)')

      // A repeat folds into it; an UPDATE reaches it while the account is unmapped.
      expectSyncSuccess(await s.sync({ accountId: 'globex-002' }), {
        status: 200,
        message: 'updated',
        correlationId: opened.correlationId,
      })
      expectSyncSuccess(
        await s.sync(
          { accountId: 'globex-002', incidentStatus: 'UPDATE' },
          { correlationId: opened.correlationId },
        ),
        { status: 200, message: 'updated' },
      )
      // A never-declared account goes there too, named by its id.
      const ghost = expectSyncSuccess(await s.sync({ accountId: 'ghost-9' }), {
        status: 201,
        message: 'created',
      })
      assert.match(
        (await sandboxTicket(s, ghost.correlationId)).description,
        /ghost-9 \(not declared by the vendor\)/,
      )

      const list = await unmapped(s)
      assert.deepEqual(
        list.map((r) => [r.accountId, r.alertCount, r.openCatchAllTickets, r.declared]),
        [
          // One refused OPEN, then the ticket's occurrences: its OPEN, the repeat and the UPDATE.
          ['globex-002', 4, 1, true],
          ['ghost-9', 1, 1, false],
        ],
      )

      // Mapping it: the open catch-all ticket moves to the company (the sandbox can), with a note.
      const mapped = await s.partner('PUT', `${integration(s)}/accounts/globex-002`, { psaCompanyId: '200' })
      assert.equal(mapped.status, 200, mapped.text)
      assert.deepEqual(mapped.body.catchAllTickets, { moved: 1, noted: 0, failed: 0 })
      const moved = await sandboxTicket(s, opened.correlationId)
      assert.equal(moved.companyId, '200')
      assert.match(moved.notes.at(-1).text, /now mapped to PSA company 200: this ticket was moved there/)
      assert.deepEqual(
        (await unmapped(s)).map((r) => r.accountId),
        ['ghost-9'],
      )
      // A later alert of another type opens a ticket in the company, without the catch-all header.
      const later = expectSyncSuccess(await s.sync({ accountId: 'globex-002', alertType: 'Agent Offline' }), {
        status: 201,
        message: 'created',
      })
      const laterTicket = await sandboxTicket(s, later.correlationId)
      assert.equal(laterTicket.companyId, '200')
      assert.doesNotMatch(laterTicket.description, /Catch-all/)
      // The moved ticket is an ordinary ticket of the account: its repeat folds into it and it closes.
      expectSyncSuccess(await s.sync({ accountId: 'globex-002' }), {
        status: 200,
        message: 'updated',
        correlationId: opened.correlationId,
      })
      expectSyncSuccess(
        await s.sync(
          { accountId: 'globex-002', incidentStatus: 'RESOLVED' },
          { correlationId: opened.correlationId },
        ),
        { status: 200, message: 'closed' },
      )
    })

    test('where the PSA cannot move it: the catch-all ticket gets a note, new alerts open in the company', async () => {
      const s = await setupIntegration(svc)
      await turnOn(s)
      const opened = expectSyncSuccess(await s.sync({ accountId: 'globex-002' }), {
        status: 201,
        message: 'created',
      })
      // The sandbox's move fails once (as a PSA without the operation would refuse it); the note goes.
      const fault = await s.partner('PUT', '/api/partner/sandbox/fault', {
        mode: 'error',
        operations: ['append'],
        count: 1,
      })
      assert.equal(fault.status, 200, fault.text)
      const mapped = await s.partner('PUT', `${integration(s)}/accounts/globex-002`, { psaCompanyId: '200' })
      assert.equal(mapped.status, 200, mapped.text)
      assert.deepEqual(mapped.body.catchAllTickets, { moved: 0, noted: 1, failed: 0 })
      const stayed = await sandboxTicket(s, opened.correlationId)
      assert.equal(stayed.companyId, '999')
      assert.match(
        stayed.notes.at(-1).text,
        /now mapped to PSA company 200: its new alerts open tickets there/,
      )
      // The same alert again opens a new ticket in the company instead of folding into the catch-all one.
      const next = expectSyncSuccess(await s.sync({ accountId: 'globex-002' }), {
        status: 201,
        message: 'created',
      })
      assert.notEqual(next.correlationId, opened.correlationId)
      assert.equal((await sandboxTicket(s, next.correlationId)).companyId, '200')
      // The catch-all ticket still takes its own RESOLVED.
      expectSyncSuccess(
        await s.sync(
          { accountId: 'globex-002', incidentStatus: 'RESOLVED' },
          { correlationId: opened.correlationId },
        ),
        { status: 200, message: 'closed' },
      )
      // Mapping an account without catch-all tickets answers as before.
      const plain = await s.partner('PUT', `${integration(s)}/accounts/acme-001`, { psaCompanyId: '100' })
      assert.deepEqual(plain.body, { accountId: 'acme-001', psaCompanyId: '100', board: null })
    })
  })
}
