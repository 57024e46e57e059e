// Bounded growth (docs/operations.md#retention): rows older than their retention age are pruned — events,
// delivered and dead deliveries, dead jobs, usage history, dead access tokens — while younger ones and the
// ones still needed stay: an event a delivery or a queued job still points at, a pending delivery, the
// latest usage count of a pair. Time moves through the service's clock; rows a flow cannot make old (a dead
// job, a dead delivery) are written directly. Then the repositories' own prunes on their own: webhook
// deliveries with their attempts, and access tokens. (How the ages are read: test/platform/retention-ages.test.ts.)
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { after, before, describe, test } from 'node:test'
import { Kysely, SqliteDialect } from 'kysely'
import pino from 'pino'
import { Registry } from 'prom-client'
import { Retention } from '../../src/ops/retention.js'
import { must } from '../../src/platform/core/result.js'
import type { Database } from '../../src/platform/db/schema.js'
import { Store } from '../../src/platform/db/store.js'
import { SqlJobQueue } from '../../src/platform/queue/sql-queue.js'
import { createCryptoBox } from '../../src/platform/security/crypto-box.js'
import { issueToken, type Setup, setupIntegration } from '../support/fixtures.js'
import { backends, manualClock, startService, type TestService } from '../support/service.js'
import { waitFor } from '../support/wait.js'

const day = 24 * 60 * 60 * 1000
const silent = pino({ level: 'silent' })

for (const backend of backends('databases')) {
  describe(`retention (${backend})`, () => {
    const clock = manualClock(new Date('2026-01-01T00:00:00.000Z'))
    let svc: TestService
    before(async () => {
      // Usage history is kept 400 days by default; 60 here lets one timeline age every kind.
      svc = await startService({ backend, clock, env: { RETENTION_USAGE_DAYS: '60' } })
    })
    after(() => svc.close())

    const kysely = () => svc.services.store.kysely
    const at = () => clock().toISOString()
    const token = async (s: Setup) => {
      const res = await svc.request('POST', '/api/oauth/token', {
        body: {
          grant_type: 'client_credentials',
          client_id: s.clientId,
          client_secret: s.clientSecret,
          organization_oem_token: s.orgToken,
        },
      })
      assert.equal(res.status, 200, res.text)
      return res.body.access_token as string
    }
    const count = async (vendorToken: string, serviceId: string, accountId: string, n: number) => {
      const res = await svc.request('POST', `/api/vendor-api/service/${serviceId}/count`, {
        token: vendorToken,
        body: { unitCount: n, accountId },
      })
      assert.equal(res.status, 201, res.text)
      return res.body.id as string
    }
    const deliveryAt = async (
      s: Setup,
      status: 'pending' | 'delivered' | 'dead',
      messageId: string | null,
    ) => {
      const id = await svc.services.store.deliveries.insert(
        {
          vendorId: s.vendorId,
          partnerId: s.partnerId,
          integrationId: s.integrationId,
          messageId,
          eventType: 'status_update',
          body: '{}',
        },
        at(),
      )
      assert.ok(id)
      await kysely().updateTable('webhook_deliveries').set({ status }).where('id', '=', id).execute()
      return id
    }
    const deadJobAt = async (id: string) => {
      await kysely()
        .insertInto('jobs')
        .values({
          id,
          kind: 'alert',
          dedupe_key: null,
          payload: '{}',
          attempts: 1,
          run_at: '9999-12-31T23:59:59.999Z',
          lease_token: null,
          last_error: 'the payload is not valid',
          failed_at: at(),
          group_key: null,
          created_at: at(),
        })
        .execute()
    }
    const ids = async (
      table: 'events' | 'webhook_deliveries' | 'jobs' | 'usage_counts' | 'vendor_tokens',
    ) => {
      const key = table === 'events' ? 'message_id' : 'id'
      const rows = await kysely().selectFrom(table).select(key).execute()
      return new Set(rows.map((r) => (r as Record<string, string>)[key]))
    }

    /** An effect whose outcome was never recorded, written now by the service's clock. */
    const effectAt = (s: { integrationId: string }, messageId: string, strategy: 'sync' | 'webhook') =>
      svc.services.store.psaEffects.insert({
        messageId,
        integrationId: s.integrationId,
        ticketId: `ticket-${messageId}`,
        correlationId: `c-${messageId}`,
        psaTicketId: 'SBX-1',
        row: 'create',
        strategy,
        requestDigest: 'x',
        orphanedAt: at(),
        createdAt: at(),
      })

    test('rows past their age are pruned; younger and still-needed ones stay', async () => {
      const s = await setupIntegration(svc, { vendorName: 'Aging Vendor' })
      let vendorToken = s.vendorToken
      for (const id of ['edr', 'backup']) {
        const res = await svc.request('POST', '/api/vendor-api/organization/services', {
          token: vendorToken,
          body: { id, name: id },
        })
        assert.equal(res.status, 201, res.text)
      }

      // Day 0: alerts, usage, deliveries and jobs that will all be old.
      const oldAlert = (await s.sync()).body.data.messageId as string
      const oldWithDelivery = (await s.sync({ incidentStatus: 'UPDATE' }, { correlationId: 'nope' })).body
        .data.messageId as string
      const oldWithJob = (await s.sync({ alertType: 'Agent Offline' })).body.data.messageId as string
      await kysely()
        .insertInto('jobs')
        .values({
          id: oldWithJob,
          kind: 'alert',
          dedupe_key: null,
          payload: '{}',
          attempts: 1,
          run_at: '9999-12-31T23:59:59.999Z',
          lease_token: 'held-by-a-runner',
          last_error: null,
          failed_at: null,
          group_key: null,
          created_at: at(),
        })
        .execute()
      const pendingForOldEvent = await deliveryAt(s, 'pending', oldWithDelivery)
      const oldDelivered = await deliveryAt(s, 'delivered', null)
      const oldDead = await deliveryAt(s, 'dead', null)
      await deadJobAt('job-old-dead')
      const usageOldThenOld = await count(vendorToken, 'edr', 'acme-001', 1)
      const usageOnlyOld = await count(vendorToken, 'backup', 'acme-001', 7)
      const usageOldThenNew = await count(vendorToken, 'edr', 'globex-002', 3)
      const latestOld = await count(vendorToken, 'edr', 'acme-001', 2)
      const expiredToken = await token(s)
      await effectAt(s, 'effect-old-sync', 'sync')
      await effectAt(s, 'effect-old-webhook', 'webhook')

      // Day 70: younger rows; the day-0 deliveries and jobs are past their 30 days by day 91.
      clock.advance(70 * day)
      vendorToken = await token(s)
      const youngDelivered = await deliveryAt(s, 'delivered', null)
      await deadJobAt('job-young-dead')
      const midAlert = (await s.sync({ alertType: 'Ransomware Behaviour' })).body.data.messageId as string
      await effectAt(s, 'effect-young-sync', 'sync')

      // Day 91: the day-0 events are past 90 days; the day-70 rows are 21 days old.
      clock.advance(21 * day)
      vendorToken = await token(s)
      const newUsage = await count(vendorToken, 'edr', 'globex-002', 4)
      const newAlert = (await s.sync({ incidentStatus: 'UPDATE' }, { correlationId: 'nope' })).body.data
        .messageId as string

      const pruned = await svc.services.ops.retention.run()

      const events = await ids('events')
      assert.ok(!events.has(oldAlert), 'a 91-day-old event is pruned')
      assert.ok(events.has(oldWithDelivery), 'an old event a delivery still points at stays')
      assert.ok(events.has(oldWithJob), 'an old event whose job is still queued stays')
      assert.ok(events.has(midAlert) && events.has(newAlert), 'younger events stay')

      const deliveries = await ids('webhook_deliveries')
      assert.ok(!deliveries.has(oldDelivered) && !deliveries.has(oldDead), 'old finished deliveries go')
      assert.ok(deliveries.has(pendingForOldEvent), 'a pending delivery stays, however old')
      assert.ok(deliveries.has(youngDelivered), 'a 21-day-old delivered delivery stays')

      const jobs = await ids('jobs')
      assert.ok(!jobs.has('job-old-dead'), 'a dead job past 30 days goes')
      assert.ok(jobs.has('job-young-dead'), 'a younger dead job stays')
      assert.ok(jobs.has(oldWithJob), 'a job that is not dead stays')

      const usage = await ids('usage_counts')
      assert.ok(!usage.has(usageOldThenOld), 'an old count with a newer one of its pair goes')
      assert.ok(!usage.has(usageOldThenNew), 'an old count with a new one of its pair goes')
      assert.ok(usage.has(latestOld), 'the latest count of a pair stays, however old')
      assert.ok(usage.has(usageOnlyOld), 'the only count of a pair stays')
      assert.ok(usage.has(newUsage))
      const latest = await svc.request('GET', '/api/vendor-api/usage', { token: vendorToken })
      assert.deepEqual(
        latest.body.data.map((u: any) => [u.serviceId, u.accountId, u.unitCount]),
        [
          ['backup', 'acme-001', 7],
          ['edr', 'acme-001', 2],
          ['edr', 'globex-002', 4],
        ],
        'the latest counts read as before',
      )

      const verify = await svc.services.tenants.tokens.verify(expiredToken)
      assert.equal(verify.ok, false, 'a token expired for over 30 days is gone')
      assert.ok(pruned.access_tokens >= 1)

      assert.equal(pruned.events, 1)
      assert.equal(pruned.delivered_deliveries, 1)
      assert.equal(pruned.dead_deliveries, 1)
      assert.equal(pruned.dead_jobs, 1)
      assert.equal(pruned.usage_counts, 2)

      const effects = new Set(
        (await kysely().selectFrom('psa_effects').select('message_id').execute()).map((r) => r.message_id),
      )
      assert.ok(!effects.has('effect-old-sync'), 'an unrecorded sync effect past 30 days goes')
      assert.ok(effects.has('effect-young-sync'), 'a younger one stays')
      assert.ok(effects.has('effect-old-webhook'), "a webhook job's effect stays until its job records it")
      assert.equal(pruned.psa_effects, 1)

      // The ticket outlives its pruned events: it is still read, with the history that is left.
      const ticket = await svc.request('GET', `/api/partner/events?limit=200`, { token: s.partnerKey })
      assert.ok(!ticket.body.data.some((e: any) => e.messageId === oldAlert))

      // GET /metrics: what was pruned, by kind, and when the run ended (the service's clock).
      const metrics = (await svc.request('GET', '/metrics')).text
      assert.match(metrics, /alertbridge_retention_pruned_total\{kind="events"\} [1-9]/)
      assert.match(metrics, /alertbridge_retention_pruned_total\{kind="usage_counts"\} [2-9]/)
      assert.match(metrics, /alertbridge_retention_pruned_total\{kind="dead_deliveries"\} [1-9]/)
      const last = /^alertbridge_retention_last_run_timestamp_seconds (\S+)$/m.exec(metrics)?.[1]
      assert.equal(Number(last), clock().getTime() / 1000)
      assert.match(metrics, /alertbridge_retention_days\{kind="events"\} 90/)
    })

    /** Events of a new integration, `n` of them created `ageDays` before the service's now. */
    const oldEvents = async (n: number, ageDays: number) => {
      const s = await setupIntegration(svc, { vendorName: `Batch ${randomBytes(3).toString('hex')}` })
      const createdAt = new Date(clock().getTime() - ageDays * day).toISOString()
      const made: string[] = []
      for (let i = 0; i < n; i++) {
        const messageId = `0190aaaa-0000-7000-8000-${randomBytes(6).toString('hex')}`
        await svc.services.store.events.insert({
          messageId,
          partnerId: s.partnerId,
          vendorId: s.vendorId,
          integrationId: s.integrationId,
          correlationId: null,
          event: 'Invalid Alert',
          status: 'failed',
          httpStatus: 400,
          incidentStatus: 'OPEN',
          strategy: 'sync',
          request: null,
          detail: null,
          createdAt,
        })
        made.push(messageId)
      }
      return made
    }
    const pruner = (store: Store, batchSize: number) =>
      new Retention({
        store,
        queue: new SqlJobQueue(store, svc.services.db, clock),
        clock,
        log: silent,
        metrics: new Registry(),
        days: svc.services.config.retention.days,
        intervalMs: 3_600_000,
        batchSize,
        pauseMs: 1,
      })

    test('a run prunes in batches of RETENTION_BATCH_SIZE until nothing old is left', async () => {
      const made = await oldEvents(5, 100)
      const store = svc.services.store
      const batches: number[] = []
      const spied: Store = Object.create(store)
      Object.defineProperty(spied, 'events', {
        value: {
          prune: async (before: string, limit: number) => {
            const n = await store.events.prune(before, limit)
            batches.push(n)
            return n
          },
        },
      })
      const pruned = await pruner(spied, 2).run()
      assert.equal(pruned.events, 5)
      assert.deepEqual(batches, [2, 2, 1], 'no statement deletes more than the batch size')
      const left = await ids('events')
      assert.ok(made.every((id) => !left.has(id)))
    })

    test('two pruners at once (two processes) prune each row once, without failing', async () => {
      const made = await oldEvents(9, 100)
      const a = pruner(svc.services.store, 2)
      const b = pruner(svc.services.store, 2)
      const [ra, rb] = await Promise.all([a.run(), b.run()])
      assert.equal(ra.events + rb.events, 9)
      const left = await ids('events')
      assert.ok(made.every((id) => !left.has(id)))
    })

    if (backend === 'sqlite') {
      test('every prune statement finds its rows through an index, not by reading the table', async () => {
        const sqlite = svc.services.db.sqlite!
        const statements: { sql: string; parameters: readonly unknown[] }[] = []
        const logged = new Kysely<Database>({
          dialect: new SqliteDialect({ database: sqlite }),
          log: (e) => {
            if (e.level === 'query') statements.push(e.query)
          },
        })
        const store = new Store(logged, createCryptoBox(randomBytes(32).toString('base64')))
        await pruner(store, 500).run()
        const deletes = statements.filter((q) => /^delete/i.test(q.sql))
        assert.equal(deletes.length, 9, 'one statement per kind')
        for (const q of deletes) {
          const plan = sqlite.prepare(`explain query plan ${q.sql}`).all(...(q.parameters as unknown[])) as {
            detail: string
          }[]
          const scans = plan.filter(
            (p) => /^SCAN /.test(p.detail) && !/USING (COVERING )?INDEX/.test(p.detail),
          )
          assert.deepEqual(scans, [], `${q.sql}\n${plan.map((p) => p.detail).join('\n')}`)
        }
      })
    }
  })
}

for (const backend of backends('databases')) {
  describe(`retention on its schedule (${backend})`, () => {
    const clock = manualClock(new Date('2026-01-01T00:00:00.000Z'))
    let svc: TestService
    before(async () => {
      svc = await startService({
        backend,
        clock,
        env: {
          RETENTION_INTERVAL_SECONDS: '1',
          RETENTION_EVENTS_DAYS: 'off',
          RETENTION_DEAD_DELIVERIES_DAYS: '0',
        },
      })
    })
    after(() => svc.close())

    test('the worker prunes by itself every RETENTION_INTERVAL_SECONDS; a kind set to off or 0 is kept', async () => {
      const s = await setupIntegration(svc, { vendorName: 'Scheduled' })
      const oldEvent = (await s.sync()).body.data.messageId as string
      const store = svc.services.store
      const finished = async (status: 'delivered' | 'dead') => {
        const id = await store.deliveries.insert(
          {
            vendorId: s.vendorId,
            partnerId: s.partnerId,
            integrationId: s.integrationId,
            messageId: null,
            eventType: 'status_update',
            body: '{}',
          },
          clock().toISOString(),
        )
        await store.kysely.updateTable('webhook_deliveries').set({ status }).where('id', '=', id!).execute()
        return id!
      }
      const delivered = await finished('delivered')
      const dead = await finished('dead')
      clock.advance(400 * day)

      // Until a run has pruned the delivery and ended (its counter moves before its end).
      const ranAfterTheMove = async () => {
        const text = (await svc.request('GET', '/metrics')).text
        const pruned = /alertbridge_retention_pruned_total\{kind="delivered_deliveries"\} (\S+)/.exec(
          text,
        )?.[1]
        const last = /^alertbridge_retention_last_run_timestamp_seconds (\S+)$/m.exec(text)?.[1]
        return Number(pruned) >= 1 && Number(last) >= clock().getTime() / 1000
      }
      await waitFor(ranAfterTheMove, {
        what: 'a scheduled run (1 s interval) after the move',
        timeoutMs: 10_000,
        intervalMs: 100,
      })
      const left = new Set(
        (await store.kysely.selectFrom('webhook_deliveries').select('id').execute()).map((r) => r.id),
      )
      assert.ok(!left.has(delivered), 'the delivered delivery was pruned by the schedule')
      assert.ok(left.has(dead), 'RETENTION_DEAD_DELIVERIES_DAYS=0 keeps dead deliveries')
      const event = await store.kysely
        .selectFrom('events')
        .select('message_id')
        .where('message_id', '=', oldEvent)
        .executeTakeFirst()
      assert.ok(event, 'RETENTION_EVENTS_DAYS=off keeps events')
      const text = (await svc.request('GET', '/metrics')).text
      assert.match(text, /alertbridge_retention_days\{kind="events"\} 0/)
      assert.match(text, /alertbridge_retention_pruned_total\{kind="delivered_deliveries"\} 1\n/)
      assert.match(text, /alertbridge_retention_pruned_total\{kind="events"\} 0\n/)
    })
  })
}

// The deliveries' own prune: delivered and dead deliveries older than the cut-off go with their attempts;
// pending ones never do (docs/webhooks.md#dead).
for (const backend of backends('databases')) {
  describe(`pruning webhook deliveries (${backend})`, () => {
    let svc: TestService
    before(async () => {
      svc = await startService({ backend, env: { ROLE: 'api' } })
    })
    after(() => svc.close())

    test('pruning removes finished deliveries older than the cut-off, with their attempts, and keeps the rest', async () => {
      const { store } = svc.services
      const { vendor } = must(await svc.services.tenants.provisioning.createVendor({ name: 'Old Vendor' }))
      const old = '2026-01-01T00:00:00.000Z'
      const recent = '2026-11-01T00:00:00.000Z'
      const make = async (status: 'pending' | 'delivered' | 'dead', at: string) => {
        const id = await store.deliveries.insert(
          {
            vendorId: vendor.id,
            partnerId: null,
            integrationId: null,
            messageId: null,
            eventType: 'status_update',
            body: '{}',
          },
          at,
        )
        assert.ok(id)
        await store.kysely
          .updateTable('webhook_deliveries')
          .set({ status, updated_at: at })
          .where('id', '=', id)
          .execute()
        await store.kysely
          .insertInto('webhook_attempts')
          .values({
            id: `a-${id}`,
            delivery_id: id,
            number: 1,
            trigger: 'scheduled',
            url: 'https://x',
            started_at: at,
            duration_ms: 1,
            status_code: 500,
            error: null,
            response_body: null,
            next_attempt_at: null,
          })
          .execute()
        return id
      }
      const oldDelivered = await make('delivered', old)
      const oldDead = await make('dead', old)
      const oldPending = await make('pending', old)
      const recentDead = await make('dead', recent)

      const cutoff = '2026-10-01T00:00:00.000Z'
      const pruned =
        (await store.deliveries.prune('delivered', cutoff, 500)) +
        (await store.deliveries.prune('dead', cutoff, 500))
      assert.equal(pruned, 2)
      const left = (await store.kysely.selectFrom('webhook_deliveries').select('id').execute()).map(
        (r) => r.id,
      )
      assert.deepEqual(left.sort(), [oldPending, recentDead].sort())
      const attempts = await store.kysely.selectFrom('webhook_attempts').select('delivery_id').execute()
      assert.ok(
        !attempts.some((a) => [oldDelivered, oldDead].includes(a.delivery_id)),
        'attempts go with them',
      )
    })
  })
}

// Access tokens' own purge: a token goes once the cut-off is past its expiry or its revocation,
// whichever came first; the others are kept.
for (const backend of backends('databases')) {
  describe(`purging access tokens (${backend})`, () => {
    let svc: TestService
    const clock = manualClock()
    before(async () => {
      svc = await startService({ backend, clock })
    })
    after(() => svc.close())

    const admin = (method: string, path: string, body?: unknown) =>
      svc.request(method, path, { token: svc.adminToken, body })
    const tokenFor = (s: Setup) => issueToken(svc, s)

    test('tokens that expired or were revoked a month ago are purged; the rest are kept', async () => {
      const s = await setupIntegration(svc, { vendorName: 'Purged' })
      const tokens = svc.services.store.tokens
      const list = async () =>
        (await tokens.listForVendor(s.vendorId, { limit: 100 })).map((t) => t.id).sort()
      const kept = await list()
      const old = (await admin('GET', `/api/admin/vendors/${s.vendorId}/tokens`)).body.data[0].id
      await tokenFor(s)
      const now = clock().toISOString()
      await admin('POST', `/api/admin/vendors/${s.vendorId}/tokens/${old}/revoke`)
      // Purging is for every vendor; this vendor's tokens are all newer than this cut-off.
      const all = await list()
      assert.equal(all.length, kept.length + 1)
      await tokens.purge(new Date(clock().getTime() - 1000).toISOString())
      assert.deepEqual(await list(), all)
      // A cut-off after the revocation and the expiry of everything: all go.
      const later = new Date(clock().getTime() + 2 * 3600 * 1000).toISOString()
      assert.ok(now < later)
      assert.ok((await tokens.purge(later)) >= all.length)
      assert.deepEqual(await list(), [])
    })

    test('a revoked token is purged a month after its revocation even if it has not expired', async () => {
      const s = await setupIntegration(svc, { vendorName: 'Revoked purge' })
      const ids = async () =>
        (await svc.services.store.tokens.listForVendor(s.vendorId, { limit: 100 })).map((t) => t.id).sort()
      const [revoked] = await ids()
      await tokenFor(s) // a second token, never revoked
      const at = (await admin('POST', `/api/admin/vendors/${s.vendorId}/tokens/${revoked}/revoke`)).body
        .revokedAt
      const justAfter = new Date(Date.parse(at) + 1000).toISOString()
      await svc.services.store.tokens.purge(justAfter)
      const left = await ids()
      assert.ok(!left.includes(revoked!), 'the revoked token is gone')
      assert.equal(left.length, 1, 'the other token, unexpired and not revoked, stays')
    })
  })
}
