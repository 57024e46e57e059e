// A slow PSA slows only its own partner: while one partner's PSA takes seconds per call, the worker
// keeps other partners' alerts moving (one partner holds at most PARTNER_CONCURRENCY of its slots); and
// a PSA that keeps failing is backed off (the connection's breaker), not called again and again.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Hooked } from '../support/hooked.js'
import { hooked } from '../support/hooked.js'
import type { Receiver } from '../support/receiver.js'
import { startService, type TestService } from '../support/service.js'
import { type ConnectWiseState, startConnectWiseSim } from '../support/sims/connectwise/server.js'
import type { StartedSim } from '../support/sims/harness.js'
import { hold } from '../support/wait.js'

type Answer = { status: number; text: string; body: any }

describe('one partner’s PSA does not hold up the others', () => {
  let svc: TestService
  let sim: StartedSim<ConnectWiseState>
  const receivers: Receiver[] = []
  before(async () => {
    sim = await startConnectWiseSim()
    svc = await startService({
      env: {
        ALLOW_PRIVATE_NETWORK: 'true',
        PSA_RETRY_SCHEDULE: '0.05,0.05,0.05,0.05,0.05,0.05,0.05,0.05,0.05,0.05',
        PSA_TIMEOUT_MS: '5000',
        // Few slots, so that a partner that took them all would hold up the others.
        WORKER_CONCURRENCY: '3',
        PARTNER_CONCURRENCY: '2',
      },
    })
  })
  after(async () => {
    await svc.close()
    await sim.close()
    for (const r of receivers) await r.close()
  })
  const partner = async (psa?: Record<string, unknown> & { kind: string }): Promise<Hooked> => {
    const s = await hooked(svc, {
      ...(psa
        ? {
            psa,
            psaCompanyId: '1',
            rule: { productGroup: 'Endpoint Security', ticket: { board: 'Service Desk' } },
          }
        : {}),
    })
    receivers.push(s.receiver)
    return s
  }
  const connectwise = () => ({
    kind: 'connectwise',
    baseUrl: sim.url,
    companyId: 'acme',
    publicKey: 'pub-key',
    privateKey: 'priv-key',
    clientId: '00000000-0000-4000-8000-000000000001',
  })

  test('while a slow PSA takes 2 s a call, another partner’s alerts all finish first', async () => {
    const slow = await partner(connectwise())
    const fast = await partner()
    sim.faults.set({ latencyMs: 2000, latencyMatch: 'service/tickets' })
    try {
      const slowSent: Answer[] = []
      for (let i = 0; i < 6; i++) slowSent.push(await slow.post({ title: `slow ${i}` }))
      const fastSent: Answer[] = []
      for (let i = 0; i < 6; i++) fastSent.push(await fast.post({ title: `fast ${i}` }))
      await Promise.all(fastSent.map((a) => fast.statusUpdate(a.body.data.messageId)))
      const fastDone = Date.now()
      await Promise.all(slowSent.map((a) => slow.statusUpdate(a.body.data.messageId)))
      const firstSlow = Math.min(...slow.receiver.accepted('status_update').map((r) => r.at))
      assert.ok(
        fastDone <= firstSlow + 50,
        'every alert of the other partner was done before the slow PSA answered once',
      )
      const events = slow.receiver.accepted('status_update').map((r) => r.body.payload.event)
      // One ticket, the later alerts appended to it (de-duplication is on by default).
      assert.deepEqual(
        events.sort(),
        ['Ticket Created', ...Array(5).fill('Ticket Updated')],
        'the slow partner’s alerts reached its PSA in the end',
      )
    } finally {
      sim.faults.clear()
    }
  })

  test('a PSA that keeps failing is backed off, not called for every retry', async () => {
    const failing = await partner(connectwise())
    sim.faults.set({ fail: { status: 503, count: null, match: 'service/tickets' } })
    try {
      const before = sim.callsTo(/service\/tickets/).length
      for (let i = 0; i < 8; i++) await failing.post({ title: `failing ${i}` })
      await hold(1500, 'a period of retries, to count the calls that reach the failing PSA')
      const calls = sim.callsTo(/service\/tickets/).length - before
      // 8 alerts retrying every 50 ms for 1.5 s would be ~200 calls; the breaker opens after 5 failures.
      assert.ok(calls <= 12, `${calls} calls reached the failing PSA`)
    } finally {
      sim.faults.clear()
    }
  })
})
