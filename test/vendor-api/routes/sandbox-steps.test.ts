// Self-serve test mode, the partner's side (docs/vendor-api.md#self-serve-test-mode) over HTTP against a
// real service: in its own test integration a vendor maps an account, adds a rule and closes a ticket
// as a technician in the sandbox PSA, and sees each outcome: the mapped account's alert makes a ticket,
// the suppressing rule's alert is suppressed, the close reaches its webhook as 'Ticket Closed In PSA'
// at once (the poll runs every five minutes here, so only the close's own read can send it) and a later
// RESOLVED answers 409. Another integration, or a token bound to another, is refused, changing nothing.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { catalogue, issueToken, setupIntegration } from '../../support/fixtures.js'
import { type Receiver, startReceiver } from '../../support/receiver.js'
import { backends, startService, type TestService } from '../../support/service.js'

const env = { ALLOW_PRIVATE_NETWORK: 'true' }

for (const backend of backends()) {
  describe(`vendor sandbox: the partner's steps (${backend})`, () => {
    let svc: TestService
    let receiver: Receiver
    let vendor: { id: string; clientId: string; clientSecret: string }
    let token: string
    let bound: string
    let box: { integrationId: string; organizationOemToken: string; partnerApiKey: string; accountId: string }
    before(async () => {
      svc = await startService({ backend, env })
      receiver = await startReceiver()
      const made = await svc.request('POST', '/api/admin/vendors', {
        token: svc.adminToken,
        body: { name: 'Acme Security', productGroups: catalogue, webhookUrl: receiver.url },
      })
      assert.equal(made.status, 201, made.text)
      receiver.setSecret(made.body.webhookSecret)
      vendor = { id: made.body.id, clientId: made.body.clientId, clientSecret: made.body.clientSecret }
      token = await issueToken(svc, vendor)
      const sandbox = await svc.request('POST', '/api/vendor-api/sandbox', { token, body: {} })
      assert.equal(sandbox.status, 201, sandbox.text)
      box = sandbox.body
      bound = await issueToken(svc, vendor, box.organizationOemToken)
    })
    after(async () => {
      await svc.close()
      await receiver.close()
    })

    const step = (method: string, path: string, body?: unknown, t = token) =>
      svc.request(method, `/api/vendor-api/sandbox/${box.integrationId}${path}`, { token: t, body })
    const alert = (data: Record<string, unknown>, correlationId?: string) =>
      svc.request('POST', '/api/oem-alerts-api/alert/sync', {
        body: {
          clientId: vendor.clientId,
          clientSecret: vendor.clientSecret,
          grantType: 'client_credentials',
          scope: 'vendor_manage',
          organizationOemToken: box.organizationOemToken,
          integrationId: box.integrationId,
          ...(correlationId ? { correlationId } : {}),
          data: {
            title: 'Malware on WS-1',
            summary: 'Quarantined.',
            alertType: 'Malware Detected',
            accountId: box.accountId,
            productGroup: 'Endpoint Security',
            incidentStatus: 'OPEN',
            ...data,
          },
        },
      })

    test('maps a declared account as the partner would; an undeclared one is refused', async () => {
      const declared = await svc.request('POST', '/api/vendor-api/organization/accounts', {
        token: bound,
        body: { vendorAccountId: 'globex-002', name: 'Globex', externalId: 'GLOBEX' },
      })
      assert.equal(declared.status, 201, declared.text)
      const mapped = await step('PUT', '/accounts/globex-002', {})
      assert.equal(mapped.status, 200, mapped.text)
      assert.deepEqual(mapped.body, { test: true, accountId: 'globex-002', psaCompanyId: '100', board: null })
      const made = await alert({ accountId: 'globex-002' })
      assert.equal(made.status, 201, made.text)
      assert.equal(made.body.message, 'created')

      const before = await svc.snapshot()
      const unknown = await step('PUT', '/accounts/nobody-999', {})
      assert.equal(unknown.status >= 400 && unknown.status < 500, true, unknown.text)
      assert.ok(unknown.body.error)
      const bad = await step('PUT', '/accounts/globex-002', { psaCompanyId: '' })
      assert.equal(bad.status, 400, bad.text)
      assert.equal(bad.body.error, 'VALIDATION_FAILED')
      assert.deepEqual(await svc.snapshot(), before)
    })

    test('adds a rule as the partner would: a suppressing one makes its alerts suppressed', async () => {
      const rule = await step('POST', '/rules', { productGroup: 'Backup', action: 'suppress' })
      assert.equal(rule.status, 201, rule.text)
      assert.equal(rule.body.test, true)
      assert.deepEqual([rule.body.productGroup, rule.body.action], ['Backup', 'suppress'])
      const suppressed = await alert({
        productGroup: 'Backup',
        alertType: 'Backup Failed',
        title: 'Backup failed',
      })
      assert.equal(suppressed.body.message, 'suppressed', suppressed.text)

      const before = await svc.snapshot()
      for (const body of [{}, { productGroup: 'Not Ours' }, { productGroup: 'Backup', action: 'delete' }]) {
        const refused = await step('POST', '/rules', body)
        assert.equal(refused.status, 400, refused.text)
        assert.equal(refused.body.error, 'VALIDATION_FAILED')
      }
      assert.deepEqual(await svc.snapshot(), before)
    })

    test("closing a ticket as a technician sends 'Ticket Closed In PSA' at once; RESOLVED then answers 409", async () => {
      const opened = await alert({ title: 'Ransomware on WS-7', alertType: 'Ransomware Behaviour' })
      assert.equal(opened.status, 201, opened.text)
      const cid: string = opened.body.data.correlationID
      const closed = await step('POST', `/tickets/${cid}/close`, {})
      assert.equal(closed.status, 202, closed.text)
      assert.equal(closed.body.test, true)
      assert.equal(closed.body.psaStatus, 'Closed')
      const sandbox = await svc.request('GET', '/api/partner/sandbox/tickets', { token: box.partnerApiKey })
      const inPsa = sandbox.body.data.find((t: { id: string }) => t.id === closed.body.psaTicketId)
      assert.equal(inPsa.status, 'Closed')
      const closedInPsa = () =>
        receiver
          .accepted('status_update')
          .filter(
            (r) => r.body.payload.correlationId === cid && r.body.payload.event === 'Ticket Closed In PSA',
          )
      await receiver.waitFor(() => closedInPsa().length > 0, `'Ticket Closed In PSA' for ${cid}`)
      // Every event of a test integration is marked as a test.
      assert.equal(closedInPsa()[0]!.body.payload.test, true)
      const events = receiver.accepted().filter((r) => r.body.payload.integrationId === box.integrationId)
      assert.ok(events.length > 1)
      assert.deepEqual(new Set(events.map((r) => r.body.payload.test)), new Set([true]))
      const resolved = await alert({ incidentStatus: 'RESOLVED' }, cid)
      assert.equal(resolved.status, 409, resolved.text)
      assert.equal(resolved.body.error, 'TICKET_CLOSED')

      const before = await svc.snapshot()
      const again = await step('POST', `/tickets/${cid}/close`, {})
      assert.equal(again.status, 409, again.text)
      assert.equal(again.body.error, 'CONFLICT')
      const unknown = await step('POST', '/tickets/no-such-ticket/close', {})
      assert.equal(unknown.status, 404, unknown.text)
      assert.equal(unknown.body.error, 'TICKET_NOT_FOUND')
      assert.deepEqual(await svc.snapshot(), before)
    })

    test('another integration, or a token bound to another, is refused and changes nothing', async () => {
      const real = await setupIntegration(svc, { vendorName: 'Other Vendor' })
      const before = await svc.snapshot()
      const otherToken = await issueToken(svc, real)
      const notTheirs = await step('POST', '/rules', { productGroup: 'Backup' }, otherToken)
      assert.equal(notTheirs.status, 404, notTheirs.text)
      const realOne = await svc.request('POST', `/api/vendor-api/sandbox/${real.integrationId}/rules`, {
        token: otherToken,
        body: { productGroup: 'Backup' },
      })
      assert.equal(realOne.status, 404, realOne.text)
      assert.equal(realOne.body.error, 'NOT_FOUND')
      const second = await svc.request('POST', '/api/vendor-api/sandbox', { token, body: {} })
      assert.equal(second.status, 201, second.text)
      const boundElsewhere = await svc.request(
        'PUT',
        `/api/vendor-api/sandbox/${second.body.integrationId}/accounts/${box.accountId}`,
        { token: bound, body: {} },
      )
      assert.equal(boundElsewhere.status, 403, boundElsewhere.text)
      assert.equal(boundElsewhere.body.error, 'FORBIDDEN')
      const gone = await svc.request('DELETE', `/api/vendor-api/sandbox/${second.body.integrationId}`, {
        token,
      })
      assert.equal(gone.status, 204, gone.text)
      // Tokens issued and the second box made and deleted aside, nothing the refusals touched changed.
      const after = await svc.snapshot()
      for (const table of ['rules', 'account_mappings', 'tickets', 'sandbox_tickets'])
        assert.deepEqual(after[table], before[table], table)
    })
  })
}
