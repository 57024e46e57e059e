// SuperOps' throttling inside an HTTP 200 body, through the service (docs/psa/superops.md#limits): it is
// a wait like a 429 with Retry-After — the synchronous request waits it inside its budget, and a queued
// alert runs again after it without spending one of its PSA_RETRY_SCHEDULE attempts.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { hooked } from '../../support/hooked.js'
import { superOpsService } from '../../support/psa/service-fixtures.js'
import { startService, type TestService } from '../../support/service.js'
import { type SuperOpsSim, startSuperOpsSim } from '../../support/sims/superops/server.js'

type Answer = { status: number; text: string; body: any }

describe('SuperOps throttling through the service', () => {
  let svc: TestService
  let sim: SuperOpsSim
  before(async () => {
    sim = await startSuperOpsSim({ retryAfterSeconds: 1 })
    svc = await startService({
      env: { ALLOW_PRIVATE_NETWORK: 'true', PSA_RETRY_SCHEDULE: '0.2,0.2,0.2', PSA_TIMEOUT_MS: '3000' },
    })
  })
  after(async () => {
    await svc.close()
    await sim.close()
  })

  test('rate_limit_exceeded in a 200 is waited, on both strategies, spending no attempt', async () => {
    const s = await hooked(svc, {
      psa: superOpsService.settings(sim.url),
      psaCompanyId: '1001',
      rule: { productGroup: 'Endpoint Security', ticket: { board: 'Security Operations' } },
    })
    try {
      sim.state.rate.forced = { count: 2, match: '^createTicket$' }
      const started = Date.now()
      const sync = await s.sync()
      assert.equal(sync.status, 201, sync.text)
      assert.ok(Date.now() - started >= 1900, 'it waited what SuperOps asked, twice')
      assert.equal(sim.state.rate.refused, 2)
      const closed = await s.sync(
        { incidentStatus: 'RESOLVED' },
        { correlationId: sync.body.data.correlationID },
      )
      assert.equal(closed.status, 200, closed.text)
      // More throttled answers than the retry schedule has attempts (three).
      sim.state.rate.forced = { count: 5, match: '^createTicket$' }
      const queued: Answer = await s.post()
      const event = await s.statusUpdate(queued.body.data.messageId)
      assert.equal(event.payload.event, 'Ticket Created', 'the waits spent none of the attempts')
      assert.equal(sim.state.rate.refused, 7)
    } finally {
      await s.receiver.close()
    }
  })
})
