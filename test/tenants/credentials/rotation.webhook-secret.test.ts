// Rotating a vendor's webhook signing secret
// (docs/decisions/credentials/webhook-signatures-during-a-window.md): during the overlap window every
// delivery carries two `v1,` signatures in `webhook-signature` (Standard Webhooks allows several), one per
// secret, so a receiver verifying with either secret accepts it — checked with the `standardwebhooks`
// verifier itself; once the window ends (or is ended early) only the new secret signs.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { Webhook } from 'standardwebhooks'
import { type Hooked, hooked } from '../../support/hooked.js'
import type { Received, Receiver } from '../../support/receiver.js'
import { backends, manualClock, startService, type TestService } from '../../support/service.js'

const env = { ALLOW_PRIVATE_NETWORK: 'true', SNAPSHOT_COALESCE_MS: '0' }

/** Whether the Standard Webhooks verifier accepts the request with this secret. */
function verifies(secret: string, r: Received): boolean {
  try {
    new Webhook(secret).verify(r.raw, r.headers as Record<string, string>)
    return true
  } catch {
    return false
  }
}

for (const backend of backends()) {
  describe(`webhook signing secret rotation (${backend})`, () => {
    // Starts at the real time: the verifier checks webhook-timestamp against it (±5 minutes).
    const clock = manualClock(new Date())
    let svc: TestService
    const receivers: Receiver[] = []
    before(async () => {
      svc = await startService({ backend, clock, env })
    })
    after(async () => {
      await svc.close()
      for (const r of receivers) await r.close()
    })
    const admin = (method: string, path: string, body?: unknown) =>
      svc.request(method, path, { token: svc.adminToken, body })

    /** Makes the service send one state_snapshot (alerting toggled) and answers the request that carried it. */
    async function nextDelivery(h: Hooked): Promise<Received> {
      const seen = h.receiver.accepted('state_snapshot').length
      const at = Math.floor(clock().getTime() / 1000)
      const current = await admin('GET', `/api/admin/integrations/${h.integrationId}`)
      const enabled = !current.body.alertsEnabled
      const toggled = await admin('PATCH', `/api/admin/integrations/${h.integrationId}`, {
        alertsEnabled: enabled,
      })
      assert.equal(toggled.status, 200, toggled.text)
      // The snapshot of this toggle: an earlier one (the setup's, the previous toggle's) may arrive
      // after `seen` was counted, since an endpoint gets up to 4 deliveries at once, in any order.
      const mine = () =>
        h.receiver
          .accepted('state_snapshot')
          .slice(seen)
          .find(
            (r) =>
              Number(r.headers['webhook-timestamp']) >= at &&
              JSON.stringify(r.body).includes(`"isAlertsEnabled":${enabled}`),
          )
      await h.receiver.waitFor(() => mine() !== undefined, 'the state_snapshot of the toggle')
      return mine()!
    }

    const signatures = (r: Received) => String(r.headers['webhook-signature']).split(' ')

    test('inside the window both secrets sign every delivery; after end-overlap only the new one', async () => {
      const h = await hooked(svc)
      receivers.push(h.receiver)
      const rotated = await admin('POST', `/api/admin/vendors/${h.vendorId}/webhook-secret/rotate`)
      assert.equal(rotated.status, 200, rotated.text)
      const newSecret: string = rotated.body.webhookSecret
      assert.match(newSecret, /^whsec_/)
      assert.notEqual(newSecret, h.webhookSecret)
      h.receiver.setSecret(newSecret)
      const original = (await admin('GET', `/api/admin/vendors/${h.vendorId}`)).body.webhookSecretRotation
      assert.equal(original.previousValidUntil, new Date(clock().getTime() + 86_400_000).toISOString())

      const during = await nextDelivery(h)
      assert.equal(signatures(during).length, 2, String(during.headers['webhook-signature']))
      assert.ok(
        signatures(during).every((s) => s.startsWith('v1,')),
        'each entry is a v1 signature',
      )
      assert.ok(verifies(newSecret, during), 'the new secret verifies')
      assert.ok(verifies(h.webhookSecret, during), 'the replaced secret verifies')

      const ended = await admin('POST', `/api/admin/vendors/${h.vendorId}/webhook-secret/end-overlap`)
      assert.equal(ended.status, 200, ended.text)
      const afterEnd = await nextDelivery(h)
      assert.equal(signatures(afterEnd).length, 1)
      assert.ok(verifies(newSecret, afterEnd))
      assert.equal(verifies(h.webhookSecret, afterEnd), false, 'the replaced secret no longer verifies')
    })

    test('the window ends by the clock; the vendor rotates its own signing secret too', async () => {
      const h = await hooked(svc)
      receivers.push(h.receiver)
      const path = '/api/vendor-api/credentials/webhook-secret/rotate'
      const rotated = await svc.request('POST', path, {
        token: h.vendorToken,
        body: { clientSecret: h.clientSecret, overlapSeconds: 60 },
      })
      assert.equal(rotated.status, 200, rotated.text)
      const newSecret: string = rotated.body.webhookSecret
      h.receiver.setSecret(newSecret)
      const during = await nextDelivery(h)
      assert.ok(verifies(newSecret, during) && verifies(h.webhookSecret, during))

      clock.advance(60_000)
      const afterWindow = await nextDelivery(h)
      assert.equal(signatures(afterWindow).length, 1)
      assert.ok(verifies(newSecret, afterWindow))
      assert.equal(verifies(h.webhookSecret, afterWindow), false)
      const state = await svc.request('GET', '/api/vendor-api/credentials', { token: h.vendorToken })
      assert.deepEqual(state.body.webhookSecret, {
        rotatedAt: rotated.body.rotatedAt,
        previousValidUntil: null,
      })
    })

    test('a rotation with overlap 0 signs with the new secret only, at once', async () => {
      const h = await hooked(svc)
      receivers.push(h.receiver)
      const rotated = await admin('POST', `/api/admin/vendors/${h.vendorId}/webhook-secret/rotate`, {
        overlapSeconds: 0,
      })
      h.receiver.setSecret(rotated.body.webhookSecret)
      const r = await nextDelivery(h)
      assert.equal(signatures(r).length, 1)
      assert.ok(verifies(rotated.body.webhookSecret, r))
      assert.equal(verifies(h.webhookSecret, r), false)
    })
  })
}
