// Bad input gets a clear error in the contract's failure shape and changes nothing.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import fc from 'fast-check'
import { type Setup, setupIntegration } from '../../support/fixtures.js'
import { backends, startService, type TestService } from '../../support/service.js'
import { expectFailure, expectSyncFailure } from '../../support/shapes.js'

const path = '/api/oem-alerts-api/alert/sync'

for (const backend of backends()) {
  describe(`bad alert input (${backend})`, () => {
    let svc: TestService
    let s: Setup
    before(async () => {
      svc = await startService({ backend })
      s = await setupIntegration(svc)
    })
    after(() => svc.close())

    async function refused(
      send: () => Promise<import('../../support/service.js').Response>,
      status: number,
      error: string,
    ) {
      const before = await svc.counts()
      const res = await send()
      expectSyncFailure(res, { status, error })
      assert.deepEqual(await svc.counts(), before, 'nothing changed')
      return res
    }

    test('invalid JSON', async () => {
      await refused(() => svc.request('POST', path, { raw: '{"data": {' }), 400, 'INVALID_JSON')
      await refused(
        () => svc.request('POST', path, { raw: '', headers: { 'content-type': 'application/json' } }),
        400,
        'INVALID_JSON',
      )
    })

    test('a body that is not JSON at all is refused with 415', async () => {
      await refused(
        () => svc.request('POST', path, { raw: 'title=x', headers: { 'content-type': 'text/plain' } }),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      )
    })

    test('wrong types', async () => {
      const res = await refused(
        () => svc.request('POST', path, { body: s.body({ incidentStatus: 'CLOSED' as 'OPEN' }) }),
        400,
        'VALIDATION_FAILED',
      )
      // An enum names its values.
      assert.match(res.body.detail, /incidentStatus must be one of "OPEN", "UPDATE", "RESOLVED"/)
      await refused(
        () => svc.request('POST', path, { body: { ...s.body(), data: 'not an object' } }),
        400,
        'VALIDATION_FAILED',
      )
      await refused(() => svc.request('POST', path, { raw: '[1,2,3]' }), 400, 'VALIDATION_FAILED')
    })

    test('a title of only whitespace is refused, saying so', async () => {
      const res = await refused(
        () => svc.request('POST', path, { body: s.body({ title: ' \t\n ' }) }),
        400,
        'VALIDATION_FAILED',
      )
      assert.match(res.body.detail, /title must not be empty or only whitespace/)
    })

    test('missing fields are named', async () => {
      const { data, ...noData } = s.body()
      const res = await refused(() => svc.request('POST', path, { body: noData }), 400, 'VALIDATION_FAILED')
      assert.match(res.body.detail, /data/)
      const body = s.body()
      delete (body.data as Record<string, unknown>).accountId
      const res2 = await refused(() => svc.request('POST', path, { body }), 400, 'VALIDATION_FAILED')
      assert.match(res2.body.detail, /accountId/)
      assert.ok(data)
    })

    test('identifiers have length limits (400 naming the field); free text has none', async () => {
      const long = await svc.request('POST', path, {
        body: s.body({ title: `Disk failure ${'x'.repeat(300)}`, summary: 'evidence '.repeat(12_000) }),
      })
      assert.equal(long.status, 201, `a long title and a 100 KB summary are taken: ${long.text}`)
      // Closed again, so that later alerts of this integration open tickets of their own.
      const closed = await svc.request('POST', path, {
        body: s.body({ incidentStatus: 'RESOLVED' }, { correlationId: long.body.data.correlationID }),
      })
      assert.equal(closed.status, 200, closed.text)
      await refused(
        () => svc.request('POST', path, { body: s.body({ accountId: 'a'.repeat(129) }) }),
        400,
        'VALIDATION_FAILED',
      )
      await refused(
        () => svc.request('POST', path, { body: s.body({}, { correlationId: 'has spaces' }) }),
        400,
        'VALIDATION_FAILED',
      )
      await refused(
        () => svc.request('POST', path, { body: s.body({ title: '' }) }),
        400,
        'VALIDATION_FAILED',
      )
    })

    test('correlationId and correlationID that differ are refused', async () => {
      await refused(
        () => svc.request('POST', path, { body: s.body({}, { correlationId: 'a-1', correlationID: 'b-2' }) }),
        400,
        'VALIDATION_FAILED',
      )
    })

    test('a body over 256 KiB answers 413', async () => {
      const big = s.body({ summary: 'x'.repeat(300 * 1024) })
      await refused(() => svc.request('POST', path, { body: big }), 413, 'BODY_TOO_LARGE')
    })

    test('unknown integration and wrong secret', async () => {
      await refused(
        () => svc.request('POST', path, { body: s.body({}, { integrationId: 'nope' }) }),
        404,
        'INTEGRATION_NOT_FOUND',
      )
      await refused(
        () => svc.request('POST', path, { body: s.body({}, { clientSecret: `${s.clientSecret}x` }) }),
        401,
        'INVALID_CREDENTIALS',
      )
    })

    test('unknown fields are ignored', async () => {
      const res = await svc.request('POST', path, { body: s.body({}, { somethingNew: { nested: true } }) })
      assert.equal(res.status, 201, res.text)
    })

    test('arbitrary JSON bodies never answer 5xx and never change anything', async () => {
      const before = await svc.counts()
      const valid = Object.fromEntries(Object.entries(s.body()).map(([k, v]) => [k, fc.constant(v)]))
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            fc.anything(),
            fc.record({ ...valid, data: fc.anything() }),
            fc.record({
              ...valid,
              clientSecret: fc.string(),
              data: fc.record({ title: fc.string(), incidentStatus: fc.string(), accountId: fc.anything() }),
            }),
          ),
          async (body) => {
            const res = await svc.request('POST', path, { raw: JSON.stringify(body) ?? 'null' })
            assert.ok(res.status >= 400 && res.status < 500, `${res.status} ${res.text}`)
            assert.equal(res.body.message, 'failed')
          },
        ),
        { numRuns: 60 },
      )
      assert.deepEqual(await svc.counts(), before)
    })

    /** The request is refused in the strategy's failure shape, and not one row changes. */
    async function rowsUnchanged(
      send: () => Promise<import('../../support/service.js').Response>,
      status: number,
      error: string,
    ) {
      const before = await svc.snapshot()
      const res = await send()
      assert.equal(res.status, status, res.text)
      assert.equal(res.body.message, 'failed', res.text)
      assert.equal(res.body.error, error, res.text)
      assert.equal(typeof res.body.data.messageId, 'string')
      assert.deepEqual(await svc.snapshot(), before, 'no row changed')
      return res
    }

    /** The alert body as JSON with `extra` (raw JSON text) among the unknown fields of `data`. */
    const withExtra = (extra: string) => {
      const text = JSON.stringify(s.body())
      return text.replace('"incidentStatus"', `"extra":${extra},"incidentStatus"`)
    }
    const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`

    test('NUL in any string of an alert is a 400 naming the field, on both strategies', async () => {
      const nul = 'x\u0000y'
      for (const [body, field] of [
        [s.body({}, { clientId: nul }), 'body/clientId'],
        [s.body({}, { clientSecret: nul }), 'body/clientSecret'],
        [s.body({}, { organizationOemToken: nul }), 'body/organizationOemToken'],
        [s.body({}, { integrationId: nul }), 'body/integrationId'],
        [s.body({ title: nul }), 'body/data/title'],
        [s.body({ summary: nul }), 'body/data/summary'],
        [s.body({ accountId: nul }), 'body/data/accountId'],
        [s.body({ productGroup: nul }), 'body/data/productGroup'],
        [s.body({}, { data: { ...(s.body().data as object), note: { text: nul } } }), 'body/data/note/text'],
        [s.body({}, { data: { ...(s.body().data as object), [`k${nul}`]: 1 } }), 'body/data'],
      ] as const) {
        for (const url of [path, '/api/oem-alerts-api/alert']) {
          const res = await rowsUnchanged(() => svc.request('POST', url, { body }), 400, 'VALIDATION_FAILED')
          assert.ok(res.body.detail.includes(field), res.text)
          assert.match(res.body.detail, /NUL/)
        }
      }
      expectSyncFailure(await svc.request('POST', path, { body: s.body({ title: nul }) }), {
        status: 400,
        error: 'VALIDATION_FAILED',
      })
    })

    test('bytes that are not UTF-8 are a 400 naming the field, on both strategies, and nothing is stored', async () => {
      // 0xC3 0x28: a two-byte sequence broken by its second byte; 0xFF never occurs in UTF-8.
      const bytes = (field: string, bad: number[]) => {
        const text = JSON.stringify(s.body({ [field]: 'MARK' }))
        const [head, tail] = text.split('MARK') as [string, string]
        return Buffer.concat([Buffer.from(head), Buffer.from('Caf'), Buffer.from(bad), Buffer.from(tail)])
      }
      for (const [field, bad] of [
        ['title', [0xc3, 0x28]],
        ['summary', [0xff]],
        ['accountId', [0xed, 0xa0, 0x80]],
      ] as const) {
        for (const url of [path, '/api/oem-alerts-api/alert']) {
          const res = await rowsUnchanged(
            () => svc.request('POST', url, { raw: bytes(field, [...bad]) }),
            400,
            'VALIDATION_FAILED',
          )
          assert.match(res.body.detail, new RegExp(`body/data/${field} is not valid UTF-8`), res.text)
        }
      }
      // Not JSON even once decoded: the body is named.
      const res = await rowsUnchanged(
        () => svc.request('POST', path, { raw: Buffer.from([0x7b, 0xff, 0x7d]) }),
        400,
        'VALIDATION_FAILED',
      )
      assert.match(res.body.detail, /^The body is not valid UTF-8/)
      // A real U+FFFD and other non-ASCII text, sent as UTF-8, are taken as they are.
      const ok = await svc.request('POST', path, { body: s.body({ title: 'Café \uFFFD ☃ 𝄞' }) })
      assert.ok(ok.status === 200 || ok.status === 201, ok.text)
    })

    test('unknown data fields nested thousands deep are refused before anything is decided or sent to a PSA', async () => {
      for (const url of [path, '/api/oem-alerts-api/alert']) {
        const res = await rowsUnchanged(
          () => svc.request('POST', url, { raw: withExtra(nested(5000)) }),
          400,
          'VALIDATION_FAILED',
        )
        assert.match(res.body.detail, /body\/data\/extra\/a.* deeper than 32 levels/)
      }
      // At the limit (the body is level 1, data 2, extra 3) the alert is accepted.
      const res = await svc.request('POST', path, { raw: withExtra(nested(29)) })
      assert.ok(res.status === 200 || res.status === 201, res.text)
    })

    test('unknown data fields over 64 KiB are refused; up to 64 KiB are kept', async () => {
      for (const url of [path, '/api/oem-alerts-api/alert']) {
        const res = await rowsUnchanged(
          () => svc.request('POST', url, { raw: withExtra(JSON.stringify('x'.repeat(64 * 1024))) }),
          400,
          'VALIDATION_FAILED',
        )
        assert.match(res.body.detail, /body\/data .*65548 bytes.*at most 65536/)
      }
      const res = await svc.request('POST', path, { raw: withExtra(JSON.stringify('x'.repeat(60 * 1024))) })
      assert.ok(res.status === 200 || res.status === 201, res.text)
    })

    test('bad input to the partner API changes nothing either', async () => {
      const before = await svc.counts()
      const bad = [
        s.partner('POST', `/api/partner/integrations/${s.integrationId}/rules`, {
          productGroup: 'No Such Group',
        }),
        s.partner('POST', `/api/partner/integrations/${s.integrationId}/rules`, {
          productGroup: 'Backup',
          alertTypes: ['Malware Detected'],
        }),
        s.partner('POST', `/api/partner/integrations/${s.integrationId}/rules`, {
          productGroup: 'Backup',
          action: 'explode',
        }),
        s.partner('PATCH', `/api/partner/integrations/${s.integrationId}`, {
          deduplication: { keyFields: [] },
        }),
        s.partner('PUT', `/api/partner/integrations/${s.integrationId}/accounts/unknown-account`, {
          psaCompanyId: '100',
        }),
      ]
      const results = await Promise.all(bad)
      expectFailure(results[0]!, 400, 'VALIDATION_FAILED')
      assert.match(results[0]!.body.detail, /No Such Group/)
      expectFailure(results[1]!, 400, 'VALIDATION_FAILED')
      expectFailure(results[2]!, 400, 'VALIDATION_FAILED')
      expectFailure(results[3]!, 400, 'VALIDATION_FAILED')
      expectFailure(results[4]!, 404, 'ACCOUNT_UNKNOWN')
      assert.deepEqual(await svc.counts(), before)
    })
  })
}
