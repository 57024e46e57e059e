// Rule conditions and ticket templates through the partner API (docs/partner-api.md#rule-conditions,
// docs/partner-api.md#ticket-templates): a templated rule's ticket in the sandbox PSA and in the HaloPSA
// simulator (whose description renders HTML: the vendor's values arrive escaped), severity:critical routed
// to another board by a condition on an extra data field, the dry run's account of conditions and
// templates, the extra fields recent alerts carried, and bad templates or patterns refused with nothing
// changed.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { setupIntegration } from '../../../support/fixtures.js'
import { backends, startService, type TestService } from '../../../support/service.js'
import { expectFailure } from '../../../support/shapes.js'
import { type HaloPsaSim, startHaloPsaSim } from '../../../support/sims/halopsa/server.js'

const templates = {
  title: '[{{accountName}}] {{title}} ({{vendor}})',
  description: '{{summary}}\nSeen {{occurrenceCount}} time(s) — {{portalLink}}',
}

for (const backend of backends('databases')) {
  describe(`rule conditions and ticket templates (${backend})`, () => {
    let svc: TestService
    before(async () => {
      svc = await startService({ backend, env: { PUBLIC_URL: 'https://alerts.example' } })
    })
    after(() => svc.close())

    test('a templated rule makes the ticket with the rendered title and description', async () => {
      const s = await setupIntegration(svc, { rule: { productGroup: 'Endpoint Security', templates } })
      const res = await s.sync({ summary: 'Trojan {{title}} <b>quarantined</b>.' })
      assert.equal(res.status, 201, res.text)
      const cid = res.body.data.correlationID
      const tickets = await s.partner('GET', '/api/partner/sandbox/tickets')
      const t = tickets.body.data[0]
      assert.equal(t.summary, '[Company acme-001] Malware detected on WS-042 (Acme Security)')
      const lines = t.description.split('\n')
      assert.equal(lines[0], 'Trojan {{title}} <b>quarantined</b>.', 'values are text, not parsed again')
      assert.equal(lines[1], `Seen 1 time(s) — https://alerts.example/tickets/${cid}`)
      assert.match(t.description, new RegExp(`\\n\\nCorrelation ID: ${cid}\\nMessage ID: `))
      // The dry run shows the ticket text the rule's templates would give.
      const dry = await s.partner('POST', `/api/partner/integrations/${s.integrationId}/dry-run`, {
        data: { ...(s.body().data as object), alertType: 'Agent Offline', title: 'WS-1 <offline>' },
      })
      assert.equal(dry.status, 200, dry.text)
      assert.equal(dry.body.ticketText.title, '[Company acme-001] WS-1 <offline> (Acme Security)')
      assert.equal(dry.body.ticketText.html, false)
      // The rule shows its templates back; null when never set.
      const rules = await s.partner('GET', `/api/partner/integrations/${s.integrationId}/rules`)
      assert.deepEqual(rules.body.data[0].templates, templates)
      assert.deepEqual(rules.body.data[0].conditions, [])
    })

    test('severity:critical goes to the P1 board; other alerts to the rule after it', async () => {
      const s = await setupIntegration(svc, {
        rule: { productGroup: 'Endpoint Security', ticket: { board: 'Service Desk' } },
      })
      const rules = `/api/partner/integrations/${s.integrationId}/rules`
      const p1 = await s.partner('POST', rules, {
        productGroup: 'Endpoint Security',
        precedence: 1,
        conditions: [
          { field: 'severity', equals: 'critical' },
          { field: 'title', matches: '(?i)ws-\\d+' },
        ],
        ticket: { board: 'P1' },
      })
      assert.equal(p1.status, 201, p1.text)
      assert.equal((await s.sync({ title: 'Malware on WS-7' }, {})).status, 201)
      const critical = await svc.request('POST', '/api/oem-alerts-api/alert/sync', {
        body: {
          ...s.body(),
          // Another alert type: de-duplication (account, group, type) would fold it into the first.
          data: {
            ...(s.body().data as object),
            title: 'Malware on WS-8',
            alertType: 'Ransomware Behaviour',
            severity: 'CRITICAL',
          },
        },
      })
      assert.equal(critical.status, 201, critical.text)
      const tickets = (await s.partner('GET', '/api/partner/sandbox/tickets')).body.data as {
        summary: string
        board: string
      }[]
      const boardOf = (summary: string) => tickets.find((t) => t.summary === summary)?.board
      assert.equal(boardOf('Malware on WS-8'), 'P1')
      assert.equal(boardOf('Malware on WS-7'), 'Service Desk')

      // The dry run says which conditions held, rule by rule, and the extra fields are listed.
      const dry = await s.partner('POST', `/api/partner/integrations/${s.integrationId}/dry-run`, {
        data: {
          ...(s.body().data as object),
          title: 'WS-9 offline',
          alertType: 'Agent Offline',
          severity: 'warning',
        },
      })
      assert.equal(dry.status, 200, dry.text)
      assert.equal(dry.body.action, 'create')
      assert.equal(dry.body.matchedRule.id, s.ruleId)
      assert.deepEqual(
        dry.body.ruleChecks.map((r: { ruleId: string; holds: boolean }) => [r.ruleId, r.holds]),
        [
          [p1.body.id, false],
          [s.ruleId, true],
        ],
      )
      assert.equal(
        dry.body.ruleChecks[0].conditions[0].detail,
        "data.severity is 'warning': equals 'critical' fails.",
      )
      assert.equal(dry.body.ruleChecks[0].conditions[1].holds, true)
      const extra = await s.partner('GET', `/api/partner/integrations/${s.integrationId}/extra-fields`)
      assert.equal(extra.status, 200, extra.text)
      assert.deepEqual(extra.body.data, [{ field: 'severity', alerts: 1, examples: ['CRITICAL'] }])
    })

    test('a bad template or pattern is a 400 naming it, and changes nothing', async () => {
      const s = await setupIntegration(svc)
      const rules = `/api/partner/integrations/${s.integrationId}/rules`
      const before = await svc.snapshot()
      const bad: [unknown, RegExp][] = [
        [
          { templates: { title: '{{title}} {{severity}}' } },
          /templates\.title has unknown placeholder \{\{severity\}\}/,
        ],
        [{ templates: { description: '{{#title}}x{{/title}}' } }, /templates\.description holds a section/],
        [{ templates: { description: '{{title' } }, /templates\.description is not a template/],
        [
          { conditions: [{ field: 'title', matches: '(' }] },
          /conditions\[0\]\.matches is not a regular expression RE2 accepts/,
        ],
        [
          { conditions: [{ field: 'title', matches: 'x'.repeat(257) }] },
          /conditions\/0\/matches|conditions\[0\]\.matches/,
        ],
        [{ conditions: [{ field: 'title', matches: '(a)\\1' }] }, /RE2/],
        [
          { conditions: [{ field: 'title', equals: 'a', contains: 'b' }] },
          /exactly one of equals, contains and matches/,
        ],
        [{ conditions: [{ field: 'title', like: 'a' }] }, /like|additional/i],
      ]
      for (const [body, why] of bad) {
        const created = await s.partner('POST', rules, { productGroup: 'Backup', ...(body as object) })
        expectFailure(created, 400, 'VALIDATION_FAILED')
        assert.match(created.body.detail, why, JSON.stringify(body))
        const changed = await s.partner('PATCH', `${rules}/${s.ruleId}`, body)
        expectFailure(changed, 400, 'VALIDATION_FAILED')
      }
      assert.deepEqual(await svc.snapshot(), before)
    })

    test('template preview: rendered on a sample alert, bad templates refused', async () => {
      const s = await setupIntegration(svc)
      const path = `/api/partner/integrations/${s.integrationId}/template-preview`
      const res = await s.partner('POST', path, {
        templates,
        alert: { title: '<script>x</script>', accountId: 'acme-001', correlationId: 'c-1' },
      })
      assert.equal(res.status, 200, res.text)
      assert.deepEqual(res.body, {
        title: '[Company acme-001] <script>x</script> (Acme Security)',
        description:
          'Free space fell below 5% on SERVER-01.\nSeen 1 time(s) — https://alerts.example/tickets/c-1',
        html: false,
      })
      const bad = await s.partner('POST', path, { templates: { title: '{{nope}}' } })
      expectFailure(bad, 400, 'VALIDATION_FAILED')
      assert.match(bad.body.detail, /\{\{nope\}\}/)
      // A sample correlationId with a lone surrogate: its portal link takes U+FFFD for it (no 500).
      const odd = await s.partner('POST', path, { templates, alert: { correlationId: 'c-\ud800' } })
      assert.equal(odd.status, 200, odd.text)
      assert.match(odd.body.description, /https:\/\/alerts\.example\/tickets\/c-%EF%BF%BD$/)
    })
  })
}

describe('ticket templates on a PSA whose description renders HTML (HaloPSA simulator)', () => {
  let svc: TestService
  let sim: HaloPsaSim
  const halo = { clientId: 'svc-client', clientSecret: 'svc-secret', tenant: 'acme' }
  before(async () => {
    sim = await startHaloPsaSim(halo)
    svc = await startService({ env: { ALLOW_PRIVATE_NETWORK: 'true', PSA_TIMEOUT_MS: '3000' } })
  })
  after(async () => {
    await svc.close()
    await sim.close()
  })

  test("the vendor's HTML arrives escaped in the details; the title as text", async () => {
    const s = await setupIntegration(svc, {
      psa: { kind: 'halopsa', baseUrl: sim.url, ...halo },
      psaCompanyId: '12',
      rule: { productGroup: 'Endpoint Security', templates },
    })
    const res = await s.sync({ title: 'Malware <i>x</i>', summary: '<img src=x onerror=alert(1)>' })
    assert.equal(res.status, 201, res.text)
    const t = sim.state.tickets.at(-1)
    assert.ok(t)
    assert.equal(t.summary, '[Company acme-001] Malware <i>x</i> (Acme Security)')
    assert.match(t.details, /^&lt;img src=x onerror=alert\(1\)&gt;\nSeen 1 time\(s\) — \/tickets\//)
    assert.ok(!t.details.includes('<img'))
  })
})
