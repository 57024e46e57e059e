// What a rule's conditions may cost, through the partner API (docs/partner-api.md#rule-conditions,
// docs/decisions/rules/condition-limits.md): the review's hostile rule set refused at save time (a
// pattern's compiled program, the integration's patterns together) or evaluated within the alert's
// budget (a 62 KB extra field read to 4,096 characters, conditions past the budget not run), said in the
// dry run and in a NO_RULE's detail; and the dry run's own limit per portal user and per API key. Counts
// and limits only, no timings.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { type Setup, setupIntegration } from '../../../support/fixtures.js'
import { newPortalUser } from '../../../support/portal.js'
import { startService, type TestService } from '../../../support/service.js'
import { expectFailure } from '../../../support/shapes.js'

const hostile = '([a-z]*[a-z]*){40}$'
/** The same shape, small enough to be saved (183 instructions). */
const justUnder = '([a-z]*[a-z]*){30}$'
const three = (pattern: string) => [1, 2, 3].map(() => ({ field: 'log', matches: pattern }))
const log = 'a'.repeat(62_000)

interface Check {
  holds: boolean
  checked: boolean
  detail: string
  cut?: { length: number; read: number }
}

describe('rule conditions within their limits', () => {
  let svc: TestService
  let s: Setup
  const rules = () => `/api/partner/integrations/${s.integrationId}/rules`
  const dryRun = (body: unknown) =>
    s.partner('POST', `/api/partner/integrations/${s.integrationId}/dry-run`, body)
  before(async () => {
    svc = await startService({ env: { DRY_RUNS_PER_MINUTE: '4' } })
    s = await setupIntegration(svc)
  })
  after(() => svc?.close())

  test("the review's pattern is refused when saved; nothing changes", async () => {
    const before = await svc.snapshot()
    const created = await s.partner('POST', rules(), {
      productGroup: 'Endpoint Security',
      conditions: three(hostile),
    })
    expectFailure(created, 400, 'VALIDATION_FAILED')
    assert.match(
      created.body.detail,
      /^conditions\[0\]\.matches compiles to a program of 243 instructions; at most 200/,
    )
    const changed = await s.partner('PATCH', `${rules()}/${s.ruleId}`, { conditions: three(hostile) })
    expectFailure(changed, 400, 'VALIDATION_FAILED')
    const repeated = await s.partner('POST', rules(), {
      productGroup: 'Endpoint Security',
      conditions: [{ field: 'log', matches: 'a{999}'.repeat(40) }],
    })
    expectFailure(repeated, 400, 'VALIDATION_FAILED')
    assert.match(repeated.body.detail, /repeats its parts to 39,960 characters/)
    assert.deepEqual(await svc.snapshot(), before)
  })

  test("past 4,000 instructions of the integration's patterns together, a new rule is refused with 409", async () => {
    // 3 × 183 = 549 instructions a rule: seven fit (3,843), the eighth would make 4,392.
    for (let i = 1; i <= 7; i++) {
      const res = await s.partner('POST', rules(), {
        productGroup: 'Endpoint Security',
        precedence: i,
        conditions: three(justUnder),
      })
      assert.equal(res.status, 201, res.text)
    }
    const before = await svc.snapshot()
    const eighth = await s.partner('POST', rules(), {
      productGroup: 'Endpoint Security',
      precedence: 8,
      conditions: three(justUnder),
    })
    expectFailure(eighth, 409, 'CONFLICT')
    assert.match(eighth.body.detail, /would compile to 4,392 instructions together; at most 4,000/)
    // A condition without a pattern costs none of it.
    const plain = await s.partner('POST', rules(), {
      productGroup: 'Backup',
      conditions: [{ field: 'log', contains: 'a' }],
    })
    assert.equal(plain.status, 201, plain.text)
    await s.partner('DELETE', `${rules()}/${plain.body.id}`)
    assert.deepEqual(await svc.snapshot(), before)
  })

  test('an alert with a 62 KB field: each condition reads 4,096 characters, the budget stops the rest', async () => {
    const dry = await dryRun({ data: { ...(s.body().data as object), log } })
    assert.equal(dry.status, 200, dry.text)
    const tried = dry.body.ruleChecks as { ruleId: string; holds: boolean; conditions: Check[] }[]
    assert.equal(tried.length, 8, 'the seven rules with conditions, then the plain rule')
    const conditions = tried.flatMap((r) => r.conditions)
    assert.equal(conditions.filter((c) => c.checked).length, 2, '2 × 183 × 4,097 units fit in 2,000,000')
    for (const c of conditions) assert.deepEqual(c.cut, { length: 62_000, read: 4_096 })
    assert.match(conditions[0]?.detail ?? '', /^data\.log \(62,000 characters, the first 4,096 read\) is 'a/)
    assert.match(conditions[2]?.detail ?? '', /was not checked, so it fails/)
    assert.deepEqual(dry.body.conditionWork, { used: 2 * 183 * 4_097, limit: 2_000_000, spent: true })
    assert.equal(dry.body.action, 'create')
    assert.equal(dry.body.matchedRule.id, s.ruleId, 'the plain rule, after the seven')

    // A real alert decides the same: a ticket by the plain rule.
    const created = await s.sync({}, {})
    assert.equal(created.status, 201, created.text)
    const big = await svc.request('POST', '/api/oem-alerts-api/alert/sync', {
      body: { ...s.body(), data: { ...(s.body().data as object), alertType: 'Agent Offline', log } },
    })
    assert.equal(big.status, 201, big.text)

    // Without the plain rule: NO_RULE, its detail saying the conditions were not all checked.
    assert.equal((await s.partner('DELETE', `${rules()}/${s.ruleId}`)).status, 204)
    const refused = await svc.request('POST', '/api/oem-alerts-api/alert/sync', {
      body: { ...s.body(), data: { ...(s.body().data as object), alertType: 'Ransomware Behaviour', log } },
    })
    expectFailure(refused, 404, 'NO_RULE')
    assert.match(refused.body.detail, /\(7 tried; the conditions of 7 were not all checked/)
  })

  test('the dry run is limited per portal user and per API key: 429 with Retry-After', async () => {
    const other = await setupIntegration(svc, { partnerName: 'Other MSP' })
    const viewer = await newPortalUser(svc, other, 'viewer')
    const path = `/api/partner/integrations/${other.integrationId}/dry-run`
    const body = { data: other.body().data }
    for (let i = 0; i < 4; i++) assert.equal((await other.partner('POST', path, body)).status, 200)
    const limited = await other.partner('POST', path, body)
    expectFailure(limited, 429, 'RATE_LIMITED')
    const wait = Number(limited.headers.get('retry-after'))
    assert.ok(Number.isInteger(wait) && wait >= 1 && wait <= 60, `Retry-After: ${wait}`)
    assert.match(
      limited.body.detail,
      /^Dry runs of this user \(or API key\): at most 4 a minute; try again in \d+ seconds?\.$/,
    )
    // The portal user of the same partner has a count of its own.
    for (let i = 0; i < 4; i++) assert.equal((await viewer.request('POST', path, body)).status, 200)
    expectFailure(await viewer.request('POST', path, body), 429, 'RATE_LIMITED')
  })
})
