// Two-way sync on Autotask, against the simulator: the sync contract (read-back, reopen, the ticket
// webhook), and Autotask's own: the webhook excludes alertbridge's API user (its own writes are not
// pushed back), what register creates, and the simulator deactivating a webhook after 25 consecutive
// failed callouts and calling its DeactivationUrl.
import assert from 'node:assert/strict'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, test } from 'node:test'
import { createOutboundHttp } from '../../../src/platform/outbound/http.js'
import type { PsaOperations } from '../../../src/psa/adapter.js'
import { autotaskPsa } from '../../../src/psa/autotask/adapter.js'
import { PsaRegistry } from '../../../src/psa/registry.js'
import { syncContract } from '../../support/psa/sync-contract.js'
import { type AutotaskSim, startAutotaskSim } from '../../support/sims/autotask/server.js'
import { TECH_RESOURCE_ID } from '../../support/sims/autotask/sync-seed.js'
import { API_RESOURCE_ID } from '../../support/sims/autotask/tickets.js'
import { sign } from '../../support/sims/autotask/webhooks.js'

const settings = { username: 'api-user@acme.example', secret: 'api-secret', integrationCode: 'TRACKING-ID-1' }

async function started(): Promise<{ sim: AutotaskSim; client: PsaOperations }> {
  const sim = await startAutotaskSim({ tickets: 20, pushRetryDelaysMs: [5, 5, 5, 5] })
  const http = createOutboundHttp({ allowPrivateNetwork: true, userAgent: 'alertbridge-test' })
  const registry = new PsaRegistry([autotaskPsa({ http, lookupRoot: `${sim.url}/ATServicesRest/` })])
  const c = registry.connect('p-at-sync', { kind: 'autotask', settings })
  if (!c.ok) throw new Error(c.failure.message)
  return { sim, client: c.client }
}

const fields = (sim: AutotaskSim) => ({
  companyId: String(sim.state.companies[0]?.id),
  board: 'Monitoring Alerts',
  priority: 'High',
  status: null,
  type: null,
})

syncContract('Autotask', async () => {
  const { sim, client } = await started()
  const find = (id: string) => {
    const t = sim.state.tickets.find((x) => String(x.id) === id)
    if (!t) throw new Error(`no Autotask ticket ${id}`)
    return t
  }
  return {
    client,
    ticket: fields(sim),
    technician: sim.technician,
    async state(id) {
      const t = find(id)
      const label = sim.state.picklists.Tickets?.status?.find((v) => v.value === String(t.status))?.label
      return {
        closed: t.status === 5 || t.completedDate !== null,
        statusName: label ?? String(t.status),
        notes: (sim.state.notes[id] ?? []).map((n) => n.description),
      }
    },
    push: {
      drop: (count) => sim.pushes.drop(count),
      settled: () => sim.pushes.settled(),
      forge(push) {
        const body = JSON.parse(push.rawBody.toString('utf8'))
        return { ...push, rawBody: Buffer.from(JSON.stringify({ ...body, Id: Number(body.Id) + 1 })) }
      },
      timestamped: true,
    },
    close: () => sim.close(),
  }
})

/** A loopback receiver answering `status`, keeping each body by path. */
async function receiver(status: number) {
  const got: { path: string; body: string }[] = []
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (c: Buffer) => {
      body += c.toString('utf8')
    })
    req.on('end', () => {
      got.push({ path: req.url ?? '', body })
      res.writeHead(status).end('{}')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/push`,
    got,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

describe('Autotask sync specifics', () => {
  let sim: AutotaskSim
  let client: PsaOperations
  before(async () => {
    ;({ sim, client } = await started())
  })
  after(() => sim.close())
  const call = () => ({ signal: AbortSignal.timeout(5000) })
  let n = 0
  const ticketCall = () => {
    const id = `at-sync-${n++}`
    return { ...call(), correlationId: id, ref: id, marker: id, adopt: false }
  }
  const create = async () => {
    const made = await client.createTicket(
      { ...fields(sim), summary: 'Disk full', description: 'C: 99%' },
      ticketCall(),
    )
    assert.ok(made.ok)
    return made.value.ticketId
  }

  test('register: a webhook on Status and Last Activity Date, excluding the API user’s resource', async (t) => {
    const r = await receiver(200)
    t.after(() => r.close())
    const target = { url: r.url, secret: 'k'.repeat(40), deactivationUrl: `${r.url}/off` }
    const reg = await client.push?.register(target, call())
    assert.ok(reg?.ok && reg.value.mode === 'registered')
    // Registering again replaces the webhook of this URL.
    const again = await client.push?.register(target, call())
    assert.ok(again?.ok && again.value.mode === 'registered')
    assert.equal(sim.state.ticketWebhooks.length, 1)
    const hook = sim.state.ticketWebhooks[0]
    assert.equal(String(hook?.id), again.value.registrationId)
    assert.equal(hook?.isSubscribedToUpdateEvents, true)
    assert.equal(hook?.isReady, true)
    const watched = sim.state.ticketWebhookFields
      .filter((f) => f.webhookID === hook?.id)
      .map((f) => f.fieldID)
    assert.deepEqual(watched.sort(), [28, 4].sort())
    assert.deepEqual(
      sim.state.ticketWebhookExcludedResources.map((x) => x.resourceID),
      [API_RESOURCE_ID],
    )

    // alertbridge's own note and close are not pushed; the technician's reopen is, naming the technician.
    const id = await create()
    assert.ok((await client.appendNote(id, 'still failing', ticketCall())).ok)
    assert.ok((await client.closeTicket(id, { note: 'Resolved', closedStatus: null }, ticketCall())).ok)
    await sim.pushes.settled()
    assert.equal(r.got.length, 0, 'our own writes are excluded')
    await sim.technician.reopen(id)
    await sim.pushes.settled()
    assert.equal(r.got.length, 1)
    const body = JSON.parse(r.got[0]?.body ?? '{}')
    assert.equal(body.Id, Number(id))
    assert.equal(body.PersonID, TECH_RESOURCE_ID)
    assert.equal(body.Action, 'Update')
    const read = await client.readTickets([id], call())
    assert.ok(read.ok)
    assert.equal(read.value[0]?.changedBy, 'Tess Tech')
    assert.equal(read.value[0]?.worked, true)

    // A delete is pushed too; unregistering twice is not a failure.
    await sim.technician.delete(id)
    await sim.pushes.settled()
    assert.equal(JSON.parse(r.got.at(-1)?.body ?? '{}').Action, 'Delete')
    assert.ok((await client.push?.unregister(again.value.registrationId, call()))?.ok)
    assert.ok((await client.push?.unregister(again.value.registrationId, call()))?.ok)
    assert.equal(sim.state.ticketWebhooks.length, 0)
  })

  test('verify: a push more than five minutes old, or unsigned, is refused', async () => {
    const secret = 'verify-secret'
    const raw = (at: Date) =>
      Buffer.from(
        JSON.stringify({
          Action: 'Update',
          EntityType: 'Ticket',
          Id: 1,
          EventTime: at.toISOString(),
          Fields: {},
        }),
      )
    const push = client.push
    assert.ok(push)
    const now = new Date()
    const fresh = raw(now)
    const good = await push.verify(
      { headers: { 'x-hook-signature': sign(fresh.toString(), secret) }, rawBody: fresh, secret, now },
      call(),
    )
    assert.deepEqual(good, { ok: true, ticketIds: ['1'] })
    const old = raw(new Date(now.getTime() - 6 * 60_000))
    const stale = await push.verify(
      { headers: { 'x-hook-signature': sign(old.toString(), secret) }, rawBody: old, secret, now },
      call(),
    )
    assert.equal(stale.ok, false)
    assert.equal((await push.verify({ headers: {}, rawBody: fresh, secret, now }, call())).ok, false)
  })

  test('the simulator deactivates a webhook after 25 consecutive failed callouts and calls its DeactivationUrl', async (t) => {
    const r = await receiver(500)
    t.after(() => r.close())
    const reg = await client.push?.register(
      { url: r.url, secret: 'deactivate-me', deactivationUrl: `${r.url}/off` },
      call(),
    )
    assert.ok(reg?.ok && reg.value.mode === 'registered')
    const registrationId = reg.value.registrationId
    const id = await create()
    for (let i = 0; i < 5; i++) {
      await (i % 2 === 0 ? sim.technician.close(id) : sim.technician.reopen(id))
      await sim.pushes.settled()
    }
    // Five callouts, each tried five times: 25 failures in a row.
    assert.equal(r.got.filter((g) => g.path === '/push').length, 25)
    assert.equal(r.got.filter((g) => g.path === '/push/off').length, 1)
    const hook = sim.state.ticketWebhooks.find((w) => String(w.id) === registrationId)
    assert.equal(hook?.isActive, false)
    await sim.technician.close(id)
    await sim.pushes.settled()
    assert.equal(r.got.length, 26, 'an inactive webhook calls nobody')
  })

  test('readRegistration reads the webhook back: active, inactive once Autotask deactivated it, gone once deleted', async (t) => {
    const r = await receiver(200)
    t.after(() => r.close())
    const push = client.push
    assert.ok(push?.readRegistration)
    const reg = await push.register(
      { url: `${r.url}/rr`, secret: 'read-me', deactivationUrl: `${r.url}/rr/off` },
      call(),
    )
    assert.ok(reg.ok && reg.value.mode === 'registered')
    const id = reg.value.registrationId
    assert.deepEqual(await push.readRegistration(id, call()), { ok: true, value: 'active' })
    // The simulator does what 25 failures do: inactive, and the DeactivationUrl called.
    assert.equal(await sim.deactivateWebhook(Number(id)), 200)
    assert.equal(r.got.filter((g) => g.path === '/push/rr/off').length, 1)
    assert.deepEqual(await push.readRegistration(id, call()), { ok: true, value: 'inactive' })
    assert.ok((await push.unregister(id, call())).ok)
    assert.deepEqual(await push.readRegistration(id, call()), { ok: true, value: 'gone' })
    assert.deepEqual(await push.readRegistration('not-an-id', call()), { ok: true, value: 'gone' })
  })

  test('readTickets: many ids in one query each; an id Autotask does not know reads deleted', async () => {
    const ids = [await create(), await create()]
    const before = sim.calls.length
    const read = await client.readTickets([...ids, '999999999', 'not-a-number'], call())
    assert.ok(read.ok)
    assert.deepEqual(
      read.value.map((r) => r.state),
      ['open', 'open', 'deleted', 'deleted'],
    )
    const queries = sim.calls.slice(before).map((c) => `${c.method} ${c.url.split('?')[0]}`)
    assert.equal(queries.filter((q) => /Tickets\/query$/.test(q)).length, 1, queries.join('\n'))
  })
})
