// Kaseya BMS through the service's HTTP API, against the BMS simulator: the scenarios every PSA passes
// (through-service.ts), then a create whose answer is lost among more than a thousand older tickets of
// the same title and account, on a BMS whose text filters match from the start of the text only: the
// retry finds the ticket by title, account and the newest first, and exactly one ticket is made, on
// both strategies (docs/psa/kaseya-bms.md, "Finding a ticket again").
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { hooked } from '../../support/hooked.js'
import { kaseyaBmsService } from '../../support/psa/service-fixtures.js'
import { throughService } from '../../support/psa/through-service.js'
import { startService, type TestService } from '../../support/service.js'
import { loseNextAnswer } from '../../support/sims/harness.js'
import {
  bmsCalls,
  crowdTickets,
  type KaseyaBmsSim,
  startKaseyaBmsSim,
} from '../../support/sims/kaseya-bms/server.js'

throughService(kaseyaBmsService)

describe('Kaseya BMS through the service: a lost create among many older tickets', () => {
  let svc: TestService
  let sim: KaseyaBmsSim
  before(async () => {
    sim = await startKaseyaBmsSim({ textFilter: 'startsWith' })
    svc = await startService({
      env: { ALLOW_PRIVATE_NETWORK: 'true', PSA_RETRY_SCHEDULE: '0.2,0.2,0.2', PSA_TIMEOUT_MS: '3000' },
    })
  })
  after(async () => {
    await svc.close()
    await sim.close()
  })

  test('1,200 older tickets of the title: one ticket after a lost answer, sync and webhook', async () => {
    const s = await hooked(svc, {
      psa: kaseyaBmsService.settings(sim.url),
      psaCompanyId: kaseyaBmsService.companyId,
      rule: { productGroup: 'Endpoint Security', ticket: { board: kaseyaBmsService.board } },
    })
    const alerts = [
      { title: 'Malware detected on WS-042', alertType: 'Malware Detected' },
      { title: 'Ransomware behaviour on WS-043', alertType: 'Ransomware Behaviour' },
    ]
    for (const a of alerts) crowdTickets(sim.state, { accountId: 1001, title: a.title, count: 1200 })
    const count = () => sim.state.tickets.length
    const before = count()

    loseNextAnswer(sim, bmsCalls, 'create')
    const sync = await s.sync(alerts[0])
    assert.equal(sync.status, 201, sync.text)
    assert.equal(count(), before + 1, 'one ticket (sync)')

    loseNextAnswer(sim, bmsCalls, 'create')
    const queued: { status: number; text: string; body: any } = await s.post(alerts[1])
    assert.equal(queued.status, 201, queued.text)
    const update = await s.statusUpdate(queued.body.data.messageId)
    assert.equal(update.payload.event, 'Ticket Created')
    assert.equal(count(), before + 2, 'one ticket (webhook)')
    // Each adopted ticket is the one the lost answer made: the newest of its title.
    for (const [cid, a] of [
      [sync.body.data.correlationID, alerts[0]],
      [queued.body.data.correlationId, alerts[1]],
    ] as const) {
      const row = await svc.services.store.tickets.findByCorrelation(s.integrationId, cid)
      const t = sim.state.tickets.find((x) => String(x.id) === row?.psaTicketId)
      assert.equal(t?.title, a!.title)
      assert.ok(t?.details.includes(`:${cid})`), 'its own reference')
    }
    sim.faults.clear()
    await s.receiver.close()
  })
})
