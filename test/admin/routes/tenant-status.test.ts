// Disabling and enabling a vendor or a partner (docs/decisions/credentials/disabled-tenants.md), over HTTP
// on both databases: while disabled every credential of the tenant is refused in the contract's failure
// shape (access tokens issued before included, and no cache keeps it working), alerts are refused and store
// nothing, queued alerts are held and a disabled vendor's webhook deliveries wait — and enabling restores
// all of it.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { must } from '../../../src/platform/core/result.js'
import { type Hooked, hooked } from '../../support/hooked.js'
import type { Receiver } from '../../support/receiver.js'
import { backends, startService, type TestService } from '../../support/service.js'
import { expectFailure, expectSyncFailure, expectSyncSuccess } from '../../support/shapes.js'
import { hold, waitFor } from '../../support/wait.js'

const env = {
  ALLOW_PRIVATE_NETWORK: 'true',
  SNAPSHOT_COALESCE_MS: '0',
  WEBHOOK_RETRY_SCHEDULE: '0.05,0.05,0.05',
  // A PSA failing on purpose keeps an alert queued (retried every 0.2 s) until the test acts.
  PSA_RETRY_SCHEDULE: Array.from({ length: 40 }, () => '0.2').join(','),
}

for (const backend of backends('matrix')) {
  describe(`disabled tenants (${backend})`, () => {
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
    const make = async (o?: Parameters<typeof hooked>[1]) => {
      const h = await hooked(svc, o)
      receivers.push(h.receiver)
      return h
    }
    const token = (h: Hooked, orgToken?: string) =>
      svc.request('POST', '/api/oauth/token', {
        body: {
          grant_type: 'client_credentials',
          client_id: h.clientId,
          client_secret: h.clientSecret,
          ...(orgToken ? { organization_oem_token: orgToken } : {}),
        },
      })
    const accounts = (h: Hooked, accessToken = h.vendorToken) =>
      svc.request('GET', '/api/vendor-api/organization/accounts', { token: accessToken })
    const jobs = () =>
      svc.services.db.kysely.selectFrom('jobs').select(['id', 'kind', 'hold_key', 'attempts']).execute()
    /** The alert's own job held under `key`: the tenant's deliveries are held under the same key. */
    const heldAlert = (key: string) => (j: { kind: string; hold_key: string | null }) =>
      j.kind === 'alert' && j.hold_key === key
    test('a disabled vendor: its secret, its tokens and its alerts are refused and nothing is stored; enabling restores them', async () => {
      const h = await make()
      const issuedBefore = await token(h, h.orgToken)
      assert.equal(issuedBefore.status, 200)
      expectSyncSuccess(await h.sync(), { status: 201, message: 'created' })
      await svc.counts()

      const off = await admin('POST', `/api/admin/vendors/${h.vendorId}/disable`, {
        reason: 'unpaid invoices',
      })
      assert.equal(off.status, 200, off.text)
      assert.equal(off.body.disabled.reason, 'unpaid invoices')
      const before = await svc.counts()

      const refusedToken = await token(h)
      assert.equal(refusedToken.status, 401, refusedToken.text)
      assert.equal(refusedToken.body.error, 'invalid_client')
      assert.match(refusedToken.body.detail, /disabled .*unpaid invoices/)
      for (const t of [h.vendorToken, issuedBefore.body.access_token]) {
        const res = await accounts(h, t)
        expectFailure(res, 403, 'TENANT_DISABLED')
        assert.match(res.body.detail, /This vendor was disabled/)
      }
      expectSyncFailure(await h.sync({ alertType: 'Agent Offline' }), {
        status: 403,
        error: 'TENANT_DISABLED',
      })
      const queued: any = await h.post({ alertType: 'Agent Offline' })
      assert.equal(queued.status, 403, queued.text)
      assert.equal(queued.body.error, 'TENANT_DISABLED')
      assert.equal(typeof queued.body.data.messageId, 'string')
      assert.deepEqual(await svc.counts(), before, 'a refused alert stores nothing')
      // Its partner is not the one disabled.
      assert.equal((await h.partner('GET', '/api/partner/integrations')).status, 200)
      const shown = await admin('GET', `/api/admin/vendors/${h.vendorId}`)
      assert.equal(shown.body.disabled.reason, 'unpaid invoices')

      const on = await admin('POST', `/api/admin/vendors/${h.vendorId}/enable`)
      assert.equal(on.status, 200, on.text)
      assert.deepEqual(on.body, { id: h.vendorId, disabled: null })
      assert.equal((await token(h)).status, 200)
      assert.equal((await accounts(h, issuedBefore.body.access_token)).status, 200, 'its tokens work again')
      expectSyncSuccess(await h.sync({ alertType: 'Agent Offline' }), { status: 201, message: 'created' })
    })

    test('a disabled partner: its API key, alerts to it and vendor calls on its integration are refused', async () => {
      const h = await make()
      const snapshots = () => h.receiver.accepted('state_snapshot')
      await svc.counts() // the setup's snapshots are out
      const seen = snapshots().length
      const unbound = (await token(h)).body.access_token

      const off = await admin('POST', `/api/admin/partners/${h.partnerId}/disable`)
      assert.equal(off.status, 200, off.text)
      assert.equal(off.body.disabled.reason, null)
      const key = await h.partner('GET', '/api/partner/integrations')
      expectFailure(key, 403, 'TENANT_DISABLED')
      assert.match(key.body.detail, /This partner was disabled/)
      expectSyncFailure(await h.sync(), { status: 403, error: 'TENANT_DISABLED' })
      expectFailure(await accounts(h), 403, 'TENANT_DISABLED') // bound to its integration
      const named = await svc.request(
        'GET',
        `/api/vendor-api/organization/accounts?integrationId=${h.integrationId}`,
        {
          token: unbound,
        },
      )
      expectFailure(named, 403, 'TENANT_DISABLED')
      assert.equal((await token(h, h.orgToken)).status, 401, 'no token is bound to it')
      // The vendor learns the integration accepts nothing: its list and a state_snapshot say so.
      const list = await svc.request('GET', '/api/oem-api/integration/list', { token: unbound })
      assert.equal(list.status, 200, list.text)
      assert.equal(list.body.data[0].isIntegrationActive, false)
      await h.receiver.waitFor(() => snapshots().length > seen, 'the snapshot of the disabled partner')
      assert.equal(snapshots()[seen]!.body.payload.isIntegrationActive, false)
      assert.equal(snapshots()[seen]!.body.payload.integrationId, h.integrationId)

      assert.equal((await admin('POST', `/api/admin/partners/${h.partnerId}/enable`)).status, 200)
      assert.equal((await h.partner('GET', '/api/partner/integrations')).status, 200)
      expectSyncSuccess(await h.sync(), { status: 201, message: 'created' })
      assert.equal((await accounts(h)).status, 200)
      await h.receiver.waitFor(() => snapshots().length > seen + 1, 'the snapshot of the enabled partner')
      assert.equal(snapshots()[seen + 1]!.body.payload.isIntegrationActive, true)
    })

    test("a disabled vendor's queued alert is held, not failed, and goes on once the vendor is enabled", async () => {
      const h = await make()
      // Its PSA fails until the test clears the fault: the alert stays queued, retried every 0.2 s.
      await h.partner('PUT', '/api/partner/sandbox/fault', { mode: 'error', operations: ['create'] })
      const accepted: any = await h.post()
      assert.equal(accepted.status, 201, accepted.text)
      const { messageId } = accepted.body.data
      assert.equal((await admin('POST', `/api/admin/vendors/${h.vendorId}/disable`)).status, 200)
      // An attempt that began before the disable may still be at the PSA until the alert's job is held.
      const isHeld = heldAlert(`vendor:${h.vendorId}`)
      await waitFor(async () => (await jobs()).some(isHeld), { what: 'the alert job to be held' })
      const held = (await jobs()).find(isHeld)!
      await h.partner('DELETE', '/api/partner/sandbox/fault')
      // Time passing is the test: a disabled vendor's held job stays held however long it waits.
      await hold(500, 'a held job stays held however long it waits')
      const still = (await jobs()).find((j) => j.id === held.id)
      assert.ok(still, 'the held job is kept')
      assert.equal(still.attempts, held.attempts, 'holding spends no attempt')
      const events = await h.partner('GET', '/api/partner/events')
      assert.equal(
        events.body.data.filter((e: any) => e.messageId === messageId).length,
        0,
        'nothing was decided while the vendor was disabled',
      )

      assert.equal((await admin('POST', `/api/admin/vendors/${h.vendorId}/enable`)).status, 200)
      const update = await h.statusUpdate(messageId)
      assert.equal(update.payload.event, 'Ticket Created')
      assert.equal(h.receiver.unverified.length, 0)
      assert.equal((await jobs()).filter((j) => j.id === held.id).length, 0)
    })

    test("a disabled partner's queued alert waits too, and is processed once it is enabled", async () => {
      const h = await make()
      await h.partner('PUT', '/api/partner/sandbox/fault', {
        mode: 'error',
        operations: ['create'],
        count: 1,
      })
      const accepted: any = await h.post()
      assert.equal(accepted.status, 201, accepted.text)
      assert.equal((await admin('POST', `/api/admin/partners/${h.partnerId}/disable`)).status, 200)
      await waitFor(async () => (await jobs()).some(heldAlert(`partner:${h.partnerId}`)), {
        what: 'the alert job to be held',
      })
      assert.equal((await admin('POST', `/api/admin/partners/${h.partnerId}/enable`)).status, 200)
      const update = await h.statusUpdate(accepted.body.data.messageId)
      assert.equal(update.payload.event, 'Ticket Created')
    })

    test("a disabled vendor's webhook deliveries wait, are kept, and go out signed once it is enabled", async () => {
      const h = await make()
      const snapshots = () => h.receiver.accepted('state_snapshot')
      await svc.counts() // the setup's snapshots are out
      const seen = h.receiver.requests.length
      assert.equal((await admin('POST', `/api/admin/vendors/${h.vendorId}/disable`)).status, 200)
      // An operator change while the vendor is disabled queues a state_snapshot for it.
      const patched = await admin('PATCH', `/api/admin/integrations/${h.integrationId}`, {
        alertsEnabled: false,
      })
      assert.equal(patched.status, 200, patched.text)
      let pending: { id: string; status: string } | undefined
      await waitFor(
        async () => {
          const list = await admin('GET', `/api/admin/deliveries?vendorId=${h.vendorId}&status=pending`)
          pending = list.body.data.find((d: any) => d.eventType === 'state_snapshot')
          return pending !== undefined
        },
        { what: 'the delivery to be queued' },
      )
      // Time passing is the test: nothing reaches a disabled vendor, however long it waits.
      await hold(600, 'a period in which nothing may reach the disabled vendor')
      assert.equal(h.receiver.requests.length, seen, 'nothing is sent to a disabled vendor')
      const kept = await admin('GET', `/api/admin/deliveries/${pending!.id}`)
      assert.equal(kept.body.status, 'pending')
      assert.equal(kept.body.attempts, 0)

      assert.equal((await admin('POST', `/api/admin/vendors/${h.vendorId}/enable`)).status, 200)
      await h.receiver.waitFor(
        () => h.receiver.requests.some((r) => r.id === pending!.id),
        'the waiting delivery',
      )
      assert.equal(h.receiver.unverified.length, 0, 'signed with the secret it has')
      await waitFor(
        async () => {
          const d = await admin('GET', `/api/admin/deliveries/${pending!.id}`)
          return d.body.status === 'delivered'
        },
        { what: 'the delivery to be recorded as delivered' },
      )
      assert.equal(snapshots().at(-1)!.body.payload.isAlertsEnabled, false)
    })

    test('no cache keeps a tenant working: a change made elsewhere is seen by the very next alert', async () => {
      const h = await make()
      // Warm the alert path's one-second cache, then change things through the services, not the
      // routes. On PostgreSQL the tenant state is read fresh for every alert (another process may have
      // changed it); on SQLite this process is the only writer, and its services clear the copies.
      // An accepted alert is a new ticket or an update of the open one (de-duplication); either will do.
      const works = (res: { status: number; text: string }) => assert.ok(res.status < 300, res.text)
      works(await h.sync())
      works(await h.post())
      must(await svc.services.tenants.tenantStatus.disable('vendor', h.vendorId, null))
      expectSyncFailure(await h.sync(), { status: 403, error: 'TENANT_DISABLED' })
      assert.equal((await h.post()).status, 403)
      must(await svc.services.tenants.tenantStatus.enable('vendor', h.vendorId))
      works(await h.sync())

      must(await svc.services.tenants.tenantStatus.disable('partner', h.partnerId, null))
      expectSyncFailure(await h.sync(), { status: 403, error: 'TENANT_DISABLED' })
      must(await svc.services.tenants.tenantStatus.enable('partner', h.partnerId))

      // A secret cut off elsewhere (overlap 0) is refused at once, though the cache still holds the vendor.
      works(await h.sync())
      must(await svc.services.tenants.credentials.rotate('clientSecret', h.vendorId, 0))
      expectSyncFailure(await h.sync(), { status: 401, error: 'INVALID_CREDENTIALS' })
    })

    test('disable and enable: unknown tenants are 404, bad input 400, and nothing changes', async () => {
      const h = await make()
      const before = await svc.counts()
      expectFailure(await admin('POST', '/api/admin/vendors/nope/disable'), 404, 'NOT_FOUND')
      expectFailure(await admin('POST', '/api/admin/partners/nope/enable'), 404, 'NOT_FOUND')
      expectFailure(
        await admin('POST', `/api/admin/vendors/${h.vendorId}/disable`, { reason: 'x'.repeat(501) }),
        400,
        'VALIDATION_FAILED',
      )
      expectFailure(
        await admin('POST', `/api/admin/partners/${h.partnerId}/disable`, { why: 'no' }),
        400,
        'VALIDATION_FAILED',
      )
      expectFailure(
        await svc.request('POST', `/api/admin/vendors/${h.vendorId}/disable`, { token: h.partnerKey }),
        401,
        'INVALID_CREDENTIALS',
      )
      assert.deepEqual(await svc.counts(), before)
      assert.equal((await admin('GET', `/api/admin/vendors/${h.vendorId}`)).body.disabled, null)
      // Disabling twice keeps the first time and reason.
      const first = await admin('POST', `/api/admin/vendors/${h.vendorId}/disable`, { reason: 'first' })
      const second = await admin('POST', `/api/admin/vendors/${h.vendorId}/disable`, { reason: 'second' })
      assert.deepEqual(second.body.disabled, first.body.disabled)
      assert.equal((await admin('POST', `/api/admin/vendors/${h.vendorId}/enable`)).status, 200)
    })
  })
}
