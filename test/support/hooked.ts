// A vendor whose webhook URL is a fresh verifying receiver (receiver.ts), and an integration of it: what
// the webhook-strategy suites set up for each test.
import assert from 'node:assert/strict'
import { catalogue, type Setup, setupIntegration } from './fixtures.js'
import { type Receiver, startReceiver } from './receiver.js'
import type { TestService } from './service.js'

export interface Hooked extends Setup {
  receiver: Receiver
  /** The vendor's webhook signing secret, as created. */
  webhookSecret: string
  post(
    data?: Parameters<Setup['body']>[0],
    extra?: Record<string, unknown>,
  ): ReturnType<TestService['request']>
  /** The status_update for one alert, once it arrived. */
  statusUpdate(messageId: string): Promise<any>
}

/** A vendor whose webhook URL is a fresh receiver, and an integration of it. */
export async function hooked(
  svc: TestService,
  o: Parameters<typeof setupIntegration>[1] & { vendorFields?: Record<string, unknown> } = {},
): Promise<Hooked> {
  const receiver = await startReceiver()
  const res = await svc.request('POST', '/api/admin/vendors', {
    token: svc.adminToken,
    body: { name: 'Hooked Vendor', productGroups: catalogue, webhookUrl: receiver.url, ...o.vendorFields },
  })
  assert.equal(res.status, 201, res.text)
  assert.match(res.body.webhookSecret, /^whsec_/)
  receiver.setSecret(res.body.webhookSecret)
  const s = await setupIntegration(svc, {
    ...o,
    vendor: { id: res.body.id, clientId: res.body.clientId, clientSecret: res.body.clientSecret },
  })
  const statusUpdate = async (messageId: string) => {
    const find = () => receiver.accepted('status_update').find((r) => r.body.payload.messageId === messageId)
    await receiver.waitFor(() => find() !== undefined, `the status_update of ${messageId}`)
    return find()!.body
  }
  return {
    ...s,
    receiver,
    webhookSecret: res.body.webhookSecret,
    post: (data, extra) => svc.request('POST', '/api/oem-alerts-api/alert', { body: s.body(data, extra) }),
    statusUpdate,
  }
}
