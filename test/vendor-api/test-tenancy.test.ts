// A sandbox for vendors (docs/vendor-api.md#test-tenancies-and-test-alerts), over HTTP against a real service:
// the operator's POST /api/admin/sandbox answers credentials that work at once (a token, an alert that
// makes a ticket in the sandbox PSA, signed webhooks); a test alert runs the whole path and is marked as
// a test in the PSA ticket's title, the audit view and the webhook; an integration that cannot take
// alerts is refused with 409 saying why, changing nothing. `npm start -- --demo --webhook-url` prints
// every credential, the webhook secret too, and older demo files still start.
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { loadConfig } from '../../src/platform/config.js'
import { issueToken, setupIntegration } from '../support/fixtures.js'
import { failedStart, startServer } from '../support/process.js'
import { type Receiver, startReceiver } from '../support/receiver.js'
import { backends, startService, type TestService } from '../support/service.js'
import { expectSyncFailure, expectSyncSuccess } from '../support/shapes.js'

const env = { ALLOW_PRIVATE_NETWORK: 'true', WEBHOOK_RETRY_SCHEDULE: '0.05,0.05' }

interface Sandbox {
  vendorId: string
  clientId: string
  clientSecret: string
  webhookSecret: string
  webhookUrl: string | null
  partnerId: string
  partnerApiKey: string
  integrationId: string
  organizationOemToken: string
  accountId: string
  productGroup: string
  alertType: string
  portalEmail: string
  portalInvite: string
}

for (const backend of backends('databases')) {
  describe(`sandbox and test alerts (${backend})`, () => {
    let svc: TestService
    let receiver: Receiver
    let box: Sandbox
    let token: string
    let realCorrelationId: string
    before(async () => {
      svc = await startService({ backend, env })
      receiver = await startReceiver()
    })
    after(async () => {
      await svc.close()
      await receiver.close()
    })

    const partner = (path: string) => svc.request('GET', path, { token: box.partnerApiKey })
    const testAlert = (body: Record<string, unknown> = {}, t = token) =>
      svc.request('POST', '/api/vendor-api/test-alert', { token: t, body })

    test('the operator makes a sandbox: every credential, and a refusal changes nothing', async () => {
      const unauthenticated = await svc.request('POST', '/api/admin/sandbox', { body: {} })
      assert.equal(unauthenticated.status, 401)
      const before = await svc.snapshot()
      const refused = await svc.request('POST', '/api/admin/sandbox', {
        token: svc.adminToken,
        body: { webhookUrl: 'http://user:secret@example.com/hooks' },
      })
      assert.equal(refused.status, 400, refused.text)
      assert.equal(refused.body.error, 'VALIDATION_FAILED')
      assert.match(refused.body.detail, /webhookUrl: .*user name or password/)
      assert.deepEqual(await svc.snapshot(), before, 'a refused sandbox writes nothing')

      const made = await svc.request('POST', '/api/admin/sandbox', {
        token: svc.adminToken,
        body: { name: 'Trial Vendor', webhookUrl: receiver.url },
      })
      assert.equal(made.status, 201, made.text)
      box = made.body
      assert.match(box.clientSecret, /\S{20,}/)
      assert.match(box.webhookSecret, /^whsec_/)
      assert.equal(box.webhookUrl, receiver.url)
      for (const field of ['partnerApiKey', 'organizationOemToken', 'portalInvite', 'integrationId'] as const)
        assert.ok(box[field], field)
      assert.deepEqual([box.accountId, box.productGroup], ['acme-001', 'Endpoint Security'])
      receiver.setSecret(box.webhookSecret)

      const integration = await svc.request('GET', `/api/partner/integrations/${box.integrationId}`, {
        token: box.partnerApiKey,
      })
      assert.equal(integration.status, 200, integration.text)
      assert.equal(integration.body.state, 'pending')
      // The operator audit log names the operator's making of each tenant.
      const audit = await svc.request('GET', `/api/admin/audit?targetId=${box.vendorId}`, {
        token: svc.adminToken,
      })
      assert.deepEqual(
        audit.body.data.map((e: { action: string }) => e.action),
        ['vendor.create'],
      )
      // A second sandbox is another vendor, partner and portal admin.
      const second = await svc.request('POST', '/api/admin/sandbox', { token: svc.adminToken, body: {} })
      assert.equal(second.status, 201, second.text)
      assert.notEqual(second.body.vendorId, box.vendorId)
      assert.notEqual(second.body.portalEmail, box.portalEmail)
      assert.equal(second.body.webhookUrl, null)
    })

    test("the sandbox's credentials get a token, and an alert makes a ticket in the sandbox PSA", async () => {
      token = await issueToken(svc, box, box.organizationOemToken)
      const res = await svc.request('POST', '/api/oem-alerts-api/alert/sync', {
        body: {
          clientId: box.clientId,
          clientSecret: box.clientSecret,
          grantType: 'client_credentials',
          scope: 'vendor_manage',
          organizationOemToken: box.organizationOemToken,
          integrationId: box.integrationId,
          data: {
            title: 'Malware detected on WS-042',
            summary: 'Quarantined.',
            alertType: box.alertType,
            accountId: box.accountId,
            productGroup: box.productGroup,
            incidentStatus: 'OPEN',
          },
        },
      })
      assert.equal(res.status, 201, res.text)
      assert.equal(res.body.message, 'created')
      realCorrelationId = res.body.data.correlationID
      const tickets = await partner('/api/partner/sandbox/tickets')
      assert.deepEqual(
        tickets.body.data.map((t: { summary: string }) => t.summary),
        ['Malware detected on WS-042'],
      )
    })

    test('a test alert runs the whole path and is marked as a test everywhere', async () => {
      // Answered exactly as the synchronous alert call answers; a ticket of its own: a test never folds
      // into a real ticket, though it has the real one's account, group and type.
      const res = await testAlert({ title: 'Checking our integration' })
      const { messageId, correlationId: correlationID } = expectSyncSuccess(res, {
        status: 201,
        message: 'created',
      })
      assert.notEqual(correlationID, realCorrelationId)

      // The PSA ticket's title says test.
      const tickets = await partner('/api/partner/sandbox/tickets')
      const psaTicket = tickets.body.data.find((t: { description: string }) =>
        t.description.includes(correlationID),
      )
      assert.equal(psaTicket.summary, '[TEST] Checking our integration')

      // The partner's audit view: the test alert's event is test, the real alert's is not.
      const events = await partner(`/api/partner/events?integrationId=${box.integrationId}`)
      const byCorrelation = new Map(
        events.body.data.map((e: { correlationId: string; test: boolean }) => [e.correlationId, e.test]),
      )
      assert.equal(byCorrelation.get(correlationID), true)
      assert.equal(byCorrelation.get(realCorrelationId), false)
      const ticket = await partner(`/api/partner/tickets/${correlationID}?integrationId=${box.integrationId}`)
      assert.equal(ticket.status, 200, ticket.text)
      assert.equal(ticket.body.title, '[TEST] Checking our integration')
      assert.equal(ticket.body.events[0].test, true)

      // The status_update webhook, signed with the sandbox's secret, carries test: true (the real
      // alert, on the synchronous strategy, sent none).
      await receiver.waitFor(
        () => receiver.accepted('status_update').some((r) => r.body.payload.messageId === messageId),
        'the test alert’s status_update',
      )
      assert.deepEqual(receiver.unverified, [])
      const updates = receiver.accepted('status_update')
      assert.equal(updates.length, 1)
      const payload = updates[0]!.body.payload
      assert.equal(payload.test, true)
      assert.equal(payload.event, 'Ticket Created')
      assert.equal(payload.correlationId, correlationID)

      // Sent again, it folds into the test ticket; RESOLVED closes it.
      const again = await testAlert({ title: 'Checking our integration' })
      expectSyncSuccess(again, { status: 200, message: 'updated', correlationId: correlationID })
      const resolved = await testAlert({ incidentStatus: 'RESOLVED', correlationId: correlationID })
      expectSyncSuccess(resolved, { status: 200, message: 'closed', correlationId: correlationID })
      await receiver.waitFor(() => receiver.accepted('status_update').length === 3, 'three status_updates')
      assert.ok(receiver.accepted('status_update').every((r) => r.body.payload.test === true))
    })

    test('a test alert never touches a real ticket, and asks for what it needs', async () => {
      const before = await svc.snapshot()
      const real = await testAlert({ incidentStatus: 'UPDATE', correlationId: realCorrelationId })
      expectSyncFailure(real, { status: 409, error: 'CONFLICT', correlationId: realCorrelationId })
      assert.match(real.body.detail, /not a test alert's/)
      const noCid = await testAlert({ incidentStatus: 'RESOLVED' })
      assert.equal(noCid.status, 400, noCid.text)
      assert.match(noCid.body.detail, /needs correlationId/)
      const unknown = await testAlert({ accountId: 'nobody-999' })
      assert.equal(unknown.status, 409, unknown.text)
      assert.equal(unknown.body.message, 'failed')
      assert.match(unknown.body.detail, /accountId 'nobody-999' is unknown/)
      assert.deepEqual(await svc.snapshot(), before, 'a refused test alert writes nothing')
    })

    test('an integration that cannot take alerts is refused with 409 saying why', async () => {
      const mapping = await setupIntegration(svc, { vendorName: 'Mapping Co', stopAt: 'mapping' })
      const noRule = await setupIntegration(svc, { vendorName: 'No Rule Co', rule: null })
      const before = await svc.snapshot()
      const inactive = await testAlert({}, mapping.vendorToken)
      expectSyncFailure(inactive, { status: 409, error: 'INTEGRATION_NOT_ACTIVE', correlationId: null })
      assert.match(inactive.body.detail, /cannot take a test alert yet.*state 'mapping'/)
      const ruleless = await testAlert({}, noRule.vendorToken)
      expectSyncFailure(ruleless, { status: 409, error: 'INVALID_STATE' })
      assert.match(ruleless.body.detail, /No rule makes tickets/)
      assert.deepEqual(await svc.snapshot(), before, 'nothing was written')
      // Another vendor's integration is not this token's to test.
      const foreign = await testAlert({ integrationId: noRule.integrationId })
      assert.equal(foreign.status, 403, foreign.text)
    })
  })
}

describe('npm start -- --demo --webhook-url', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'alertbridge-demo-'))
  let receiver: Receiver
  before(async () => {
    receiver = await startReceiver()
  })
  after(async () => {
    await receiver.close()
    rmSync(dataDir, { recursive: true, force: true })
  })
  const adminToken = `test-admin-${'x'.repeat(32)}`
  const processEnv = { DATABASE_URL: `sqlite:${join(dataDir, 'alertbridge.db')}`, ADMIN_TOKEN: adminToken }
  const printed = (output: string, name: string) =>
    new RegExp(`^\\s+${name}:\\s+(\\S+)`, 'm').exec(output)?.[1]

  test('prints every credential with the webhook secret; older demo files still start', async () => {
    // A private address off loopback is still refused without ALLOW_PRIVATE_NETWORK ...
    const refused = await failedStart(processEnv, 40_000, [
      '--demo',
      '--webhook-url',
      'http://10.0.0.5:9000/hooks',
    ])
    assert.notEqual(refused.code, 0)
    assert.match(
      refused.output,
      /DEMO_WEBHOOK_URL \(--webhook-url\): https is required.*another private address needs ALLOW_PRIVATE_NETWORK=true/,
    )

    // ... while the receiver on loopback needs no setting: the start says so, deliveries arrive signed.
    const first = await startServer(
      { ...processEnv, WEBHOOK_RETRY_SCHEDULE: env.WEBHOOK_RETRY_SCHEDULE },
      40_000,
      ['--demo', `--webhook-url=${receiver.url}`],
    )
    let base: string
    let demo: Record<string, string | undefined>
    try {
      await first.waitForOutput(/see it:[\s\S]*\n\n/)
      const out = first.output()
      demo = Object.fromEntries(
        [
          'clientId',
          'clientSecret',
          'webhookSecret',
          'webhookUrl',
          'integrationId',
          'organizationOemToken',
        ].map((n) => [n, printed(out, n)]),
      )
      assert.match(
        out,
        /demo webhook on loopback: outbound calls may reach http:\/\/127\.0\.0\.1:\d+ .*no other private address/,
      )
      assert.match(demo.webhookSecret ?? '', /^whsec_/, out)
      assert.equal(demo.webhookUrl, receiver.url)
      assert.match(out, /demo partner API key: \S+/)
      assert.match(out, /curl -s -X POST \S+\/api\/oem-alerts-api\/alert\/sync/)
      // The printed secret verifies the demo vendor's webhooks: a test alert's status_update.
      receiver.setSecret(demo.webhookSecret!)
      base = first.url
      const tokenRes = await fetch(`${base}/api/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          grant_type: 'client_credentials',
          client_id: demo.clientId,
          client_secret: demo.clientSecret,
          organization_oem_token: demo.organizationOemToken,
        }),
      })
      const { access_token } = (await tokenRes.json()) as { access_token: string }
      const sent = await fetch(`${base}/api/vendor-api/test-alert`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${access_token}` },
        body: '{}',
      })
      assert.equal(sent.status, 201, await sent.clone().text())
      await receiver.waitFor(() => receiver.accepted('status_update').length === 1, 'the status_update')
      assert.deepEqual(receiver.unverified, [])
      assert.equal(receiver.accepted('status_update')[0]!.body.payload.test, true)
    } finally {
      await first.stop()
    }

    // A file of a start before the webhook secret was kept: the rest is printed as before; another
    // --webhook-url moves the demo vendor's webhooks there.
    const file = join(dataDir, 'demo-credentials.json')
    const saved = JSON.parse(readFileSync(file, 'utf8'))
    assert.equal(saved.webhookSecret, demo.webhookSecret)
    const { webhookSecret: _, webhookUrl: __, accountId: ___, ...older } = saved
    writeFileSync(file, JSON.stringify(older))
    const moved = `${receiver.url}/moved`
    const second = await startServer({ ...processEnv, ...env }, 40_000, ['--demo', '--webhook-url', moved])
    try {
      await second.waitForOutput(/see it:[\s\S]*\n\n/)
      const out = second.output()
      assert.equal(printed(out, 'clientSecret'), demo.clientSecret)
      assert.match(out, /webhookSecret: +\(not kept by the start that made this demo; rotate it/)
      assert.equal(printed(out, 'webhookUrl'), moved)
      const vendors = await fetch(`${second.url}/api/admin/vendors`, {
        headers: { authorization: `Bearer ${adminToken}` },
      })
      const [vendor] = ((await vendors.json()) as { data: { webhookUrl: string }[] }).data
      assert.equal(vendor!.webhookUrl, moved)
    } finally {
      await second.stop()
    }
    assert.throws(
      () => loadConfig({ DEMO_WEBHOOK_URL: 'https://hooks.example.com/a' }),
      /DEMO_WEBHOOK_URL: .*needs DEMO=true/,
    )
  })
})
