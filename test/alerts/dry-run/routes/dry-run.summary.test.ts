// The rule tester's plain sentence over HTTP (docs/partner-api.md#rules): the dry run's `summary` says
// what would happen in a service manager's words, with the PSA's names, while `reason`, `row` and
// `error` keep the technical detail.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { type AlertData, defaultAlert, type Setup, setupIntegration } from '../../../support/fixtures.js'
import { backends, startService, type TestService } from '../../../support/service.js'

for (const backend of backends()) {
  describe(`the dry run's plain sentence (${backend})`, () => {
    let svc: TestService
    before(async () => {
      svc = await startService({ backend })
    })
    after(() => svc.close())

    async function dry(s: Setup, data: Partial<AlertData> = {}) {
      const res = await s.partner('POST', `/api/partner/integrations/${s.integrationId}/dry-run`, {
        data: { ...defaultAlert, ...data },
      })
      assert.equal(res.status, 200, res.text)
      assert.equal(typeof res.body.summary, 'string')
      assert.doesNotMatch(res.body.summary, /\/api\/|[A-Z]{3,}_[A-Z]|decision table|correlationId/)
      return res.body
    }

    test('an integration still being set up: what to do, the API path only in the reason', async () => {
      const s = await setupIntegration(svc, { stopAt: 'mapping' })
      const r = await dry(s)
      assert.equal(r.action, 'refuse')
      assert.equal(r.error, 'INTEGRATION_NOT_ACTIVE')
      assert.equal(
        r.summary,
        'This alert would fail: the integration is still being set up. Finish the set-up on the Review step.',
      )
      assert.match(r.reason, /complete-mapping/)
    })

    test('an unmapped account, by the name the vendor gave it', async () => {
      const s = await setupIntegration(svc)
      const r = await dry(s, { accountId: 'globex-002' })
      assert.equal(r.error, 'ACCOUNT_NOT_MAPPED')
      assert.equal(
        r.summary,
        'This alert would fail: Company globex-002 is not mapped to a PSA company. Map it on the Map accounts step.',
      )
    })

    test('suppressed by a rule, named as the rules list names it', async () => {
      const s = await setupIntegration(svc)
      const quiet = await s.partner('POST', `/api/partner/integrations/${s.integrationId}/rules`, {
        productGroup: 'Backup',
        action: 'suppress',
      })
      assert.equal(quiet.status, 201, quiet.text)
      const r = await dry(s, { productGroup: 'Backup', alertType: 'Backup Warning' })
      assert.equal(r.action, 'suppress')
      assert.equal(
        r.summary,
        "Suppressed: the rule 'Backup: every alert type' drops these alerts, so no ticket would be opened.",
      )
    })

    test("create: the PSA company and board by the PSA's names", async () => {
      const s = await setupIntegration(svc, {
        rule: { productGroup: 'Endpoint Security', ticket: { board: 'security' } },
      })
      const r = await dry(s)
      assert.equal(r.action, 'create')
      assert.equal(r.summary, 'This alert would open a ticket in Acme Corporation on the Security board.')
      // Without a board: the PSA's default one.
      const plain = await setupIntegration(svc)
      assert.equal(
        (await dry(plain)).summary,
        "This alert would open a ticket in Acme Corporation on the PSA's default board.",
      )
    })
  })
}
