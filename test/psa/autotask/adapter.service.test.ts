// Autotask through the service's HTTP API, against the Autotask simulator (baseUrl names the zone; the
// tenant holds more tickets than one query page).
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { setupIntegration } from '../../support/fixtures.js'
import { autotaskService } from '../../support/psa/service-fixtures.js'
import { throughService } from '../../support/psa/through-service.js'
import { backends, startService, type TestService } from '../../support/service.js'
import { type AutotaskSim, startAutotaskSim } from '../../support/sims/autotask/server.js'

throughService(
  autotaskService,
  // The one PSA proven through the service on every configuration (through-service.ts).
  backends('matrix'),
)

// A partner who connects an Autotask tenant whose queue picklist marks no default and maps an account
// without naming a queue anywhere: the connection test and every alert say, in the same one sentence,
// that a default queue must be chosen and where; once it is chosen, alerts make tickets in it.
for (const backend of backends()) {
  describe(`Autotask through the service: a tenant that marks no default queue (${backend})`, () => {
    let svc: TestService
    let sim: AutotaskSim
    before(async () => {
      sim = await startAutotaskSim({ noDefault: ['queueID'], tickets: 0, companies: 3 })
      svc = await startService({ backend, env: { ALLOW_PRIVATE_NETWORK: 'true', PSA_RETRY_SCHEDULE: '0.2' } })
    })
    after(async () => {
      await svc.close()
      await sim.close()
    })

    test('the connection test and the alert say a default queue must be chosen; choosing one fixes both', async () => {
      const psa = autotaskService.settings(sim.url)
      const s = await setupIntegration(svc, {
        psa,
        psaCompanyId: '0',
        rule: { productGroup: 'Endpoint Security' },
      })
      const sentence =
        /Autotask needs a queue on every new ticket and none is chosen: choose the connection's default "Board \/ queue" in the portal \(or defaults\.board in PUT \/api\/partner\/psa\)/
      const tested = await s.partner('POST', '/api/partner/psa/test')
      assert.equal(tested.body.ok, false, tested.text)
      assert.match(tested.body.detail, sentence)
      const made = await s.sync()
      assert.equal(made.status, 502, made.text)
      assert.match(made.body.detail, sentence)
      assert.equal(sim.state.tickets.length, 0)
      const saved = await s.partner('PUT', '/api/partner/psa', {
        ...psa,
        defaults: { board: 'Monitoring Alerts' },
      })
      assert.equal(saved.status, 200, saved.text)
      assert.equal(saved.body.warning ?? null, null, saved.text)
      const again = await s.partner('POST', '/api/partner/psa/test')
      assert.match(again.body.detail, /queue 'Monitoring Alerts' \(the connection's setting/)
      const created = await s.sync()
      assert.equal(created.status, 201, created.text)
      assert.deepEqual(
        sim.state.tickets.map((t) => t.queueID),
        [29682834],
      )
    })
  })
}
