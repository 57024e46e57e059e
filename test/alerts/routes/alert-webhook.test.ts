// The webhook strategy end to end (docs/decision-table.md, docs/webhooks.md): the immediate answer of every
// row, exact shapes; one signed status_update per accepted alert at a local receiver that verifies each
// signature with the `standardwebhooks` verifier; retries with a stable webhook-id, 410, dead deliveries
// and replay; PSA failures retried inside the job; state snapshots; the per-endpoint concurrency limit.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { catalogue, setupIntegration } from '../../support/fixtures.js'
import { type Hooked, hooked } from '../../support/hooked.js'
import { type Receiver, startReceiver } from '../../support/receiver.js'
import { backends, startService, type TestService } from '../../support/service.js'
import { hold, waitFor } from '../../support/wait.js'

const env = {
  ALLOW_PRIVATE_NETWORK: 'true',
  WEBHOOK_RETRY_SCHEDULE: '0.05,0.05,0.05',
  PSA_RETRY_SCHEDULE: '0.05,0.05',
  SNAPSHOT_COALESCE_MS: '400',
}

function expectAnswer(
  res: { status: number; body: any; text: string },
  status: number,
  message: string,
  error?: string,
): { messageId: string; correlationId: string | null } {
  assert.equal(res.status, status, res.text)
  assert.equal(res.body.message, message, res.text)
  assert.deepEqual(Object.keys(res.body.data).sort(), ['correlationId', 'messageId'])
  assert.equal(typeof res.body.data.messageId, 'string')
  if (error) {
    assert.equal(res.body.error, error, res.text)
    assert.equal(typeof res.body.detail, 'string')
    assert.equal(res.body.statusCode, undefined, 'a 200 failed answer carries no statusCode')
  } else {
    // docs/contract.md#webhook-answers: message and data, no statusCode.
    assert.deepEqual(Object.keys(res.body).sort(), ['data', 'message'])
  }
  return res.body.data
}

function expectEvent(update: any, event: string, status: string, messageId: string): void {
  assert.equal(update.module, 'alerts')
  assert.equal(update.eventType, 'status_update')
  assert.equal(update.payload.event, event)
  assert.equal(update.payload.payload.status, status)
  assert.equal(update.payload.messageId, messageId)
  assert.equal(update.payload.messageID, messageId)
  assert.equal(typeof update.payload.payload.message, 'string')
  assert.equal(typeof update.payload.integrationId, 'string')
  assert.equal(typeof update.payload.vendorOrganizationId, 'string')
  assert.equal(typeof update.payload.vendorUserOrganizationId, 'string')
}

for (const backend of backends('matrix')) {
  describe(`webhook strategy (${backend})`, () => {
    let svc: TestService
    const receivers: Receiver[] = []
    before(async () => {
      svc = await startService({ backend, env })
    })
    after(async () => {
      await svc.close()
      for (const r of receivers) await r.close()
    })
    const make = async (o?: Parameters<typeof hooked>[1]) => {
      const h = await hooked(svc, o)
      receivers.push(h.receiver)
      return h
    }

    test('every immediate answer of the decision table, and one signed status_update per accepted alert', async () => {
      const s = await make({ accounts: ['acme-001', 'globex-002'], mapped: ['acme-001'] })
      const steps: {
        what: string
        send: () => ReturnType<Hooked['post']>
        status: number
        message: string
        error?: string
        event: [string, string]
      }[] = []
      const sent: string[] = []
      let lastSequence = 0
      const run = async (
        what: string,
        send: () => ReturnType<Hooked['post']>,
        status: number,
        message: string,
        event: [string, string],
        error?: string,
      ) => {
        steps.push({ what, send, status, message, event, error })
        const data = expectAnswer(await send(), status, message, error)
        sent.push(data.messageId)
        const update = await s.statusUpdate(data.messageId)
        expectEvent(update, event[0], event[1], data.messageId)
        // docs/webhooks.md#event-types: the failure's code, the time, a growing sequence number.
        assert.equal(update.payload.error, event[1] === 'failed' ? error : null, what)
        assert.equal(update.payload.test, false)
        assert.ok(!Number.isNaN(Date.parse(update.payload.occurredAt)), what)
        assert.ok(update.payload.sequence > lastSequence, `${what}: sequence ${update.payload.sequence}`)
        lastSequence = update.payload.sequence
        return { ...data, update }
      }

      // Row 11, then 9 (dedup), 14, 18, 17, 15, 10.
      const created = await run('row 11', () => s.post(), 201, 'created', ['Ticket Created', 'success'])
      assert.ok(created.correlationId)
      assert.equal(created.update.payload.correlationId, created.correlationId)
      const cid = created.correlationId!
      const again = await run('row 9', () => s.post(), 200, 'updated', ['Ticket Updated', 'success'])
      assert.equal(again.correlationId, cid)
      await run(
        'row 14',
        () => s.post({ incidentStatus: 'UPDATE' }, { correlationId: cid }),
        200,
        'updated',
        ['Ticket Updated', 'success'],
      )
      await run(
        'row 18',
        () => s.post({ incidentStatus: 'RESOLVED' }, { correlationID: cid }),
        200,
        'closed',
        ['Ticket Closed', 'success'],
      )
      await run(
        'row 17',
        () => s.post({ incidentStatus: 'RESOLVED' }, { correlationId: cid }),
        200,
        'failed',
        ['Ticket Already Closed', 'failed'],
        'TICKET_CLOSED',
      )
      await run(
        'row 15',
        () => s.post({ incidentStatus: 'UPDATE' }, { correlationId: cid }),
        200,
        'failed',
        ['Ticket Already Closed', 'failed'],
        'TICKET_CLOSED',
      )
      await run(
        'row 10',
        () => s.post({}, { correlationId: cid }),
        200,
        'failed',
        ['Failed To Create Ticket', 'failed'],
        'TICKET_CLOSED',
      )
      // Rows 12, 13, 6, 7.
      await run(
        'row 12',
        () => s.post({ incidentStatus: 'UPDATE' }),
        200,
        'failed',
        ['Invalid Alert', 'failed'],
        'CORRELATION_ID_REQUIRED',
      )
      await run(
        'row 13',
        () => s.post({ incidentStatus: 'RESOLVED' }, { correlationId: 'no-such-ticket' }),
        200,
        'failed',
        ['Ticket Not Found', 'failed'],
        'TICKET_NOT_FOUND',
      )
      await run(
        'row 6',
        () => s.post({ productGroup: 'Firewall' }),
        200,
        'failed',
        ['Invalid Alert', 'failed'],
        'INVALID_ALERT',
      )
      await run(
        'row 7',
        () => s.post({ accountId: 'globex-002' }),
        200,
        'failed',
        ['Failed To Create Ticket', 'failed'],
        'ACCOUNT_NOT_MAPPED',
      )
      // Row 16: self-healing off.
      const open = await run(
        'row 11 again',
        () => s.post({ title: 'Second' }, { correlationId: 'c-2' }),
        201,
        'created',
        ['Ticket Created', 'success'],
      )
      assert.equal(open.correlationId, 'c-2')
      await s.partner('PATCH', `/api/partner/integrations/${s.integrationId}`, { selfHealing: false })
      await run(
        'row 16',
        () => s.post({ incidentStatus: 'RESOLVED' }, { correlationId: 'c-2' }),
        200,
        'suppressed',
        ['Self-Healing Disabled', 'suppressed'],
      )
      // Row 8: ticket creation off.
      await s.partner('PATCH', `/api/partner/integrations/${s.integrationId}`, { ticketCreation: false })
      const supp = await run('row 8', () => s.post({ alertType: 'Agent Offline' }), 200, 'suppressed', [
        'Failed To Create Ticket',
        'suppressed',
      ])
      assert.ok(supp.correlationId, 'a suppressed OPEN still returns a correlationId')
      // Row 5: alerting off.
      await s.partner('PATCH', `/api/partner/integrations/${s.integrationId}`, { alertsEnabled: false })
      await run('row 5', () => s.post(), 200, 'failed', ['Alerting Disabled', 'failed'], 'ALERTING_DISABLED')

      // Every accepted alert reached the receiver once as a status_update, and every request verified.
      const updates = s.receiver.accepted('status_update').map((r) => r.body.payload.messageId)
      assert.deepEqual([...updates].sort(), [...sent].sort())
      assert.deepEqual(s.receiver.unverified, [])
      // The audit trail has one event per alert, recorded by the worker with strategy webhook.
      const events = await s.partner('GET', `/api/partner/events?integrationId=${s.integrationId}&limit=200`)
      assert.equal(events.body.data.length, sent.length)
      assert.ok(events.body.data.every((e: any) => e.strategy === 'webhook'))
      // No alert is left in the queue.
      const left = await svc.services.db.kysely
        .selectFrom('jobs')
        .select('id')
        .where('kind', '=', 'alert')
        .execute()
      assert.deepEqual(left, [])
    })

    test('rows 1–4 answer at once with the synchronous codes, in the webhook failure shape, storing nothing', async () => {
      const s = await make({ vendorFields: { rateLimitPerMinute: 3 } })
      // The setup's coalesced snapshot is scheduled ahead; let it go out before counting.
      await s.receiver.waitFor(() => s.receiver.accepted('state_snapshot').length >= 1, 'the setup snapshot')
      const beforeCounts = await svc.counts()
      const expectFailure = (res: any, status: number, error: string) => {
        assert.equal(res.status, status, res.text)
        assert.equal(res.body.statusCode, status)
        assert.equal(res.body.message, 'failed')
        assert.equal(res.body.error, error)
        assert.equal(typeof res.body.data.messageId, 'string')
        assert.ok('correlationId' in res.body.data)
        assert.equal(typeof res.body.requestId, 'string')
      }
      for (const path of ['/api/oem-alerts-api/alert', '/api/oem-alerts-api/alerts']) {
        expectFailure(await svc.request('POST', path, { raw: '{"clientId": ' }), 400, 'INVALID_JSON')
      }
      expectFailure(
        await svc.request('POST', '/api/oem-alerts-api/alert', { body: { ...s.body(), data: {} } }),
        400,
        'VALIDATION_FAILED',
      )
      expectFailure(
        await svc.request('POST', '/api/oem-alerts-api/alert', {
          body: s.body({}, { clientSecret: 'wrong' }),
        }),
        401,
        'INVALID_CREDENTIALS',
      )
      expectFailure(
        await svc.request('POST', '/api/oem-alerts-api/alert', {
          body: s.body({}, { integrationId: 'nope' }),
        }),
        404,
        'INTEGRATION_NOT_FOUND',
      )
      // Two requests consumed the budget of 3 above (401 does not reach the limiter; 404 does).
      await svc.request('POST', '/api/oem-alerts-api/alert', { body: s.body({}, { integrationId: 'nope' }) })
      await svc.request('POST', '/api/oem-alerts-api/alert', { body: s.body({}, { integrationId: 'nope' }) })
      const limited = await svc.request('POST', '/api/oem-alerts-api/alert', { body: s.body() })
      expectFailure(limited, 429, 'RATE_LIMITED')
      assert.ok(Number(limited.headers.get('retry-after')) > 0)
      assert.deepEqual(await svc.counts(), beforeCounts)
    })

    test('the plural alias accepts alerts too', async () => {
      const s = await make()
      const res = await svc.request('POST', '/api/oem-alerts-api/alerts', { body: s.body() })
      const data = expectAnswer(res, 201, 'created')
      expectEvent(await s.statusUpdate(data.messageId), 'Ticket Created', 'success', data.messageId)
    })

    test('a receiver failing the first attempts still gets the event, with the same webhook-id', async () => {
      const s = await make({ vendorFields: { webhookAuthHeader: { name: 'X-Vendor-Key', value: 'vk-123' } } })
      let failures = 0
      s.receiver.respond((r) => {
        if (r.body?.eventType === 'status_update' && failures < 2) {
          failures++
          return 500
        }
        return 204
      })
      const data = expectAnswer(await s.post(), 201, 'created')
      await s.statusUpdate(data.messageId)
      const attempts = s.receiver.requests.filter((r) => r.body?.payload?.messageId === data.messageId)
      assert.deepEqual(
        attempts.map((a) => a.answered),
        [500, 500, 204],
      )
      assert.equal(new Set(attempts.map((a) => a.id)).size, 1, 'one webhook-id across retries')
      assert.ok(attempts.every((a) => a.headers['x-vendor-key'] === 'vk-123'))
      assert.deepEqual(s.receiver.unverified, [])

      // The partner sees the delivery with every attempt (recorded just after the receiver answered).
      const d: any = await waitFor(
        async () => {
          const list = await s.partner('GET', '/api/partner/deliveries')
          assert.equal(list.status, 200, list.text)
          const found = list.body.data.find((x: any) => x.messageId === data.messageId)
          return found?.status === 'delivered' && found
        },
        { what: 'the partner to see the delivery delivered' },
      )
      assert.equal(d.id, attempts[0]!.id)
      assert.equal(d.status, 'delivered')
      assert.deepEqual(
        d.attemptLog.map((a: any) => a.statusCode),
        [500, 500, 204],
      )
      assert.ok(d.attemptLog[0].nextAttemptAt)
      // The endpoint's answer is the vendor's: the operator sees it, the partner does not
      // (docs/decisions/bounded-growth/partner-delivery-view.md).
      assert.equal(d.attemptLog[0].responseBody, undefined)
      const operator = await svc.request('GET', `/api/admin/deliveries/${d.id}`, { token: svc.adminToken })
      assert.equal(operator.body.attemptLog[0].responseBody, 'answer 500')
      const one = await s.partner('GET', `/api/partner/deliveries/${d.id}`)
      assert.equal(one.body.payload.payload.messageId, data.messageId)
    })

    test('410 disables the endpoint; deliveries die; the operator enables it and a replay arrives', async () => {
      const s = await make()
      // The setup's coalesced snapshot goes out first: the 410 below would otherwise kill it too.
      await s.receiver.waitFor(() => s.receiver.accepted('state_snapshot').length >= 1, 'the setup snapshot')
      s.receiver.respond((r) => (r.body?.eventType === 'status_update' ? 410 : 204))
      const first = expectAnswer(await s.post(), 201, 'created')
      const vendorGone = async () =>
        (await svc.request('GET', `/api/admin/vendors/${s.vendorId}`, { token: svc.adminToken })).body
      await s.receiver.waitFor(() => s.receiver.requests.some((r) => r.answered === 410), 'the 410')
      const vendor = await waitFor(
        async () => {
          const v = await vendorGone()
          return v.webhookState === 'disabled' && v
        },
        { what: 'the vendor’s webhook to be disabled', timeoutMs: 3000 },
      )
      assert.equal(vendor.webhookState, 'disabled')
      assert.match(vendor.webhookStateReason, /410/)

      // A later alert is processed; its event is stored dead, not sent.
      const second = expectAnswer(await s.post({ alertType: 'Agent Offline' }), 201, 'created')
      // A generous bound: the worker takes the alert, then the dispatcher finds the endpoint disabled.
      // Only the alerts' status updates: a state_snapshot the setup scheduled may die here too.
      const dead: any[] = await waitFor(
        async () => {
          const list = (await s.partner('GET', '/api/partner/deliveries?status=dead')).body.data.filter(
            (d: { eventType: string }) => d.eventType === 'status_update',
          )
          return list.length >= 2 && list
        },
        { what: 'two dead status_update deliveries' },
      )
      assert.deepEqual(dead.map((d) => d.messageId).sort(), [first.messageId, second.messageId].sort())
      assert.equal(
        s.receiver.requests.filter((r) => r.body?.payload?.messageId === second.messageId).length,
        0,
      )

      // Replay is refused while the endpoint is disabled.
      const refused = await s.partner('POST', `/api/partner/deliveries/${dead[0].id}/replay`)
      assert.equal(refused.status, 409, refused.text)
      assert.match(refused.body.detail, /webhookEnabled/)

      s.receiver.respond(() => 204)
      const enabled = await svc.request('PATCH', `/api/admin/vendors/${s.vendorId}`, {
        token: svc.adminToken,
        body: { webhookEnabled: true },
      })
      assert.equal(enabled.body.webhookState, 'active')
      const replay = await s.partner('POST', `/api/partner/deliveries/${dead[0].id}/replay`)
      assert.equal(replay.status, 202, replay.text)
      // Replaying all since then replays every delivery still dead: the second status_update, and a
      // state_snapshot that died with the endpoint if one was pending when it was disabled (see above).
      const stillDead = (await s.partner('GET', '/api/partner/deliveries?status=dead')).body.data
      assert.equal(stillDead.filter((d: { eventType: string }) => d.eventType === 'status_update').length, 1)
      const all = await s.partner('POST', '/api/partner/deliveries/replay', { since: '2000-01-01T00:00:00Z' })
      assert.equal(all.status, 202, all.text)
      assert.equal(all.body.replayed, stillDead.length)
      await s.statusUpdate(first.messageId)
      await s.statusUpdate(second.messageId)
      const replayed = s.receiver.accepted('status_update')
      assert.deepEqual(
        replayed.map((r) => r.id).sort(),
        dead.map((d) => d.id).sort(),
        'replays keep the webhook-id',
      )
    })

    test('after the last scheduled attempt a delivery is dead; replaying it delivers it', async () => {
      const s = await make()
      s.receiver.respond((r) => (r.body?.eventType === 'status_update' ? 503 : 204))
      const data = expectAnswer(await s.post(), 201, 'created')
      const d = await waitFor(
        async () => (await s.partner('GET', '/api/partner/deliveries?status=dead')).body.data[0],
        {
          what: 'the delivery to die',
          timeoutMs: 9000,
        },
      )
      assert.equal(d.messageId, data.messageId)
      // The first attempt and one per scheduled retry (three in this test's schedule).
      assert.equal(d.attemptLog.length, 4)
      assert.ok(d.attemptLog.every((a: any) => a.statusCode === 503 && a.trigger === 'scheduled'))
      assert.equal(d.attemptLog[3].nextAttemptAt, null)

      s.receiver.respond(() => 204)
      const replay = await s.partner('POST', `/api/partner/deliveries/${d.id}/replay`)
      assert.equal(replay.status, 202, replay.text)
      assert.equal(replay.body.status, 'pending')
      await s.statusUpdate(data.messageId)
      let after: any
      await waitFor(
        async () => {
          after = (await s.partner('GET', `/api/partner/deliveries/${d.id}`)).body
          return after.status === 'delivered'
        },
        { what: () => `the replayed delivery to be delivered (it is ${after?.status})`, intervalMs: 10 },
      )
      assert.equal(after.status, 'delivered')
      assert.equal(after.attemptLog.at(-1).trigger, 'manual')
      // Only dead deliveries replay.
      assert.equal((await s.partner('POST', `/api/partner/deliveries/${d.id}/replay`)).status, 409)
      // The operator sees every vendor's deliveries, filtered by vendor.
      const admin = await svc.request('GET', `/api/admin/deliveries?vendorId=${s.vendorId}`, {
        token: svc.adminToken,
      })
      assert.equal(admin.status, 200, admin.text)
      assert.ok(admin.body.data.some((x: any) => x.id === d.id))
      assert.ok(admin.body.data.every((x: any) => x.vendorId === s.vendorId))
      assert.equal((await svc.request('GET', '/api/admin/deliveries')).status, 401)
      // Another partner cannot see or replay it.
      const other = await make()
      assert.equal((await other.partner('GET', `/api/partner/deliveries/${d.id}`)).status, 404)
      assert.equal((await other.partner('POST', `/api/partner/deliveries/${d.id}/replay`)).status, 404)
    })

    test('PSA failures inside the job are retried before the outcome is sent', async () => {
      const s = await make()
      await s.partner('PUT', '/api/partner/sandbox/fault', {
        mode: 'error',
        operations: ['create'],
        count: 2,
      })
      const data = expectAnswer(await s.post(), 201, 'created')
      const update = await s.statusUpdate(data.messageId)
      expectEvent(update, 'Ticket Created', 'success', data.messageId)
      assert.equal(
        update.payload.correlationId,
        data.correlationId,
        'the ticket has the id the vendor was told',
      )
      const tickets = await s.partner('GET', '/api/partner/sandbox/tickets')
      assert.equal(tickets.body.data.length, 1)

      // A PSA that keeps failing: the final event is the failure, after the retries.
      await s.partner('PUT', '/api/partner/sandbox/fault', { mode: 'error', operations: ['create'] })
      const failing = expectAnswer(await s.post({ alertType: 'Agent Offline' }), 201, 'created')
      const failed = await s.statusUpdate(failing.messageId)
      expectEvent(failed, 'Failed To Create Ticket', 'failed', failing.messageId)
      assert.match(failed.payload.payload.message, /PSA failed/)
      await s.partner('DELETE', '/api/partner/sandbox/fault')
    })

    test('state changes send one coalesced state_snapshot with the latest state', async () => {
      const s = await make()
      const snapshots = () => s.receiver.accepted('state_snapshot')
      // complete-mapping during setup scheduled one.
      await s.receiver.waitFor(() => snapshots().length >= 1, 'the setup snapshot')
      const count = snapshots().length
      const path = `/api/partner/integrations/${s.integrationId}`
      await s.partner('PATCH', path, { alertsEnabled: false })
      await s.partner('PATCH', path, { alertsEnabled: true })
      await s.partner('PATCH', path, { alertsEnabled: false })
      await s.receiver.waitFor(() => snapshots().length > count, 'the next snapshot')
      await hold(800, 'a period in which a second snapshot would arrive')
      assert.equal(snapshots().length, count + 1, 'three changes, one snapshot')
      const snap = snapshots().at(-1)!.body
      assert.equal(snap.eventType, 'state_snapshot')
      const { sequence, occurredAt, ...state } = snap.payload
      // docs/webhooks.md#event-types: a later snapshot has a higher sequence number.
      assert.ok(sequence > snapshots().at(-2)!.body.payload.sequence, String(sequence))
      assert.ok(!Number.isNaN(Date.parse(occurredAt)))
      assert.deepEqual(state, {
        test: false,
        isIntegrationActive: true,
        isAlertsEnabled: false,
        productGroups: catalogue,
        accounts: ['acme-001'],
        vendorOrganizationId: s.vendorId,
        vendorUserId: s.partnerId,
        integrationId: s.integrationId,
      })
      // Mapping another account changes the accounts.
      await s.partner('PUT', `/api/partner/integrations/${s.integrationId}/accounts/globex-002`, {
        psaCompanyId: '200',
      })
      await s.receiver.waitFor(() => snapshots().length > count + 1, 'the accounts snapshot')
      assert.deepEqual(snapshots().at(-1)!.body.payload.accounts, ['acme-001', 'globex-002'])
      // The operator changing the vendor's catalogue reaches the vendor's integrations too.
      const patched = await svc.request('PATCH', `/api/admin/vendors/${s.vendorId}`, {
        token: svc.adminToken,
        body: { productGroups: { Backup: 'Backup Failed,Backup Warning' } },
      })
      assert.equal(patched.status, 200, patched.text)
      await s.receiver.waitFor(() => snapshots().length > count + 2, 'the catalogue snapshot')
      assert.deepEqual(snapshots().at(-1)!.body.payload.productGroups, {
        Backup: ['Backup Failed', 'Backup Warning'],
      })
      assert.deepEqual(s.receiver.unverified, [])
    })

    test('a vendor without a webhook URL may use the webhook strategy: processed, recorded, nothing sent', async () => {
      const vendor = await svc.request('POST', '/api/admin/vendors', {
        token: svc.adminToken,
        body: { name: 'No Hook', productGroups: catalogue },
      })
      const s = await setupIntegration(svc, {
        vendor: {
          id: vendor.body.id,
          clientId: vendor.body.clientId,
          clientSecret: vendor.body.clientSecret,
        },
      })
      const data = expectAnswer(
        await svc.request('POST', '/api/oem-alerts-api/alert', { body: s.body() }),
        201,
        'created',
      )
      const event = await waitFor(
        async () =>
          (await s.partner('GET', `/api/partner/events?integrationId=${s.integrationId}`)).body.data.find(
            (e: any) => e.messageId === data.messageId,
          ),
        { what: 'the alert’s event' },
      )
      assert.equal(event.event, 'Ticket Created')
      const deliveries = await s.partner('GET', '/api/partner/deliveries')
      assert.deepEqual(deliveries.body.data, [])
    })

    test('the operator pauses an endpoint: its deliveries wait, and go out once it is enabled', async () => {
      const s = await make()
      const pause = await svc.request('PATCH', `/api/admin/vendors/${s.vendorId}`, {
        token: svc.adminToken,
        body: { webhookEnabled: false },
      })
      assert.equal(pause.body.webhookState, 'paused')
      const data = expectAnswer(await s.post({ alertType: 'Agent Offline' }), 201, 'created')
      const pending = await waitFor(
        async () =>
          (await s.partner('GET', '/api/partner/deliveries?status=pending')).body.data.find(
            (d: any) => d.messageId === data.messageId,
          ),
        { what: 'the event to wait in the outbox' },
      )
      assert.equal(pending.attempts, 0)
      assert.equal(s.receiver.accepted('status_update').length, 0)
      await svc.request('PATCH', `/api/admin/vendors/${s.vendorId}`, {
        token: svc.adminToken,
        body: { webhookEnabled: true },
      })
      await s.statusUpdate(data.messageId)
    })

    test('at most 4 deliveries in flight per endpoint, and a slow vendor does not hold back another', async () => {
      const slow = await make()
      const fast = await make()
      slow.receiver.respond(() => ({ status: 204, delayMs: 400 }))
      await slow.partner('PATCH', `/api/partner/integrations/${slow.integrationId}`, {
        deduplication: { enabled: false },
      })
      const slowIds: string[] = []
      for (let i = 0; i < 12; i++) {
        const res = await slow.post({ title: `slow ${i}` }, { correlationId: `slow-${i}` })
        slowIds.push(expectAnswer(res, 201, 'created').messageId)
      }
      // While the slow endpoint works through its queue, the fast vendor's event arrives: it does
      // not wait behind the slow vendor's backlog.
      const fastAlert = expectAnswer(await fast.post(), 201, 'created')
      await fast.statusUpdate(fastAlert.messageId)
      const slowDoneWhenFastArrived = slow.receiver.accepted('status_update').length
      for (const id of slowIds) await slow.statusUpdate(id)
      assert.ok(slow.receiver.maxConcurrent() <= 4, `max in flight ${slow.receiver.maxConcurrent()}`)
      assert.ok(slow.receiver.maxConcurrent() >= 2, 'deliveries to one endpoint do run in parallel')
      assert.ok(
        slowDoneWhenFastArrived < slowIds.length,
        `the fast vendor's event came after all ${slowIds.length} of the slow vendor's`,
      )
    })
  })
}

describe('outbound addresses (SSRF)', () => {
  let svc: TestService
  let receiver: Receiver
  before(async () => {
    svc = await startService({ env: { ...env, ALLOW_PRIVATE_NETWORK: 'false' } })
    receiver = await startReceiver()
  })
  after(async () => {
    await svc.close()
    await receiver.close()
  })

  test('webhook URLs on loopback and private addresses are refused unless allowed', async () => {
    for (const webhookUrl of [
      'http://127.0.0.1:9/hook',
      'https://127.0.0.1/hook',
      'https://10.1.2.3/hook',
      'https://192.168.1.10/hook',
      'https://169.254.169.254/latest',
      'https://[::1]/hook',
    ]) {
      const res = await svc.request('POST', '/api/admin/vendors', {
        token: svc.adminToken,
        body: { name: 'V', webhookUrl },
      })
      assert.equal(res.status, 400, `${webhookUrl}: ${res.text}`)
      assert.match(res.body.detail, /webhookUrl/)
    }
    const ok = await svc.request('POST', '/api/admin/vendors', {
      token: svc.adminToken,
      body: { name: 'V', webhookUrl: 'https://8.8.8.8/hook' },
    })
    assert.equal(ok.status, 201, ok.text)
    const patched = await svc.request('PATCH', `/api/admin/vendors/${ok.body.id}`, {
      token: svc.adminToken,
      body: { webhookUrl: 'https://10.0.0.1/hook' },
    })
    assert.equal(patched.status, 400)
  })

  test('a catalogue URL on a private address is refused like a webhook URL', async () => {
    for (const productGroupsUrl of ['https://10.0.0.1/product-groups', 'http://127.0.0.1:9/product-groups']) {
      const res = await svc.request('POST', '/api/admin/vendors', {
        token: svc.adminToken,
        body: { name: 'V', productGroupsUrl },
      })
      assert.equal(res.status, 400, `${productGroupsUrl}: ${res.text}`)
      assert.match(res.body.detail, /productGroupsUrl/)
    }
  })

  test('a private address that got into the configuration is refused at connect time', async () => {
    const s = await hooked(svc, { vendorFields: { webhookUrl: 'https://8.8.8.8/hook' } })
    // Bypass the configuration check, as a DNS change after configuration would.
    await svc.services.store.vendors.update(
      s.vendorId,
      { webhookUrl: receiver.url },
      new Date().toISOString(),
    )
    const data = expectAnswer(await s.post(), 201, 'created')
    const d = await waitFor(
      async () =>
        (await s.partner('GET', '/api/partner/deliveries?status=dead')).body.data.find(
          (x: any) => x.messageId === data.messageId,
        ),
      { what: 'the delivery to be dead', timeoutMs: 6000 },
    )
    assert.equal(d.attemptLog.length, 1)
    assert.match(d.attemptLog[0].error, /^blocked/)
    assert.equal(receiver.requests.length, 0)
    await s.receiver.close()
  })
})

describe('ROLE=worker', () => {
  test('serves only the health checks', async () => {
    const svc = await startService({ env: { ROLE: 'worker' } })
    try {
      assert.equal((await svc.request('GET', '/healthz')).status, 200)
      assert.equal((await svc.request('GET', '/readyz')).status, 200)
      const api = await svc.request('POST', '/api/admin/vendors', {
        token: svc.adminToken,
        body: { name: 'V' },
      })
      assert.equal(api.status, 404, api.text)
      assert.equal((await svc.request('POST', '/api/oem-alerts-api/alert', { body: {} })).status, 404)
    } finally {
      await svc.close()
    }
  })
})
