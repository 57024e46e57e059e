// Usage counts reaching a PSA's billing line through the whole service
// (docs/partner-api.md#usage-counts-reach-the-psas-billing), the same scenarios for every PSA: the vendor
// posts counts over HTTP, the partner maps services (for every account by product, or one account to one
// line), and the job sets the line's quantity in the PSA (a simulator on loopback, or the built-in
// sandbox). A second count sets the new total; a PSA failure is retried, then shown with the PSA's words,
// and pushed again on request; a count of an unmapped service is kept and visible, and nothing reaches the
// PSA.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { type Setup, setupIntegration } from '../fixtures.js'
import { type Backend, backends, startService, type TestService } from '../service.js'
import { waitFor } from '../wait.js'

export interface UsagePsa {
  /** The partner's PSA settings. */
  psa: Record<string, unknown> & { kind: string }
  /** A PSA company whose agreements have billing lines. */
  companyId: string
  /** The line's quantity as the PSA holds it. */
  quantity(lineId: string, at: { svc: TestService; s: Setup }): Promise<number | null>
  /** The PSA fails its next `count` calls (null: until healed) with this status. */
  fail(s: Setup, status: number, count: number | null): Promise<void>
  heal(s: Setup): Promise<void>
  /** Calls the PSA has received so far (null: it cannot count them). */
  calls(): number | null
  close(): Promise<void>
}

interface Line {
  id: string
  productId: string | null
  name: string
  quantity: number | null
}

interface Push {
  status: string
  unitCount: number
  psaLineId: string | null
  attempts: number
  detail: string | null
  pushedCount: number | null
  pushedAt: string | null
}

const env = {
  ALLOW_PRIVATE_NETWORK: 'true',
  USAGE_RETRY_SCHEDULE: '0.2,0.2',
  PSA_TIMEOUT_MS: '3000',
}

/**
 * The scenarios for one PSA, on SQLite (`backends()`): what reaches the PSA does not depend on the
 * service's database. One PSA's file passes `backends('matrix')`, so that the usage push is proven on
 * PostgreSQL and PostgreSQL + Redis too (test/billing/usage-push.autotask.test.ts).
 */
export function usageThroughService(
  name: string,
  start: () => Promise<UsagePsa>,
  on: Backend[] = backends(),
): void {
  for (const backend of on) {
    describe(`usage pushed to ${name} (${backend})`, () => {
      let svc: TestService
      let f: UsagePsa
      let s: Setup
      let lines: Line[]
      before(async () => {
        f = await start()
        svc = await startService({ backend, env })
        s = await setupIntegration(svc, { psa: f.psa, psaCompanyId: f.companyId })
        for (const id of ['edr', 'backup', 'spare']) {
          const res = await vendor('POST', '/api/vendor-api/organization/services', {
            id,
            name: `Service ${id}`,
            description: `${id} seats`,
          })
          assert.equal(res.status, 201, res.text)
        }
        const listed = await s.partner('GET', `/api/partner/psa/agreements?companyId=${f.companyId}`)
        assert.equal(listed.status, 200, listed.text)
        lines = listed.body.data
        assert.ok(lines.length > 0, `PSA company ${f.companyId} has billing lines`)
      })
      after(async () => {
        await svc?.close()
        await f?.close()
      })

      const vendor = (method: string, path: string, body?: unknown) =>
        svc.request(method, path, { token: s.vendorToken, body })
      const count = async (serviceId: string, unitCount: number, accountId = 'acme-001') => {
        const res = await vendor('POST', `/api/vendor-api/service/${serviceId}/count`, {
          unitCount,
          accountId,
        })
        assert.equal(res.status, 201, res.text)
      }
      const pushOf = async (serviceId: string, accountId = 'acme-001'): Promise<Push | null> => {
        const res = await s.partner('GET', `/api/partner/integrations/${s.integrationId}/usage`)
        assert.equal(res.status, 200, res.text)
        const row = res.body.data.find(
          (r: { serviceId: string; accountId: string }) =>
            r.serviceId === serviceId && r.accountId === accountId,
        )
        return row?.push ?? null
      }
      /** Waits until the pair's push satisfies `done`. */
      const pushed = (serviceId: string, done: (p: Push) => boolean, what: string): Promise<Push> => {
        let last: Push | null = null
        return waitFor(
          async () => {
            last = await pushOf(serviceId)
            return last && done(last) && last
          },
          { what: () => `${what}: the push is ${JSON.stringify(last)}`, timeoutMs: 20_000, intervalMs: 100 },
        )
      }
      /** A line billing a product no other line of the company bills (found by its product). */
      const productLine = () => {
        const product = (l: Line) => l.productId ?? l.name
        const line = lines.find((l) => lines.filter((o) => product(o) === product(l)).length === 1)
        assert.ok(line, 'a line whose product is billed once')
        return { line, product: product(line) }
      }

      test('a mapped service: each count sets the line’s quantity (the second is the new total)', async () => {
        const { line, product } = productLine()
        const map = await s.partner('PUT', `/api/partner/integrations/${s.integrationId}/services/edr`, {
          psaProductId: product,
        })
        assert.equal(map.status, 200, map.text)
        await count('edr', 7)
        const first = await pushed('edr', (p) => p.status === 'pushed' && p.pushedCount === 7, 'count 7')
        assert.equal(first.psaLineId, line.id)
        assert.equal(await f.quantity(line.id, { svc, s }), 7)
        await count('edr', 3)
        const second = await pushed('edr', (p) => p.status === 'pushed' && p.pushedCount === 3, 'count 3')
        assert.equal(await f.quantity(line.id, { svc, s }), 3, 'set to 3, not 7 + 3')
        assert.ok(second.pushedAt, 'when it was pushed')
        assert.equal(second.detail, null)
      })

      test('one account mapped to one line: its counts set that line', async () => {
        const line = lines[lines.length - 1]!
        const put = await s.partner(
          'PUT',
          `/api/partner/integrations/${s.integrationId}/services/backup/accounts/acme-001`,
          { psaLineId: line.id },
        )
        assert.equal(put.status, 200, put.text)
        await count('backup', 4)
        const p = await pushed('backup', (x) => x.status === 'pushed' && x.pushedCount === 4, 'count 4')
        assert.equal(p.psaLineId, line.id)
        assert.equal(await f.quantity(line.id, { svc, s }), 4)
        const listed = await s.partner(
          'GET',
          `/api/partner/integrations/${s.integrationId}/services/backup/accounts`,
        )
        assert.deepEqual(listed.body.data, [
          { serviceId: 'backup', accountId: 'acme-001', psaLineId: line.id },
        ])
      })

      test('a PSA failure is retried; one that lasts is shown with the PSA’s words; pushing again takes it', async () => {
        const { line } = productLine()
        await f.fail(s, 503, 1)
        await count('edr', 11)
        const retried = await pushed('edr', (p) => p.status === 'pushed' && p.pushedCount === 11, 'count 11')
        assert.ok(retried.attempts >= 2, `retried (${retried.attempts} attempts)`)
        assert.equal(await f.quantity(line.id, { svc, s }), 11)

        await f.fail(s, 503, null)
        await count('edr', 12)
        const failed = await pushed('edr', (p) => p.status === 'failed', 'a lasting failure')
        assert.match(failed.detail ?? '', /kept failing/)
        assert.equal(failed.unitCount, 12)
        assert.equal(failed.pushedCount, 11, 'the last count the PSA took is still shown')
        assert.equal(await f.quantity(line.id, { svc, s }), 11)

        await f.heal(s)
        const again = await s.partner('POST', `/api/partner/integrations/${s.integrationId}/usage/push`)
        assert.equal(again.status, 202, again.text)
        await pushed('edr', (p) => p.status === 'pushed' && p.pushedCount === 12, 'pushed again')
        assert.equal(await f.quantity(line.id, { svc, s }), 12)
      })

      test('a count of an unmapped service is kept and shown, and nothing reaches the PSA', async () => {
        // Let pushes still queued from other tests finish first.
        await waitFor(
          async () =>
            !(await svc.services.db.kysely
              .selectFrom('jobs')
              .select('id')
              .where('kind', '=', 'usage-push')
              .where('failed_at', 'is', null)
              .executeTakeFirst()),
          { what: "the other tests' usage pushes to finish", timeoutMs: 10_000 },
        )
        const before = f.calls()
        await count('spare', 5)
        const p = await pushed('spare', (x) => x.status === 'unmapped', 'unmapped')
        assert.equal(p.unitCount, 5)
        assert.match(p.detail ?? '', /not mapped/)
        if (before !== null) assert.equal(f.calls(), before, 'no PSA call')
        const history = await s.partner(
          'GET',
          `/api/partner/integrations/${s.integrationId}/usage/history?serviceId=spare`,
        )
        assert.deepEqual(
          history.body.data.map((u: { unitCount: number }) => u.unitCount),
          [5],
        )
      })
    })
  }
}
