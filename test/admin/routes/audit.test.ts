// The operator audit log (docs/decisions/credentials/operator-audit-log.md), over HTTP on both databases:
// every operator write lands in it with who (a stable name of the admin credential, never the credential),
// what, which target, when and a summary without any secret; GET /api/admin/audit pages and filters it;
// reads and refused writes leave no row; and an action whose audit row cannot be written does not happen.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { sql } from 'kysely'
import { digest, operatorIdOf } from '../../../src/platform/security/secrets.js'
import { type Hooked, hooked } from '../../support/hooked.js'
import type { Receiver } from '../../support/receiver.js'
import { backends, startService, type TestService } from '../../support/service.js'
import { expectFailure } from '../../support/shapes.js'
import { waitFor } from '../../support/wait.js'

const env = { ALLOW_PRIVATE_NETWORK: 'true', SNAPSHOT_COALESCE_MS: '0', WEBHOOK_RETRY_SCHEDULE: '0.05' }

for (const backend of backends('databases')) {
  describe(`operator audit log (${backend})`, () => {
    let svc: TestService
    const receivers: Receiver[] = []
    before(async () => {
      svc = await startService({ backend, env })
    })
    after(async () => {
      await svc.close()
      for (const r of receivers) await r.close()
    })
    const admin = (method: string, path: string, body?: unknown) =>
      svc.request(method, path, { token: svc.adminToken, body })
    const ok = async (method: string, path: string, body?: unknown) => {
      const res = await admin(method, path, body)
      assert.ok(res.status < 300, `${method} ${path}: ${res.text}`)
      return res
    }
    /** Every entry of a query, through every page. */
    const everything = async (query = '', limit = 200) => {
      const out: any[] = []
      let cursor: string | null = null
      do {
        const sep = query ? '&' : ''
        const res = await admin(
          'GET',
          `/api/admin/audit?${query}${sep}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`,
        )
        assert.equal(res.status, 200, res.text)
        out.push(...res.body.data)
        cursor = res.body.nextCursor
      } while (cursor)
      return out
    }

    test('every operator write is recorded once, by a stable non-secret operator id, without secrets', async () => {
      const secrets: string[] = [svc.adminToken]
      const h: Hooked = await hooked(svc, { vendorFields: { webhookAuthHeader: 'Bearer hook-credential-1' } })
      receivers.push(h.receiver)
      secrets.push(h.clientSecret, h.webhookSecret, h.partnerKey, h.orgToken, 'hook-credential-1')
      const v = h.vendorId

      await ok('PATCH', `/api/admin/vendors/${v}`, {
        name: 'Renamed Vendor',
        webhookUrl: `${h.receiver.url}?token=url-credential-2`,
        webhookAuthHeader: { name: 'X-Key', value: 'hook-credential-3' },
        rateLimitPerMinute: 100,
      })
      secrets.push('url-credential-2', 'hook-credential-3')
      const partner = await ok('POST', '/api/admin/partners', {
        name: 'Audited MSP',
        psa: { kind: 'sandbox', defaults: { board: 'Ops' } },
      })
      secrets.push(partner.body.apiKey)
      await ok('PATCH', `/api/admin/partners/${partner.body.id}`, { name: 'Audited MSP 2' })
      const integration = await ok('POST', '/api/admin/integrations', {
        vendorId: v,
        partnerId: partner.body.id,
      })
      secrets.push(integration.body.organizationOemToken)
      await ok('PATCH', `/api/admin/integrations/${h.integrationId}`, { alertsEnabled: false })
      const tokens = await ok('GET', `/api/admin/vendors/${v}/tokens`)
      await ok('POST', `/api/admin/vendors/${v}/tokens/${tokens.body.data[0].id}/revoke`)
      await ok('POST', `/api/admin/vendors/${v}/tokens/revoke`)
      for (const [path, field] of [
        [`/api/admin/vendors/${v}/client-secret`, 'clientSecret'],
        [`/api/admin/vendors/${v}/webhook-secret`, 'webhookSecret'],
        [`/api/admin/integrations/${h.integrationId}/organization-oem-token`, 'organizationOemToken'],
        [`/api/admin/partners/${h.partnerId}/api-key`, 'apiKey'],
      ] as const) {
        secrets.push((await ok('POST', `${path}/rotate`, { overlapSeconds: 60 })).body[field])
        await ok('POST', `${path}/end-overlap`)
      }
      for (const kind of ['vendors', 'partners']) {
        const id = kind === 'vendors' ? v : h.partnerId
        await ok('POST', `/api/admin/${kind}/${id}/disable`, { reason: 'audit test' })
        await ok('POST', `/api/admin/${kind}/${id}/enable`)
      }
      // A delivery that died (its endpoint answers 500), replayed one by one and all since a time.
      h.receiver.respond(() => 500)
      await ok('PATCH', `/api/admin/integrations/${h.integrationId}`, { alertsEnabled: true })
      // Up to 15 s: with Redis a scheduled job waits for the relay's next look (≤ 1 s) before it runs.
      const dead: any = await waitFor(
        async () => (await admin('GET', `/api/admin/deliveries?vendorId=${v}&status=dead`)).body.data[0],
        { what: 'a dead delivery' },
      )
      await ok('POST', `/api/admin/deliveries/${dead.id}/replay`)
      await ok('POST', '/api/admin/deliveries/replay', { since: '2000-01-01T00:00:00Z', vendorId: v })
      await ok('POST', '/api/admin/deliveries/replay', { since: '2000-01-01T00:00:00Z' })

      // Reads and refused writes leave no row.
      const count = (await everything()).length
      await ok('GET', `/api/admin/vendors/${v}`)
      await ok('GET', '/api/admin/audit')
      expectFailure(await admin('PATCH', `/api/admin/vendors/${v}`, { name: '' }), 400, 'VALIDATION_FAILED')
      expectFailure(await admin('POST', '/api/admin/partners/nope/disable'), 404, 'NOT_FOUND')
      assert.equal((await everything()).length, count)

      const mine = (await everything()).filter(
        (e) =>
          e.targetId === v ||
          e.targetId === h.partnerId ||
          e.targetId === h.integrationId ||
          e.targetId === partner.body.id ||
          e.targetType === 'delivery' ||
          e.targetId === integration.body.integrationId,
      )
      const actions = mine.map((e) => e.action).reverse()
      assert.deepEqual(actions, [
        // hooked(): the vendor, its partner, their integration, the integration's setup (the vendor's
        // and partner's own calls are not operator actions)
        'vendor.create',
        'partner.create',
        'integration.create',
        'vendor.update',
        'partner.create',
        'partner.update',
        'integration.create',
        'integration.update',
        'vendor.token.revoke',
        'vendor.tokens.revoke_all',
        'vendor.client_secret.rotate',
        'vendor.client_secret.end_overlap',
        'vendor.webhook_secret.rotate',
        'vendor.webhook_secret.end_overlap',
        'integration.org_token.rotate',
        'integration.org_token.end_overlap',
        'partner.api_key.rotate',
        'partner.api_key.end_overlap',
        'vendor.disable',
        'vendor.enable',
        'partner.disable',
        'partner.enable',
        'integration.update',
        'delivery.replay',
        'deliveries.replay_dead',
        'deliveries.replay_dead',
      ])
      const operator = operatorIdOf(digest(svc.adminToken))
      assert.match(operator, /^op_[0-9a-f]{16}$/)
      for (const e of mine) {
        assert.deepEqual(Object.keys(e.actor).sort(), ['id', 'kind', 'requestId'])
        assert.equal(e.actor.kind, 'operator')
        assert.equal(e.actor.id, operator)
        assert.equal(typeof e.actor.requestId, 'string')
        assert.ok(!Number.isNaN(Date.parse(e.at)))
      }
      const text = JSON.stringify(await everything())
      for (const secret of secrets)
        assert.equal(text.includes(secret), false, `a secret leaked: ${secret.slice(0, 6)}…`)

      const update = mine.find((e) => e.action === 'vendor.update')
      assert.deepEqual(update.summary, {
        fields: ['name', 'rateLimitPerMinute', 'webhookAuthHeader', 'webhookUrl'],
        name: 'Renamed Vendor',
        webhookUrl: new URL(h.receiver.url).origin,
        rateLimitPerMinute: 100,
      })
      const rotation = mine.find((e) => e.action === 'partner.api_key.rotate')
      assert.equal(rotation.targetType, 'partner')
      assert.equal(rotation.summary.overlapSeconds, 60)
      const disabled = mine.find((e) => e.action === 'vendor.disable')
      assert.equal(disabled.summary.reason, 'audit test')
      const all = mine.filter((e) => e.action === 'deliveries.replay_dead')
      assert.deepEqual(all.map((e) => [e.targetType, e.targetId]).sort(), [
        ['delivery', '*'],
        ['vendor', v],
      ])
    })

    test("a vendor's and a partner's own rotations are recorded with who made them", async () => {
      const h = await hooked(svc)
      receivers.push(h.receiver)
      const rotated = await svc.request('POST', '/api/vendor-api/credentials/client-secret/rotate', {
        token: h.vendorToken,
        body: { clientSecret: h.clientSecret },
      })
      assert.equal(rotated.status, 200, rotated.text)
      const own = await svc.request('POST', '/api/partner/api-key/rotate', { token: h.partnerKey })
      assert.equal(own.status, 200, own.text)
      const vendorRows = await everything(`targetId=${h.vendorId}&action=vendor.client_secret.rotate`)
      assert.equal(vendorRows.length, 1)
      assert.equal(vendorRows[0].actor.kind, 'vendor')
      assert.match(vendorRows[0].actor.id, /^token:/)
      const partnerRows = await everything(
        `targetType=partner&targetId=${h.partnerId}&action=partner.api_key.rotate`,
      )
      assert.deepEqual(partnerRows[0].actor.kind, 'partner')
      assert.equal(partnerRows[0].actor.id, `partner:${h.partnerId}`)
      assert.equal(JSON.stringify(partnerRows).includes(own.body.apiKey), false)
    })

    test('filters and paging: newest first, every entry exactly once, bad filters are 400', async () => {
      const all = await everything()
      const paged = await everything('', 3)
      assert.deepEqual(
        paged.map((e) => e.id),
        all.map((e) => e.id),
      )
      assert.deepEqual(
        all.map((e) => e.id),
        [...all.map((e) => e.id)].sort().reverse(),
        'newest first',
      )
      const operator = operatorIdOf(digest(svc.adminToken))
      assert.ok((await everything(`actor=${operator}`)).every((e) => e.actor.id === operator))
      const creates = await everything('action=vendor.create')
      assert.ok(creates.length >= 2 && creates.every((e) => e.action === 'vendor.create'))
      const vendors = await everything('targetType=vendor')
      assert.ok(vendors.every((e) => e.targetType === 'vendor'))
      const oldest = all.at(-1)!
      const sinceOldest = await everything(`since=${encodeURIComponent(oldest.at)}`)
      assert.equal(sinceOldest.length, all.length)
      assert.equal((await everything(`until=${encodeURIComponent(oldest.at)}`)).length, 0)
      assert.deepEqual(await everything('targetId=nothing-has-this-id'), [])

      for (const query of [
        'action=vendor.explode',
        'targetType=tenant',
        'since=yesterday',
        'since=2016-12-31T23:59:60Z',
        'since=2026-01-02T00:00:00Z&until=2026-01-01T00:00:00Z',
        'limit=0',
        'limit=201',
        'cursor=not-a-cursor',
      ]) {
        expectFailure(await admin('GET', `/api/admin/audit?${query}`), 400, 'VALIDATION_FAILED')
      }
      expectFailure(await svc.request('GET', '/api/admin/audit'), 401, 'UNAUTHENTICATED')
    })

    test('an action whose audit row cannot be written does not happen', async () => {
      const h = await hooked(svc)
      receivers.push(h.receiver)
      // The audit table is gone (a fault in the audit write): every audited action must fail whole.
      await sql`drop table operator_audit`.execute(svc.services.db.kysely)
      const renamed = await admin('PATCH', `/api/admin/vendors/${h.vendorId}`, { name: 'Never Renamed' })
      expectFailure(renamed, 500, 'INTERNAL')
      assert.equal((await admin('GET', `/api/admin/vendors/${h.vendorId}`)).body.name, 'Hooked Vendor')
      const rotated = await admin('POST', `/api/admin/vendors/${h.vendorId}/client-secret/rotate`, {
        overlapSeconds: 0,
      })
      expectFailure(rotated, 500, 'INTERNAL')
      const stillWorks = await svc.request('POST', '/api/oauth/token', {
        body: { grant_type: 'client_credentials', client_id: h.clientId, client_secret: h.clientSecret },
      })
      assert.equal(stillWorks.status, 200, 'the secret was not rotated')
      expectFailure(await admin('POST', `/api/admin/partners/${h.partnerId}/disable`), 500, 'INTERNAL')
      assert.equal((await h.partner('GET', '/api/partner/integrations')).status, 200, 'not disabled')
      expectFailure(await admin('POST', '/api/admin/vendors', { name: 'Never Created' }), 500, 'INTERNAL')
      const names = (await admin('GET', '/api/admin/vendors')).body.data.map((x: any) => x.name)
      assert.equal(names.includes('Never Created'), false)
    })
  })
}
