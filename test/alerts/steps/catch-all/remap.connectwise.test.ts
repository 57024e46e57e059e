// The catch-all account on a real PSA (docs/decision-table.md#catch-all, docs/psa/connectwise.md "Moving
// a ticket to another company"), through the service against the ConnectWise simulator: the ticket of
// an unmapped account opens in the fallback company; mapping the account moves it in ConnectWise to the
// account's company and board (with the board's default status), and the note says it moved; its
// RESOLVED then closes it there. A move ConnectWise refuses (a company it does not have) leaves the
// ticket where it is, with the note that says where the account's new alerts now go.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { type Setup, setupIntegration } from '../../../support/fixtures.js'
import { backends, startService, type TestService } from '../../../support/service.js'
import { expectSyncSuccess } from '../../../support/shapes.js'
import { type ConnectWiseSim, startConnectWiseSim } from '../../../support/sims/connectwise/server.js'

const keys = {
  companyId: 'acme',
  publicKey: 'pub-key',
  privateKey: 'priv-key',
  clientId: '00000000-0000-4000-8000-000000000001',
}

for (const backend of backends()) {
  describe(`catch-all account on ConnectWise (${backend})`, () => {
    let svc: TestService
    let sim: ConnectWiseSim
    before(async () => {
      sim = await startConnectWiseSim()
      svc = await startService({ backend, env: { ALLOW_PRIVATE_NETWORK: 'true', PSA_TIMEOUT_MS: '3000' } })
    })
    after(async () => {
      await svc.close()
      await sim.close()
    })

    const integration = (s: Setup) => `/api/partner/integrations/${s.integrationId}`
    /** A partner on ConnectWise whose catch-all is Globex (2) on the Security board (2). */
    const setup = async () => {
      const s = await setupIntegration(svc, {
        psa: { kind: 'connectwise', baseUrl: sim.url, ...keys },
        psaCompanyId: '1',
        rule: { productGroup: 'Endpoint Security', ticket: { board: 'Service Desk' } },
      })
      const on = await s.partner('PATCH', integration(s), {
        catchAll: { enabled: true, psaCompanyId: '2', board: 'Security' },
      })
      assert.equal(on.status, 200, on.text)
      return s
    }
    const cwTicket = async (s: Setup, correlationId: string) => {
      const t = await s.partner('GET', `/api/partner/tickets/${correlationId}`)
      assert.equal(t.status, 200, t.text)
      const found = sim.state.tickets.find((x) => String(x.id) === t.body.psaTicketId)
      assert.ok(found, `ConnectWise ticket ${t.body.psaTicketId}`)
      return found
    }

    test('mapping the account moves the catch-all ticket in ConnectWise to its company and board, with a note', async () => {
      const s = await setup()
      const opened = expectSyncSuccess(await s.sync({ accountId: 'globex-002' }), {
        status: 201,
        message: 'created',
      })
      const t = await cwTicket(s, opened.correlationId)
      assert.deepEqual([t.companyId, t.boardId, t.statusId], [2, 2, 21])
      assert.match(t.initialDescription ?? '', /^Catch-all ticket/)

      const mapped = await s.partner('PUT', `${integration(s)}/accounts/globex-002`, {
        psaCompanyId: '1',
        board: 'Monitoring Alerts',
      })
      assert.equal(mapped.status, 200, mapped.text)
      assert.deepEqual(mapped.body.catchAllTickets, { moved: 1, noted: 0, failed: 0 })
      // Company 1 (Acme), board Monitoring Alerts (4) with its default status New (alert) (41).
      assert.deepEqual([t.companyId, t.boardId, t.statusId, t.closedFlag], [1, 4, 41, false])
      assert.deepEqual(
        sim.callsTo(new RegExp(`/service/tickets/${t.id}$`), 'PATCH').map((c) => c.body),
        [
          [
            { op: 'replace', path: 'company', value: { id: 1 } },
            { op: 'replace', path: 'board', value: { id: 4 } },
            { op: 'replace', path: 'status', value: { id: 41 } },
          ],
        ],
      )
      assert.match(t.notes.at(-1)?.text ?? '', /now mapped to PSA company 1: this ticket was moved there/)

      // The moved ticket is an ordinary ticket of the account: its repeat folds into it, it closes.
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
      assert.equal(t.closedFlag, true)
    })

    test('a move ConnectWise refuses (no such company): the ticket stays, with the note instead', async () => {
      const s = await setup()
      const opened = expectSyncSuccess(await s.sync({ accountId: 'globex-002' }), {
        status: 201,
        message: 'created',
      })
      const t = await cwTicket(s, opened.correlationId)
      const mapped = await s.partner('PUT', `${integration(s)}/accounts/globex-002`, {
        psaCompanyId: '77777',
      })
      assert.equal(mapped.status, 200, mapped.text)
      assert.deepEqual(mapped.body.catchAllTickets, { moved: 0, noted: 1, failed: 0 })
      assert.deepEqual([t.companyId, t.boardId], [2, 2])
      assert.match(
        t.notes.at(-1)?.text ?? '',
        /now mapped to PSA company 77777: its new alerts open tickets there/,
      )
    })
  })
}
