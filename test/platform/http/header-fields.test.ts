// Headers a vendor, a partner or the operator sets for the service to send (docs/vendor-api.md,
// "Self-service"; docs/partner-api.md): one check (src/platform/http/header-fields.ts) refuses a value
// outside RFC 9110's field-value grammar (CR, LF, NUL, other controls, leading or trailing space,
// non-ASCII), a name that is not a token, hop-by-hop and framing names, the webhook signature's names
// and the names the service sets itself; 400 with nothing saved, on every route that takes one. A
// header that passes is sent as given.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { headerFieldProblem } from '../../../src/platform/http/header-fields.js'
import { catalogue, type Setup, setupIntegration } from '../../support/fixtures.js'
import { type Receiver, startReceiver } from '../../support/receiver.js'
import { startService, type TestService } from '../../support/service.js'
import { expectFailure } from '../../support/shapes.js'

const badValues = [
  'Bearer a\r\nX-Injected: 1',
  'Bearer a\nb',
  'Bearer a\rb',
  'Bearer \u0001x',
  'Bearer x\u007f',
  ' Bearer x',
  'Bearer x ',
  '\t',
  'Bearer é',
  'Bearer 🙂',
]
const badNames = [
  'Transfer-Encoding',
  'Content-Length',
  'Host',
  'Connection',
  'Keep-Alive',
  'Proxy-Authorization',
  'Proxy-Connection',
  'TE',
  'Trailer',
  'Upgrade',
  'Expect',
  'webhook-signature',
  'Webhook-Id',
  'webhook-timestamp',
  'Content-Type',
  'User-Agent',
  'X Key',
  'X:Key',
  'X-Key\r\n',
  '',
]

describe('headerFieldProblem', () => {
  test('a token name and a visible-ASCII value pass', () => {
    for (const [name, value] of [
      ['Authorization', 'Bearer abc.def-123'],
      ["X-Vendor_Key.v2!#$%&'*+^`|~", 'a\tb c'],
      ['x', '"quoted", and ; more'],
    ])
      assert.equal(headerFieldProblem('h', { name: name!, value: value! }), null, name)
  })
  test('values outside the field-value grammar are refused, naming the field', () => {
    for (const value of badValues)
      assert.match(headerFieldProblem('h', { name: 'X-Key', value }) ?? '', /^h: the header value/, value)
  })
  test('names that are no token, hop-by-hop, framing, signature or reserved are refused', () => {
    for (const name of badNames)
      assert.ok(headerFieldProblem('h', { name, value: 'v' }, ['content-type', 'user-agent']), name)
    assert.match(
      headerFieldProblem('h', { name: 'Connection', value: 'close, webhook-signature' }) ?? '',
      /hop-by-hop/,
    )
    assert.match(headerFieldProblem('h', { name: 'webhook-id', value: 'x' }) ?? '', /signature/)
  })
})

describe('every route that sets a header refuses a bad one and saves nothing', () => {
  let svc: TestService
  let receiver: Receiver
  let s: Setup
  before(async () => {
    svc = await startService({ env: { ALLOW_PRIVATE_NETWORK: 'true', WEBHOOK_RETRY_SCHEDULE: '0.05' } })
    receiver = await startReceiver()
    s = await setupIntegration(svc, { webhooksTo: receiver })
  })
  after(async () => {
    await receiver.close()
    await svc.close()
  })

  const admin = (method: string, path: string, body?: unknown) =>
    svc.request(method, path, { token: svc.adminToken, body })
  const vendor = (body: unknown) =>
    svc.request('PUT', '/api/vendor-api/webhook', { token: s.vendorToken, body })

  /** Every bad header in the body `make` builds is a 400 that changes no row. */
  async function refusesAll(
    label: string,
    send: (
      header: { name: string; value: string } | string,
    ) => Promise<{ status: number; body: any; text: string }>,
  ) {
    const cases: ({ name: string; value: string } | string)[] = [
      ...badValues.map((value) => ({ name: 'X-Vendor-Key', value })),
      ...badValues,
      ...badNames.map((name) => ({ name, value: 'secret-1' })),
      { name: 'Connection', value: 'close, webhook-signature' },
    ]
    for (const header of cases) {
      const before = await svc.snapshot()
      const res = await send(header)
      expectFailure(res as never, 400, 'VALIDATION_FAILED')
      assert.deepEqual(await svc.snapshot(), before, `${label} ${JSON.stringify(header)} changed rows`)
    }
  }

  test('PUT /api/vendor-api/webhook (authHeader)', async () => {
    await refusesAll('vendor', (authHeader) => vendor({ url: receiver.url, authHeader }))
    const res = await vendor({ url: receiver.url, authHeader: { name: 'X-Key', value: 'x\r\ny' } })
    assert.match(res.body.detail, /^authHeader: the header value/)
  })

  test('POST and PATCH /api/admin/vendors (webhookAuthHeader)', async () => {
    await refusesAll('admin create', (webhookAuthHeader) =>
      admin('POST', '/api/admin/vendors', { name: 'Header Co', productGroups: catalogue, webhookAuthHeader }),
    )
    await refusesAll('admin patch', (webhookAuthHeader) =>
      admin('PATCH', `/api/admin/vendors/${s.vendorId}`, { webhookAuthHeader }),
    )
    const res = await admin('PATCH', `/api/admin/vendors/${s.vendorId}`, {
      webhookAuthHeader: { name: 'Transfer-Encoding', value: 'chunked' },
    })
    assert.match(res.body.detail, /^webhookAuthHeader: 'transfer-encoding' is a hop-by-hop/)
  })

  test('PATCH /api/partner/integrations/{id} (vendorCredentials)', async () => {
    await refusesAll('partner', (h) =>
      s.partner('PATCH', `/api/partner/integrations/${s.integrationId}`, {
        vendorCredentials: typeof h === 'string' ? { value: h } : { header: h.name, value: h.value },
      }),
    )
    const accept = await s.partner('PATCH', `/api/partner/integrations/${s.integrationId}`, {
      vendorCredentials: { header: 'Accept', value: 'x' },
    })
    expectFailure(accept, 400, 'VALIDATION_FAILED')
    assert.match(accept.body.detail, /^vendorCredentials: 'accept' is set by the service itself/)
    const good = await s.partner('PATCH', `/api/partner/integrations/${s.integrationId}`, {
      vendorCredentials: { header: 'X-Catalogue_Key.v2', value: 'k1\tk2' },
    })
    assert.equal(good.status, 200, good.text)
  })

  test('a header that passes is sent with every attempt as given', async () => {
    const set = await vendor({
      url: receiver.url,
      authHeader: { name: 'X-Vendor_Key.v2~', value: 'a\tb "c"' },
    })
    assert.equal(set.status, 200, set.text)
    const sent = await svc.request('POST', '/api/vendor-api/webhook/test', { token: s.vendorToken })
    assert.equal(sent.status, 202, sent.text)
    const id = sent.body.deliveryId
    await receiver.waitFor(() => receiver.accepted().some((r) => r.id === id), 'the test event')
    const got = receiver.requests.find((r) => r.id === id)
    assert.equal(got?.headers['x-vendor_key.v2~'], 'a\tb "c"')
    assert.ok(!receiver.unverified.some((u) => u.startsWith(id)), 'its signature verifies')
  })
})
