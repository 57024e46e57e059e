// `POST /api/psa-push/{token}/deactivated` through the whole service, against every pushing PSA's
// simulator (docs/psa/sync.md, "Where pushes arrive"): only Autotask deactivates webhooks, so for
// HaloPSA, ConnectWise and NinjaOne the call is a 404 that changes nothing (Halo's push URL and secret
// stay in the partner's view); for Autotask it is believed only once Autotask reads the webhook back
// inactive (409 and no change while it reads active), and the partner's "register again" restores the
// push at once, whatever was queued before.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { pushUrls } from '../../../src/psa-sync/secrets.js'
import {
  autotaskService,
  connectWiseService,
  haloService,
  ninjaOneService,
} from '../../support/psa/service-fixtures.js'
import type { ServiceFixture } from '../../support/psa/through-service.js'
import { startService, type TestService } from '../../support/service.js'
import { expectFailure } from '../../support/shapes.js'
import type { AutotaskSim } from '../../support/sims/autotask/server.js'
import type { StartedSim } from '../../support/sims/harness.js'
import { waitFor } from '../../support/wait.js'

describe('the deactivation URL on every pushing PSA', () => {
  let svc: TestService
  const sims: StartedSim<unknown>[] = []
  before(async () => {
    svc = await startService({
      env: {
        ALLOW_PRIVATE_NETWORK: 'true',
        PSA_POLL_INTERVAL_MS: '600000',
        PSA_POLL_PUSH_INTERVAL_MS: '600000',
      },
    })
  })
  after(async () => {
    await svc.close()
    for (const sim of sims) await sim.close()
  })

  /** A partner connected to a fresh simulator of the kind, its push set up (the register job done). */
  async function connected<T extends StartedSim<unknown>>(f: ServiceFixture<T>) {
    const sim = await f.start()
    sims.push(sim)
    const created = await svc.request('POST', '/api/admin/partners', {
      token: svc.adminToken,
      body: { name: `${f.name} MSP`, psa: f.settings(sim.url) },
    })
    assert.equal(created.status, 201, created.text)
    const partnerId: string = created.body.id
    const partner = (method: string, path: string) =>
      svc.request(method, path, { token: created.body.apiKey as string })
    const status = await waitFor(
      async () => {
        const r = await partner('GET', '/api/partner/psa/sync')
        return r.status === 200 && r.body.mechanism !== 'poll' ? r.body : null
      },
      { what: 'the push set up' },
    )
    const link = await svc.services.store.psaSync.find(partnerId)
    assert.ok(link)
    const urls = pushUrls(svc.url, link.secret)
    return { sim, partnerId, partner, status, urls }
  }

  /** What a deactivation may change: the connection's sync row and its queued register jobs. */
  async function syncState(partnerId: string) {
    const link = await svc.services.store.psaSync.find(partnerId)
    const jobs = await svc.services.store.kysely
      .selectFrom('jobs')
      .select(['kind', 'run_at'])
      .where('kind', '=', 'psa-register')
      .where('payload', 'like', `%${partnerId}%`)
      .execute()
    return {
      mechanism: link?.mechanism,
      registrationId: link?.registrationId,
      detail: link?.detail,
      registeredAt: link?.registeredAt,
      jobs,
    }
  }

  const deactivate = (url: string, body?: string) =>
    fetch(url, {
      method: 'POST',
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body }),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as any, text: '', headers: r.headers }))

  for (const f of [haloService, connectWiseService, ninjaOneService] as ServiceFixture<StartedSim<unknown>>[])
    test(`${f.name}: the deactivation URL is a 404 and changes nothing`, async () => {
      const c = await connected(f)
      const before = await syncState(c.partnerId)
      const callsBefore = c.sim.calls.length
      for (const body of [undefined, '{}', JSON.stringify({ id: 1 })]) {
        const res = await deactivate(c.urls.deactivationUrl, body)
        expectFailure(res as never, 404, 'NOT_FOUND')
        assert.match(res.body.detail, /does not deactivate pushes/)
      }
      assert.deepEqual(await syncState(c.partnerId), before)
      assert.deepEqual(c.sim.calls.slice(callsBefore), [], 'the PSA was not asked')
      const after = await c.partner('GET', '/api/partner/psa/sync')
      // What the partner sees of the push (the poll's own times may move meanwhile).
      const shown = (b: Record<string, unknown>) => [
        b.mechanism,
        b.detail,
        b.instructions,
        b.pushUrl,
        b.pushSecret,
        b.registeredAt,
      ]
      assert.deepEqual(shown(after.body), shown(c.status), 'what the partner sees is unchanged')
      if (f === haloService) {
        assert.equal(after.body.mechanism, 'manual')
        assert.ok(after.body.pushUrl && after.body.pushSecret, "Halo's push URL and secret are still shown")
      }
    })

  test('a deactivation URL of no connection is a 401', async () => {
    const res = await deactivate(`${svc.url}/api/psa-push/${'A'.repeat(43)}/deactivated`)
    expectFailure(res as never, 401, 'UNAUTHENTICATED')
  })

  test('Autotask: believed only once the webhook reads inactive; registering again restores the push at once', async () => {
    const c = await connected(autotaskService as unknown as ServiceFixture<AutotaskSim>)
    const sim = c.sim as AutotaskSim
    assert.equal(c.status.mechanism, 'push')
    const before = await syncState(c.partnerId)
    const webhookId = Number(before.registrationId)
    assert.ok(sim.state.ticketWebhooks.some((w) => w.id === webhookId && w.isActive))

    // Active in Autotask: the call is no proof; it is read back, and nothing changes.
    const reads = () => sim.callsTo(new RegExp(`/TicketWebhooks/${webhookId}$`), 'GET').length
    const forged = await deactivate(c.urls.deactivationUrl, '{}')
    expectFailure(forged as never, 409, 'CONFLICT')
    assert.match(forged.body.detail, /active; nothing changed/)
    assert.equal(reads(), 1, 'the webhook was read back from Autotask')
    assert.deepEqual(await syncState(c.partnerId), before)

    // Autotask deactivates it (as after 25 failed deliveries) and calls the URL: believed now.
    assert.equal(await sim.deactivateWebhook(webhookId), 204)
    assert.equal(reads(), 2)
    const off = await c.partner('GET', '/api/partner/psa/sync')
    assert.equal(off.body.mechanism, 'poll')
    assert.match(off.body.detail, /Autotask deactivated push \d+/)
    assert.match(off.body.detail, /Register the push again/)
    const offState = await syncState(c.partnerId)
    assert.deepEqual(offState.jobs, [], 'nothing is queued to register it again by itself')
    // Autotask calling again: nothing more to do.
    expectFailure((await deactivate(c.urls.deactivationUrl, '{}')) as never, 409, 'CONFLICT')

    // The partner registers again: a new active webhook, the push back, without waiting.
    const again = await c.partner('POST', '/api/partner/psa/sync/register')
    assert.equal(again.status, 202, again.text)
    const back = await waitFor(
      async () => {
        const r = await c.partner('GET', '/api/partner/psa/sync')
        return r.body.mechanism === 'push' ? r.body : null
      },
      { what: 'the push registered again' },
    )
    assert.match(back.detail, /Autotask ticket webhook \d+/)
    const hooks = sim.state.ticketWebhooks
    assert.equal(hooks.length, 1, 'the deactivated webhook was replaced')
    assert.notEqual(hooks[0]?.id, webhookId)
    assert.equal(hooks[0]?.isActive, true)
  })

  test('a register job queued for later does not hold back the partner’s request', async () => {
    const c = await connected(haloService as ServiceFixture<StartedSim<unknown>>)
    const registered = (await svc.services.store.psaSync.find(c.partnerId))?.registeredAt
    // As an older installation queued after a deactivation: a register job an hour from now.
    await svc.services.store.transaction((tx) =>
      svc.services.queue.enqueue(tx, [
        {
          id: '01900000-0000-7000-8000-00000000abcd',
          kind: 'psa-register',
          payload: { partnerId: c.partnerId },
          dedupeKey: `psa-register:${c.partnerId}`,
          runAt: new Date(Date.now() + 3_600_000),
        },
      ]),
    )
    const again = await c.partner('POST', '/api/partner/psa/sync/register')
    assert.equal(again.status, 202, again.text)
    await waitFor(
      async () => {
        const link = await svc.services.store.psaSync.find(c.partnerId)
        return link?.registeredAt && link.registeredAt !== registered ? link : null
      },
      { what: 'registered again now' },
    )
  })
})
