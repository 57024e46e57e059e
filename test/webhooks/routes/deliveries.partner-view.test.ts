// What a partner sees of its deliveries (docs/decisions/bounded-growth/partner-delivery-view.md): status,
// timing and HTTP codes of every attempt, never the vendor's webhook URL, its endpoint's answers, or the
// address a failed connection named. The operator still sees all of it.
import assert from 'node:assert/strict'
import { once } from 'node:events'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, test } from 'node:test'
import { catalogue, setupIntegration } from '../../support/fixtures.js'
import { hooked } from '../../support/hooked.js'
import type { Receiver } from '../../support/receiver.js'
import { backends, startService, type TestService } from '../../support/service.js'
import { waitFor } from '../../support/wait.js'

const env = { ALLOW_PRIVATE_NETWORK: 'true', WEBHOOK_RETRY_SCHEDULE: '0.05,0.05' }

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = http.createServer()
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  await new Promise((r) => server.close(r))
  return port
}

for (const backend of backends()) {
  describe(`the partner's view of deliveries (${backend})`, () => {
    let svc: TestService
    const receivers: Receiver[] = []
    before(async () => {
      svc = await startService({ backend, env })
    })
    after(async () => {
      await svc.close()
      for (const r of receivers) await r.close()
    })

    test('attempts show status codes and timing, not the webhook URL or the answer body', async () => {
      const s = await hooked(svc)
      receivers.push(s.receiver)
      let failed = 0
      s.receiver.respond((r) => (r.body?.eventType === 'status_update' && failed++ < 1 ? 500 : 204))
      const accepted = (await s.post()).body as { data: { messageId: string } }
      const messageId = accepted.data.messageId
      await s.statusUpdate(messageId)
      const url = new URL(s.receiver.url)

      const list = await waitFor(
        async () => {
          const res = await s.partner('GET', '/api/partner/deliveries')
          const d = res.body.data.find((x: any) => x.messageId === messageId)
          return d?.status === 'delivered' ? res : undefined
        },
        { what: 'the delivery' },
      )
      const delivery = list.body.data.find((x: any) => x.messageId === messageId)
      const one = await s.partner('GET', `/api/partner/deliveries/${delivery.id}`)
      for (const res of [list, one]) {
        assert.equal(res.status, 200, res.text)
        assert.ok(!res.text.includes(url.host), `the webhook's host is not shown: ${res.text}`)
        assert.ok(!res.text.includes(url.pathname), 'nor its path')
        assert.ok(!res.text.includes('answer 500'), "nor the endpoint's answer")
      }
      assert.deepEqual(
        one.body.attemptLog.map((a: any) => [a.number, a.statusCode, a.error]),
        [
          [1, 500, 'HTTP 500'],
          [2, 204, null],
        ],
      )
      for (const a of one.body.attemptLog) {
        assert.deepEqual(Object.keys(a).sort(), [
          'durationMs',
          'error',
          'nextAttemptAt',
          'number',
          'startedAt',
          'statusCode',
          'trigger',
        ])
        assert.equal(typeof a.startedAt, 'string')
        assert.equal(typeof a.durationMs, 'number')
      }
      assert.equal(one.body.lastStatusCode, 204)

      // The operator sees the URL and the answer.
      const admin = await svc.request('GET', `/api/admin/deliveries/${delivery.id}`, {
        token: svc.adminToken,
      })
      assert.equal(admin.body.attemptLog[0].url, s.receiver.url)
      assert.equal(admin.body.attemptLog[0].responseBody, 'answer 500')
    })

    test("a failed connection shows its kind, not the address it named; a replay's answer likewise", async () => {
      const port = await closedPort()
      const webhookUrl = `http://127.0.0.1:${port}/private-hook-path`
      const vendor = await svc.request('POST', '/api/admin/vendors', {
        token: svc.adminToken,
        body: { name: 'Unreachable Vendor', productGroups: catalogue, webhookUrl },
      })
      assert.equal(vendor.status, 201, vendor.text)
      const s = await setupIntegration(svc, {
        vendor: {
          id: vendor.body.id,
          clientId: vendor.body.clientId,
          clientSecret: vendor.body.clientSecret,
        },
      })
      const accepted = await svc.request('POST', '/api/oem-alerts-api/alert', { body: s.body() })
      const messageId = accepted.body.data.messageId as string

      const dead = await waitFor(
        async () => {
          const res = await s.partner('GET', '/api/partner/deliveries?status=dead')
          return res.body.data.find((x: any) => x.messageId === messageId) ? res : undefined
        },
        { what: 'the dead delivery' },
      )
      const d = dead.body.data.find((x: any) => x.messageId === messageId)
      assert.equal(d.attemptLog.length, 3)
      assert.ok(d.attemptLog.every((a: any) => a.statusCode === null))
      assert.ok(d.attemptLog.every((a: any) => a.error === 'conn: the connection to the endpoint failed'))
      assert.equal(d.lastError, 'conn: the connection to the endpoint failed')

      const replay = await s.partner('POST', `/api/partner/deliveries/${d.id}/replay`)
      assert.equal(replay.status, 202, replay.text)
      for (const res of [dead, replay, await s.partner('GET', `/api/partner/deliveries/${d.id}`)]) {
        assert.ok(!res.text.includes(String(port)), `the port is not shown: ${res.text}`)
        assert.ok(!res.text.includes('private-hook-path'))
        assert.ok(!res.text.includes('ECONNREFUSED'))
      }
      const admin = await svc.request('GET', `/api/admin/deliveries/${d.id}`, { token: svc.adminToken })
      assert.match(admin.body.attemptLog[0].error, /ECONNREFUSED/)
    })
  })
}
