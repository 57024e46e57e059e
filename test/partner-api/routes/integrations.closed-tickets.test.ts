// The closed-ticket settings' range (docs/decision-table.md#closed-ticket-policy): reopenWindowMinutes is
// a whole number of minutes from 1 to 525,600; anything else is refused in the contract's failure shape
// and changes nothing.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { type Setup, setupIntegration } from '../../support/fixtures.js'
import { backends, startService, type TestService } from '../../support/service.js'
import { expectFailure } from '../../support/shapes.js'

for (const backend of backends()) {
  describe(`closed-ticket settings (${backend})`, () => {
    let svc: TestService
    let s: Setup
    before(async () => {
      svc = await startService({ backend })
      s = await setupIntegration(svc)
    })
    after(() => svc.close())

    const patch = (closedTickets: Record<string, unknown>) =>
      s.partner('PATCH', `/api/partner/integrations/${s.integrationId}`, { closedTickets })
    const window = async () =>
      (await s.partner('GET', `/api/partner/integrations/${s.integrationId}`)).body.closedTickets
        .reopenWindowMinutes

    test('reopenWindowMinutes takes 1 to 525,600 minutes', async () => {
      for (const minutes of [1, 525_600, 90]) {
        const r = await patch({ policy: 'reopen', reopenWindowMinutes: minutes })
        assert.equal(r.status, 200, r.text)
        assert.equal(r.body.closedTickets.reopenWindowMinutes, minutes)
      }
    })

    test('0, a fraction, a negative or a year and a minute is refused, naming the field; nothing changes', async () => {
      for (const minutes of [0, 1.5, -60, 525_601, '60']) {
        const r = await patch({ reopenWindowMinutes: minutes })
        expectFailure(r, 400, 'VALIDATION_FAILED')
        assert.match(r.text, /reopenWindowMinutes/, r.text)
        assert.equal(await window(), 90, `${JSON.stringify(minutes)} changed nothing`)
      }
    })
  })
}
