// The vendor API around the setup calls (docs/vendor-api.md#setup-calls): several tokens per vendor and the
// operator revoking them; accounts one or many per call, idempotent per vendorAccountId; the GET
// counterparts of the setup calls; GET /api/oem-api/integration/list.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { issueToken, type Setup, setupIntegration } from '../../support/fixtures.js'
import { backends, manualClock, startService, type TestService } from '../../support/service.js'
import { expectFailure } from '../../support/shapes.js'

for (const backend of backends('databases')) {
  describe(`vendor API lifecycle (${backend})`, () => {
    let svc: TestService
    const clock = manualClock()
    before(async () => {
      svc = await startService({ backend, clock })
    })
    after(() => svc.close())

    const admin = (method: string, path: string, body?: unknown) =>
      svc.request(method, path, { token: svc.adminToken, body })

    const tokenFor = (s: Setup, orgToken?: string) => issueToken(svc, s, orgToken)

    test('a vendor holds several tokens; the operator lists them and revokes one or all', async () => {
      const s = await setupIntegration(svc)
      const first = await tokenFor(s)
      const second = await tokenFor(s, s.orgToken)
      const works = (t: string) =>
        svc.request('GET', `/api/vendor-api/status/mapping?integrationId=${s.integrationId}`, { token: t })
      assert.equal((await works(first)).status, 200)
      assert.equal((await works(second)).status, 200)
      assert.equal((await works(s.vendorToken)).status, 200)

      const list = await admin('GET', `/api/admin/vendors/${s.vendorId}/tokens`)
      assert.equal(list.status, 200, list.text)
      assert.equal(list.body.data.length, 3)
      assert.deepEqual(
        list.body.data.map((t: any) => t.state),
        ['active', 'active', 'active'],
      )
      const newest = list.body.data[0]
      assert.equal(newest.integrationId, s.integrationId, 'newest first: the bound token')
      assert.equal(list.body.data[1].integrationId, null)
      assert.deepEqual(Object.keys(newest).sort(), [
        'createdAt',
        'expiresAt',
        'id',
        'integrationId',
        'revokedAt',
        'state',
      ])
      assert.ok(!list.text.includes(first) && !list.text.includes(second), 'token values are never shown')

      const paged = await admin('GET', `/api/admin/vendors/${s.vendorId}/tokens?limit=2`)
      assert.equal(paged.body.data.length, 2)
      const rest = await admin(
        'GET',
        `/api/admin/vendors/${s.vendorId}/tokens?limit=2&cursor=${paged.body.nextCursor}`,
      )
      assert.equal(rest.body.data.length, 1)
      assert.equal(rest.body.nextCursor, null)

      // Revoke the bound one: it stops at once with a clear error; the others keep working.
      const revoked = await admin('POST', `/api/admin/vendors/${s.vendorId}/tokens/${newest.id}/revoke`)
      assert.equal(revoked.status, 200, revoked.text)
      assert.equal(revoked.body.state, 'revoked')
      const refused = await works(second)
      expectFailure(refused, 401, 'INVALID_CREDENTIALS')
      assert.match(refused.body.detail, /revoked/)
      assert.equal((await works(first)).status, 200)
      const again = await admin('POST', `/api/admin/vendors/${s.vendorId}/tokens/${newest.id}/revoke`)
      assert.equal(again.body.revokedAt, revoked.body.revokedAt, 'revoking twice keeps the first time')

      const active = await admin('GET', `/api/admin/vendors/${s.vendorId}/tokens?active=true`)
      assert.equal(active.body.data.length, 2)

      const all = await admin('POST', `/api/admin/vendors/${s.vendorId}/tokens/revoke`)
      assert.deepEqual(all.body, { revoked: 2 })
      expectFailure(await works(first), 401, 'INVALID_CREDENTIALS')
      expectFailure(await works(s.vendorToken), 401, 'INVALID_CREDENTIALS')
      // A new token works again: revocation is not a ban.
      assert.equal((await works(await tokenFor(s))).status, 200)
    })

    test('expired tokens show as expired; unknown vendors and tokens are 404; the admin token is needed', async () => {
      const s = await setupIntegration(svc)
      const t = await tokenFor(s)
      clock.advance(3601 * 1000)
      const list = await admin('GET', `/api/admin/vendors/${s.vendorId}/tokens`)
      assert.ok(list.body.data.every((x: any) => x.state === 'expired'))
      const expired = await svc.request(
        'GET',
        `/api/vendor-api/organization/accounts?integrationId=${s.integrationId}`,
        {
          token: t,
        },
      )
      expectFailure(expired, 401, 'TOKEN_EXPIRED')
      assert.match(expired.body.detail, /expired at/)
      assert.deepEqual(
        (await admin('GET', `/api/admin/vendors/${s.vendorId}/tokens?active=true`)).body.data,
        [],
      )

      expectFailure(await admin('GET', '/api/admin/vendors/nope/tokens'), 404, 'NOT_FOUND')
      expectFailure(
        await admin('POST', `/api/admin/vendors/${s.vendorId}/tokens/nope/revoke`),
        404,
        'NOT_FOUND',
      )
      const other = await setupIntegration(svc, { vendorName: 'Other' })
      const otherTokens = await admin('GET', `/api/admin/vendors/${other.vendorId}/tokens`)
      expectFailure(
        await admin('POST', `/api/admin/vendors/${s.vendorId}/tokens/${otherTokens.body.data[0].id}/revoke`),
        404,
        'NOT_FOUND',
      )
      expectFailure(
        await admin('GET', `/api/admin/vendors/${s.vendorId}/tokens?cursor=zzz`),
        400,
        'VALIDATION_FAILED',
      )
      expectFailure(
        await svc.request('POST', `/api/admin/vendors/${s.vendorId}/tokens/revoke`, { token: s.partnerKey }),
        401,
        'INVALID_CREDENTIALS',
      )
    })

    test('accounts many per call: all or nothing, idempotent per vendorAccountId', async () => {
      const s = await setupIntegration(svc, { accounts: ['acme-001'] })
      const v = (method: string, path: string, body?: unknown) =>
        svc.request(method, path, { token: s.vendorToken, body })
      const batch = [
        { vendorAccountId: 'b-1', name: 'One', externalId: 'E1' },
        { vendorAccountId: 'b-2', name: 'Two' },
        { vendorAccountId: 'acme-001', name: 'Acme renamed' },
      ]
      const res = await v('POST', '/api/vendor-api/organization/accounts', batch)
      assert.equal(res.status, 200, res.text)
      assert.equal(res.body.created, 2)
      assert.equal(res.body.updated, 1)
      assert.deepEqual(
        res.body.data.map((a: any) => [a.vendorAccountId, a.name, a.externalId]),
        [
          ['b-1', 'One', 'E1'],
          ['b-2', 'Two', ''],
          ['acme-001', 'Acme renamed', ''],
        ],
      )
      // The vendor's retry of the same call creates nothing.
      const retry = await v('POST', '/api/vendor-api/organization/accounts', batch)
      assert.deepEqual([retry.body.created, retry.body.updated], [0, 3])
      const list = await v('GET', '/api/vendor-api/organization/accounts')
      assert.equal(list.status, 200, list.text)
      assert.deepEqual(
        list.body.data.map((a: any) => a.vendorAccountId),
        ['acme-001', 'b-1', 'b-2'],
      )

      // Refused calls write nothing, not even their valid items.
      const before = await svc.counts()
      const twice = await v('POST', '/api/vendor-api/organization/accounts', [
        { vendorAccountId: 'n-1', name: 'New' },
        { vendorAccountId: 'n-1', name: 'New again' },
      ])
      expectFailure(twice, 400, 'VALIDATION_FAILED')
      assert.match(twice.body.detail, /'n-1' appears more than once/)
      expectFailure(
        await v('POST', '/api/vendor-api/organization/accounts', [
          { vendorAccountId: 'n-2', name: 'Ok' },
          { name: 'no id' },
        ]),
        400,
        'VALIDATION_FAILED',
      )
      expectFailure(await v('POST', '/api/vendor-api/organization/accounts', []), 400, 'VALIDATION_FAILED')
      const tooMany = Array.from({ length: 501 }, (_, i) => ({ vendorAccountId: `m-${i}`, name: 'M' }))
      expectFailure(
        await v('POST', '/api/vendor-api/organization/accounts', tooMany),
        400,
        'VALIDATION_FAILED',
      )
      assert.deepEqual(await svc.counts(), before)

      // One account in a call still answers with the account itself.
      const one = await v('POST', '/api/vendor-api/organization/accounts', {
        vendorAccountId: 'solo',
        name: 'Solo',
      })
      assert.equal(one.status, 201)
      assert.equal(one.body.vendorAccountId, 'solo')
    })

    test('GET counterparts: services and the integration state', async () => {
      const s = await setupIntegration(svc, { stopAt: 'mapping' })
      const v = (method: string, path: string, body?: unknown) =>
        svc.request(method, path, { token: s.vendorToken, body })
      await v('POST', '/api/vendor-api/organization/services', { id: 'edr', name: 'EDR', description: 'd' })
      await v('POST', '/api/vendor-api/organization/services', { id: 'backup', name: 'Backup' })
      const services = await v('GET', '/api/vendor-api/organization/services')
      assert.deepEqual(
        services.body.data.map((x: any) => [x.id, x.name, x.description]),
        [
          ['backup', 'Backup', ''],
          ['edr', 'EDR', 'd'],
        ],
      )
      assert.deepEqual((await v('GET', '/api/vendor-api/status/mapping')).body, {
        integrationId: s.integrationId,
        state: 'mapping',
      })
      await s.partner('POST', `/api/partner/integrations/${s.integrationId}/complete-mapping`)
      assert.equal((await v('GET', '/api/vendor-api/status/mapping')).body.state, 'pending')
    })

    test('odd input: groups named like Object members are groups; a leap-second filter is a 400', async () => {
      const s = await setupIntegration(svc, { vendorName: 'Odd' })
      const put = await svc.request('PUT', '/api/vendor-api/product-groups', {
        token: s.vendorToken,
        body: {
          productGroups: [
            { productGroup: 'constructor', alertTypes: ['a'] },
            { productGroup: 'toString', alertTypes: 'b,c' },
            { productGroup: '__proto__', alertTypes: ['d'] },
          ],
        },
      })
      assert.equal(put.status, 200, put.text)
      // JSON.parse makes `__proto__` an own key, as the service's JSON does.
      assert.deepEqual(
        JSON.parse(put.text).productGroups,
        JSON.parse('{"constructor":["a"],"toString":["b","c"],"__proto__":["d"]}'),
      )
      const before = await svc.counts()
      const leap = await svc.request(
        'GET',
        `/api/vendor-api/service/any/count?since=${encodeURIComponent('2016-12-31T23:59:60Z')}`,
        { token: s.vendorToken },
      )
      expectFailure(leap, 400, 'VALIDATION_FAILED')
      const history = await svc.request(
        'GET',
        `/api/partner/integrations/${s.integrationId}/usage/history?until=${encodeURIComponent('2016-12-31T23:59:60Z')}`,
        { token: s.partnerKey },
      )
      expectFailure(history, 400, 'VALIDATION_FAILED')
      assert.deepEqual(await svc.counts(), before)
    })

    test('integration list: a bound token sees its integration, an unbound one all of its vendor’s', async () => {
      const a = await setupIntegration(svc, {
        vendorName: 'Lister',
        accounts: ['acme-001', 'other'],
        mapped: ['acme-001'],
      })
      const b = await setupIntegration(svc, {
        vendor: { id: a.vendorId, clientId: a.clientId, clientSecret: a.clientSecret },
        partnerName: 'Second MSP',
        stopAt: 'mapping',
      })
      const unrelated = await setupIntegration(svc, { vendorName: 'Someone else' })

      const bound = await svc.request('GET', '/api/oem-api/integration/list', { token: a.vendorToken })
      assert.equal(bound.status, 200, bound.text)
      assert.equal(bound.body.data.length, 1)
      const entry = bound.body.data[0]
      assert.deepEqual(
        { ...entry, createdAt: undefined, updatedAt: undefined },
        {
          integrationId: a.integrationId,
          vendorUserId: a.partnerId,
          partnerName: 'Best MSP',
          state: 'pending',
          isIntegrationActive: true,
          isAlertsEnabled: true,
          productGroups: {
            'Endpoint Security': ['Malware Detected', 'Ransomware Behaviour', 'Agent Offline'],
            Backup: ['Backup Failed', 'Backup Warning'],
          },
          accounts: [
            {
              vendorAccountId: 'acme-001',
              name: 'Company acme-001',
              psaCompanyId: '100',
            },
          ],
          createdAt: undefined,
          updatedAt: undefined,
        },
      )

      await a.partner('PATCH', `/api/partner/integrations/${a.integrationId}`, { alertsEnabled: false })
      const after = await svc.request('GET', '/api/oem-api/integration/list', { token: a.vendorToken })
      assert.equal(after.body.data[0].isAlertsEnabled, false)

      const unboundToken = await tokenFor(a)
      const all = await svc.request('GET', '/api/oem-api/integration/list', { token: unboundToken })
      assert.deepEqual(
        all.body.data.map((i: any) => [i.integrationId, i.state, i.isIntegrationActive]).sort(),
        [
          [a.integrationId, 'pending', true],
          [b.integrationId, 'mapping', false],
        ].sort(),
      )
      const filtered = await svc.request(
        'GET',
        `/api/oem-api/integration/list?integrationId=${b.integrationId}`,
        {
          token: unboundToken,
        },
      )
      assert.deepEqual(
        filtered.body.data.map((i: any) => i.integrationId),
        [b.integrationId],
      )
      expectFailure(
        await svc.request('GET', `/api/oem-api/integration/list?integrationId=${unrelated.integrationId}`, {
          token: unboundToken,
        }),
        404,
        'INTEGRATION_NOT_FOUND',
      )
      expectFailure(
        await svc.request('GET', `/api/oem-api/integration/list?integrationId=${b.integrationId}`, {
          token: a.vendorToken,
        }),
        403,
        'FORBIDDEN',
      )
      expectFailure(await svc.request('GET', '/api/oem-api/integration/list'), 401, 'UNAUTHENTICATED')
    })
  })
}
