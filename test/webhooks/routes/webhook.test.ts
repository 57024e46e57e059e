// Vendor self-service through the vendor API (docs/vendor-api.md#self-service), over HTTP against a
// real service: the webhook URL and auth header (the operator's checks, audit and re-activation), test
// events through the normal outbox, the vendor's own deliveries with attempts and replay, its
// integrations, and the organizationOemToken hand-off from operator to partner to the vendor's first
// alert. Refusals change nothing.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { catalogue, issueToken, setupIntegration } from '../../support/fixtures.js'
import { type Receiver, startReceiver } from '../../support/receiver.js'
import { backends, startService, type TestService } from '../../support/service.js'
import { expectFailure } from '../../support/shapes.js'
import { waitFor } from '../../support/wait.js'

const env = { ALLOW_PRIVATE_NETWORK: 'true', WEBHOOK_RETRY_SCHEDULE: '0.05' }

interface NewVendor {
  id: string
  clientId: string
  clientSecret: string
  webhookSecret: string
}

for (const backend of backends()) {
  describe(`vendor self-service (${backend})`, () => {
    let svc: TestService
    let receiver: Receiver
    before(async () => {
      svc = await startService({ backend, env })
      receiver = await startReceiver()
    })
    after(async () => {
      await receiver.close()
      await svc.close()
    })

    const admin = (method: string, path: string, body?: unknown) =>
      svc.request(method, path, { token: svc.adminToken, body })

    async function newVendor(name: string, webhookUrl?: string): Promise<NewVendor> {
      const res = await admin('POST', '/api/admin/vendors', {
        name,
        productGroups: catalogue,
        ...(webhookUrl ? { webhookUrl } : {}),
      })
      assert.equal(res.status, 201, res.text)
      return res.body
    }

    /** Waits until the deliveries of these ids have finished their attempts (or one). */
    async function settledDeliveries(token: string, ids: string[]) {
      for (const id of ids)
        await waitFor(
          async () =>
            (await svc.request('GET', `/api/vendor-api/deliveries/${id}`, { token })).body.status !==
            'pending',
          { what: `delivery ${id} to be no longer pending`, timeoutMs: 8000 },
        )
    }

    test('the vendor reads and sets its webhook: the operator’s checks, audit and re-activation', async () => {
      const vendor = await newVendor('Hooks Inc')
      const s = await setupIntegration(svc, { vendor })
      const v = (method: string, body?: unknown) =>
        svc.request(method, '/api/vendor-api/webhook', { token: s.vendorToken, body })

      const empty = await v('GET')
      assert.equal(empty.status, 200, empty.text)
      assert.deepEqual(
        { ...empty.body, secretRotation: undefined },
        {
          url: null,
          hasAuthHeader: false,
          state: 'active',
          stateReason: null,
          failingSince: null,
          secretRotation: undefined,
          listeningUntil: null,
        },
      )
      assert.deepEqual(empty.body.secretRotation, { rotatedAt: null, previousValidUntil: null })

      // Bad URLs: the schema's (not http/https) and the service's check (credentials in the URL).
      for (const [url, detail] of [
        ['ftp://example.com/hook', /body\/url/],
        ['https://user:pw@example.com/hook', /webhookUrl: the URL must not carry a user name or password/],
      ] as const) {
        const before = await svc.snapshot()
        const res = await v('PUT', { url })
        expectFailure(res, 400, 'VALIDATION_FAILED')
        assert.match(res.body.detail, detail)
        assert.deepEqual(await svc.snapshot(), before)
      }
      expectFailure(await v('PUT', { url: receiver.url, webhookSecret: 'x' }), 400, 'VALIDATION_FAILED')
      expectFailure(await v('PUT', {}), 400, 'VALIDATION_FAILED')

      const set = await v('PUT', { url: receiver.url, authHeader: 'Bearer vendor-own' })
      assert.equal(set.status, 200, set.text)
      assert.equal(set.body.url, receiver.url)
      assert.equal(set.body.hasAuthHeader, true)
      assert.equal(set.body.state, 'active')
      // The operator sees what the vendor set; the audit log names the vendor's token as the actor.
      const seen = await admin('GET', `/api/admin/vendors/${vendor.id}`)
      assert.equal(seen.body.webhookUrl, receiver.url)
      assert.equal(seen.body.hasWebhookAuthHeader, true)
      const audit = await admin(
        'GET',
        `/api/admin/audit?targetType=vendor&targetId=${vendor.id}&action=vendor.update`,
      )
      const entry = audit.body.data[0]
      assert.equal(entry.actor.kind, 'vendor')
      assert.match(entry.actor.id, /^token:/)
      assert.deepEqual(entry.summary.fields, ['webhookAuthHeader', 'webhookUrl'].sort())
      assert.ok(!JSON.stringify(audit.body).includes('vendor-own'), 'the auth header is never logged')

      // authHeader omitted keeps it; null removes it.
      assert.equal((await v('PUT', { url: receiver.url })).body.hasAuthHeader, true)
      assert.equal((await v('PUT', { url: receiver.url, authHeader: null })).body.hasAuthHeader, false)

      // A paused endpoint: setting the URL again (the same one) makes it active.
      await admin('PATCH', `/api/admin/vendors/${vendor.id}`, { webhookEnabled: false })
      const paused = await v('GET')
      assert.equal(paused.body.state, 'paused')
      assert.equal(paused.body.stateReason, 'Paused by the operator.')
      const resumed = await v('PUT', { url: receiver.url })
      assert.equal(resumed.body.state, 'active')
      assert.equal(resumed.body.stateReason, null)

      // null: no URL; then a test event has nowhere to go (409) and changes nothing.
      assert.equal((await v('PUT', { url: null })).body.url, null)
      const before = await svc.snapshot()
      const res = await svc.request('POST', '/api/vendor-api/webhook/test', { token: s.vendorToken })
      expectFailure(res, 409, 'CONFLICT')
      assert.match(res.body.detail, /no webhook URL/)
      assert.deepEqual(await svc.snapshot(), before)
    })

    test('a test event is signed, marked test: true and sent through the normal delivery', async () => {
      const vendor = await newVendor('Test Events Co', receiver.url)
      receiver.setSecret(vendor.webhookSecret)
      const s = await setupIntegration(svc, { vendor })
      const send = (body?: unknown) =>
        svc.request('POST', '/api/vendor-api/webhook/test', { token: s.vendorToken, body })

      const sent = await send()
      assert.equal(sent.status, 202, sent.text)
      assert.match(sent.body.deliveryId, /^msg_/)
      assert.equal(sent.body.payload.eventType, 'status_update')
      assert.equal(sent.body.payload.payload.event, 'Ticket Created')
      assert.equal(sent.body.payload.payload.test, true)
      assert.equal(sent.body.payload.payload.integrationId, s.integrationId)
      assert.equal(sent.body.payload.payload.vendorUserOrganizationId, s.partnerId)
      await receiver.waitFor(
        () => receiver.accepted().some((r) => r.id === sent.body.deliveryId),
        'the test event',
      )
      assert.ok(
        !receiver.unverified.some((u) => u.startsWith(sent.body.deliveryId)),
        'its signature verifies',
      )
      const got = receiver.requests.find((r) => r.id === sent.body.deliveryId)!
      assert.equal(got.body.payload.test, true)
      assert.equal(got.raw, JSON.stringify(sent.body.payload))

      for (const event of ['state_snapshot', 'Ticket Closed In PSA', 'Ticket Not Found']) {
        const res = await send({ event })
        assert.equal(res.status, 202, res.text)
        assert.equal(res.body.payload.payload.test, true)
        if (event === 'state_snapshot') {
          assert.equal(res.body.payload.eventType, 'state_snapshot')
          assert.deepEqual(res.body.payload.payload.accounts, ['acme-001'])
        } else {
          assert.equal(res.body.payload.payload.event, event)
        }
        if (event === 'Ticket Not Found') {
          assert.equal(res.body.payload.payload.payload.status, 'failed')
          assert.equal(res.body.payload.payload.error, 'TICKET_NOT_FOUND')
        }
      }

      const before = await svc.snapshot()
      const unknown = await send({ event: 'Ticket Exploded' })
      expectFailure(unknown, 400, 'VALIDATION_FAILED')
      assert.match(unknown.body.detail, /Ticket Created/, 'the allowed names are listed')
      expectFailure(await send({ integrationId: 'someone-else' }), 403, 'FORBIDDEN')
      assert.deepEqual(await svc.snapshot(), before)

      // Test events are the vendor's own: the partner's deliveries do not show them.
      const partnerSees = await s.partner('GET', '/api/partner/deliveries')
      assert.ok(!partnerSees.body.data.some((d: any) => d.id === sent.body.deliveryId))
    })

    test('the vendor’s deliveries: its own with URL and answers, by integration, and replay', async () => {
      const vendor = await newVendor('Deliveries Ltd', receiver.url)
      receiver.setSecret(vendor.webhookSecret)
      const one = await setupIntegration(svc, { vendor, partnerName: 'MSP One' })
      const two = await setupIntegration(svc, { vendor, partnerName: 'MSP Two' })
      const other = await setupIntegration(svc, { webhooksTo: receiver, vendorName: 'Someone Else' })
      receiver.setSecret(vendor.webhookSecret)
      const unbound = await issueToken(svc, vendor)
      const get = (token: string, path: string) => svc.request('GET', path, { token })

      // The endpoint answers 500 to test events at first: the first dies after its attempts.
      let failTests = true
      receiver.respond((r) => (failTests && r.raw.includes('"test":true') ? 500 : 204))
      const toOne = await svc.request('POST', '/api/vendor-api/webhook/test', { token: one.vendorToken })
      assert.equal(toOne.status, 202, toOne.text)
      await settledDeliveries(one.vendorToken, [toOne.body.deliveryId])
      failTests = false
      const toTwo = await svc.request('POST', '/api/vendor-api/webhook/test', {
        token: unbound,
        body: { integrationId: two.integrationId },
      })
      assert.equal(toTwo.status, 202, toTwo.text)
      await settledDeliveries(unbound, [toTwo.body.deliveryId])

      // Unbound: every integration's; the full view (URL and answers).
      const all = await get(unbound, '/api/vendor-api/deliveries?limit=200')
      assert.equal(all.status, 200, all.text)
      const ids = all.body.data.map((d: any) => d.id)
      assert.ok(ids.includes(toOne.body.deliveryId) && ids.includes(toTwo.body.deliveryId))
      assert.ok(all.body.data.every((d: any) => d.vendorId === vendor.id))
      const dead = all.body.data.find((d: any) => d.id === toOne.body.deliveryId)
      assert.equal(dead.status, 'dead')
      assert.equal(dead.attemptLog[0].url, receiver.url)
      assert.equal(dead.attemptLog[0].statusCode, 500)
      assert.equal(dead.attemptLog[0].responseBody, 'answer 500')
      const onlyTwo = await get(unbound, `/api/vendor-api/deliveries?integrationId=${two.integrationId}`)
      assert.ok(onlyTwo.body.data.length > 0)
      assert.ok(onlyTwo.body.data.every((d: any) => d.integrationId === two.integrationId))
      const dead2 = await get(unbound, '/api/vendor-api/deliveries?status=dead')
      assert.deepEqual(
        dead2.body.data.map((d: any) => d.id),
        [toOne.body.deliveryId],
      )

      // A bound token: its integration's only.
      const bound = await get(one.vendorToken, '/api/vendor-api/deliveries')
      assert.ok(bound.body.data.length > 0)
      assert.ok(bound.body.data.every((d: any) => d.integrationId === one.integrationId))
      expectFailure(
        await get(one.vendorToken, `/api/vendor-api/deliveries?integrationId=${two.integrationId}`),
        403,
        'FORBIDDEN',
      )
      expectFailure(
        await get(one.vendorToken, `/api/vendor-api/deliveries/${toTwo.body.deliveryId}`),
        404,
        'NOT_FOUND',
      )

      // Another vendor's: 404 to read, to filter by and to replay.
      const theirs = await svc.request('POST', '/api/vendor-api/webhook/test', { token: other.vendorToken })
      const theirId: string = theirs.body.deliveryId
      assert.ok(!ids.includes(theirId))
      expectFailure(await get(unbound, `/api/vendor-api/deliveries/${theirId}`), 404, 'NOT_FOUND')
      expectFailure(
        await get(unbound, `/api/vendor-api/deliveries?integrationId=${other.integrationId}`),
        404,
        'INTEGRATION_NOT_FOUND',
      )
      const before = await svc.snapshot()
      expectFailure(
        await svc.request('POST', `/api/vendor-api/deliveries/${theirId}/replay`, { token: unbound }),
        404,
        'NOT_FOUND',
      )
      // Only dead ones replay.
      expectFailure(
        await svc.request('POST', `/api/vendor-api/deliveries/${toTwo.body.deliveryId}/replay`, {
          token: unbound,
        }),
        409,
        'CONFLICT',
      )
      assert.deepEqual(await svc.snapshot(), before)

      // Replay of the dead one: the same webhook-id, one manual attempt, in the audit log as the vendor's.
      const replay = await svc.request('POST', `/api/vendor-api/deliveries/${toOne.body.deliveryId}/replay`, {
        token: one.vendorToken,
      })
      assert.equal(replay.status, 202, replay.text)
      await settledDeliveries(one.vendorToken, [toOne.body.deliveryId])
      const replayed = await get(one.vendorToken, `/api/vendor-api/deliveries/${toOne.body.deliveryId}`)
      assert.equal(replayed.body.status, 'delivered')
      assert.equal(replayed.body.attemptLog.at(-1).trigger, 'manual')
      const audit = await admin(
        'GET',
        `/api/admin/audit?action=delivery.replay&targetId=${toOne.body.deliveryId}`,
      )
      assert.equal(audit.body.data[0].actor.kind, 'vendor')
      // Replay since a time: nothing dead is left.
      const since = await svc.request('POST', '/api/vendor-api/deliveries/replay', {
        token: unbound,
        body: { since: '2020-01-01T00:00:00Z' },
      })
      assert.deepEqual(since.body, { replayed: 0 })
      receiver.respond(() => 204)
    })

    test('the vendor’s integrations: partner, state, alerts, mapped accounts, last alert', async () => {
      const vendor = await newVendor('Integrations Co')
      const one = await setupIntegration(svc, {
        vendor,
        partnerName: 'First MSP',
        mapped: ['acme-001', 'globex-002'],
      })
      const two = await setupIntegration(svc, { vendor, partnerName: 'Second MSP', stopAt: 'created' })
      const other = await setupIntegration(svc, { vendorName: 'Not Us' })
      const alert = await one.sync()
      assert.equal(alert.status, 201, alert.text)
      const unbound = await issueToken(svc, vendor)

      const list = await svc.request('GET', '/api/vendor-api/integrations', { token: unbound })
      assert.equal(list.status, 200, list.text)
      assert.equal(list.body.nextCursor, null)
      const [first, second] = list.body.data
      assert.equal(list.body.data.length, 2)
      assert.deepEqual(
        { ...first, lastAlertAt: typeof first.lastAlertAt, createdAt: undefined, updatedAt: undefined },
        {
          integrationId: one.integrationId,
          partnerId: one.partnerId,
          partnerName: 'First MSP',
          // A real partner's integration, not one of the vendor's own test integrations.
          test: false,
          state: 'connected',
          isIntegrationActive: true,
          isAlertsEnabled: true,
          partnerDisabled: false,
          mappedAccounts: 2,
          lastAlertAt: 'string',
          organizationOemTokenRotation: { rotatedAt: null, previousValidUntil: null },
          createdAt: undefined,
          updatedAt: undefined,
        },
      )
      assert.equal(second.integrationId, two.integrationId)
      assert.equal(second.state, 'created')
      assert.equal(second.isIntegrationActive, false)
      assert.equal(second.mappedAccounts, 0)
      assert.equal(second.lastAlertAt, null)

      // A page of one, then the next.
      const page = await svc.request('GET', '/api/vendor-api/integrations?limit=1', { token: unbound })
      assert.equal(page.body.data[0].integrationId, one.integrationId)
      const next = await svc.request(
        'GET',
        `/api/vendor-api/integrations?limit=1&cursor=${page.body.nextCursor}`,
        {
          token: unbound,
        },
      )
      assert.equal(next.body.data[0].integrationId, two.integrationId)

      // A bound token sees its one; naming another is 403; another vendor's is 404.
      const bound = await svc.request('GET', '/api/vendor-api/integrations', { token: two.vendorToken })
      assert.deepEqual(
        bound.body.data.map((i: any) => i.integrationId),
        [two.integrationId],
      )
      expectFailure(
        await svc.request('GET', `/api/vendor-api/integrations?integrationId=${one.integrationId}`, {
          token: two.vendorToken,
        }),
        403,
        'FORBIDDEN',
      )
      expectFailure(
        await svc.request('GET', `/api/vendor-api/integrations?integrationId=${other.integrationId}`, {
          token: unbound,
        }),
        404,
        'INTEGRATION_NOT_FOUND',
      )

      // A disabled partner shows.
      await admin('POST', `/api/admin/partners/${one.partnerId}/disable`, { reason: 'unpaid' })
      const disabled = await svc.request(
        'GET',
        `/api/vendor-api/integrations?integrationId=${one.integrationId}`,
        {
          token: unbound,
        },
      )
      assert.equal(disabled.body.data[0].partnerDisabled, true)
      assert.equal(disabled.body.data[0].isIntegrationActive, false)
      await admin('POST', `/api/admin/partners/${one.partnerId}/enable`)
    })

    test('the organizationOemToken: the operator creates it, the partner mints the one it hands over, the vendor’s first alert uses it', async () => {
      const vendor = await newVendor('Hand-off Security')
      const partner = await admin('POST', '/api/admin/partners', {
        name: 'Handing MSP',
        psa: { kind: 'sandbox' },
      })
      const created = await admin('POST', '/api/admin/integrations', {
        vendorId: vendor.id,
        partnerId: partner.body.id,
      })
      assert.equal(created.status, 201, created.text)
      const { integrationId, organizationOemToken: operatorToken } = created.body
      const p = (method: string, path: string, body?: unknown) =>
        svc.request(method, path, { token: partner.body.apiKey, body })
      const tokenPath = `/api/partner/integrations/${integrationId}/organization-oem-token`

      // The partner cannot read the token back (only its digest is kept): it mints a new one.
      const state = await p('GET', tokenPath)
      assert.deepEqual(state.body, { rotatedAt: null, previousValidUntil: null })
      const minted = await p('POST', `${tokenPath}/rotate`, { overlapSeconds: 0 })
      assert.equal(minted.status, 200, minted.text)
      const handed: string = minted.body.organizationOemToken
      assert.notEqual(handed, operatorToken)
      assert.equal(minted.body.previousValidUntil, null)
      // Another partner's integration is 404, and changes nothing.
      const stranger = await admin('POST', '/api/admin/partners', {
        name: 'Stranger',
        psa: { kind: 'sandbox' },
      })
      const before = await svc.snapshot()
      expectFailure(
        await svc.request('POST', `${tokenPath}/rotate`, { token: stranger.body.apiKey, body: {} }),
        404,
        'INTEGRATION_NOT_FOUND',
      )
      assert.deepEqual(await svc.snapshot(), before)
      const audit = await admin(
        'GET',
        `/api/admin/audit?action=integration.org_token.rotate&targetId=${integrationId}`,
      )
      assert.equal(audit.body.data[0].actor.kind, 'partner')

      // The vendor binds a token with what the partner handed over (the operator's no longer works).
      const refused = await svc.request('POST', '/api/oauth/token', {
        body: {
          grant_type: 'client_credentials',
          client_id: vendor.clientId,
          client_secret: vendor.clientSecret,
          organization_oem_token: operatorToken,
        },
      })
      assert.equal(refused.status, 401, refused.text)
      const token = await issueToken(svc, vendor, handed)
      const v = (method: string, path: string, body?: unknown) => svc.request(method, path, { token, body })
      assert.equal(
        (
          await v('POST', '/api/vendor-api/organization/accounts', {
            vendorAccountId: 'acme-001',
            name: 'Acme',
            externalId: 'A',
          })
        ).status,
        201,
      )
      assert.equal((await v('PATCH', '/api/vendor-api/status/mapping', {})).status, 200)
      assert.equal(
        (
          await p('PUT', `/api/partner/integrations/${integrationId}/accounts/acme-001`, {
            psaCompanyId: '100',
          })
        ).status,
        200,
      )
      assert.equal(
        (
          await p('POST', `/api/partner/integrations/${integrationId}/rules`, {
            productGroup: 'Endpoint Security',
          })
        ).status,
        201,
      )
      assert.equal(
        (await p('POST', `/api/partner/integrations/${integrationId}/complete-mapping`)).status,
        200,
      )
      const rotation = await v('GET', '/api/vendor-api/integrations')
      assert.equal(typeof rotation.body.data[0].organizationOemTokenRotation.rotatedAt, 'string')

      const alert = (orgToken: string) =>
        svc.request('POST', '/api/oem-alerts-api/alert/sync', {
          body: {
            clientId: vendor.clientId,
            clientSecret: vendor.clientSecret,
            grantType: 'client_credentials',
            scope: 'vendor_manage',
            organizationOemToken: orgToken,
            integrationId,
            data: {
              title: 'Malware detected on WS-042',
              summary: 'Trojan quarantined.',
              alertType: 'Malware Detected',
              accountId: 'acme-001',
              productGroup: 'Endpoint Security',
              incidentStatus: 'OPEN',
            },
          },
        })
      const first = await alert(handed)
      assert.equal(first.status, 201, first.text)
      assert.equal(first.body.message, 'created')
      const old = await alert(operatorToken)
      assert.equal(old.status, 401, old.text)
      assert.equal(old.body.error, 'INVALID_CREDENTIALS')
    })
  })
}
