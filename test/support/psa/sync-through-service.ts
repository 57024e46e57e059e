// Two-way sync through the whole service, against a PSA simulator (docs/psa/sync.md): a technician
// closes, reopens, merges and deletes tickets in the PSA and alertbridge hears it — by the PSA's push
// (its registration made by alertbridge, or by an administrator following the portal's steps) or, with
// pushes dropped, by the reconciliation poll — records an event with strategy `psa` and sends the
// vendor one signed status_update; the partner's closed-ticket policies and closeOnlyUntouched act on
// later alerts; a forged push is refused and changes nothing; our own writes never come back as
// changes; a burst of 250 pushes (each 25 times over) is absorbed without a 5xx and without more reads than tickets.
// A PSA heard by the poll alone: the sync status says why, a push to its connection's URL is refused
// and changes nothing, and a push an earlier version registered (Kaseya BMS's webhook) is removed by
// the register job, one try, even when the PSA fails it.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { pushUrls } from '../../../src/psa-sync/secrets.js'
import { type Hooked, hooked } from '../hooked.js'
import { type Backend, backends, startService, type TestService } from '../service.js'
import type { StartedSim } from '../sims/harness.js'
import type { PushSender, Technician } from '../sims/push.js'
import { hold, waitFor } from '../wait.js'
import type { ServiceFixture } from './through-service.js'

export type SyncSim = StartedSim<unknown> & { technician: Technician; pushes: PushSender }

export interface SyncServiceFixture<T extends SyncSim> {
  service: ServiceFixture<T>
  /** How pushes reach the service: registered through the PSA's API, set up by an administrator
   * (`setUpByHand`, as the portal's steps say), or poll (none: the poll alone). */
  push: 'registered' | 'manual' | 'poll'
  setUpByHand?(sim: T, url: string, secret: string): Promise<void>
  /** The simulator's calls that read tickets back (the burst counts them). */
  reads: { pattern: RegExp; method?: string }
  /** Whether the PSA can merge tickets (Syncro cannot). */
  merges: boolean
  /** Whether the push's signature covers its body (HaloPSA's Basic auth and NinjaOne's secret header sign nothing). */
  signsBody: boolean
  /** push 'poll': the sync status's sentence saying why (default: the PSA cannot push). */
  pollReason?: RegExp
  /**
   * push 'poll' where an earlier version of alertbridge registered a push with the PSA and this one
   * takes none (Kaseya BMS's webhooks): how that version's registration is made in the simulator,
   * pushing to `url` with `secret` (its id answered), the simulator's path of it, and whether the
   * simulator still holds it.
   */
  retiredPush?: {
    register(sim: T, url: string, secret: string): string
    path(id: string): string
    exists(sim: T, id: string): boolean
  }
  /** false: the registered push reports no status change (NinjaOne's: deletes and reinstates only),
   * so the scenarios are heard by the poll while the push stays registered (default true). */
  statusPushed?: boolean
}

const env = {
  ALLOW_PRIVATE_NETWORK: 'true',
  PSA_RETRY_SCHEDULE: '0.2,0.2,0.2',
  PSA_TIMEOUT_MS: '3000',
  SNAPSHOT_COALESCE_MS: '400',
  PSA_PUSH_COALESCE_MS: '200',
}
/** The poll is slow where pushes are tested (only a push can be that quick), quick where they are dropped. */
const pushEnv = { ...env, PSA_POLL_INTERVAL_MS: '120000', PSA_POLL_PUSH_INTERVAL_MS: '120000' }
const pollMs = 800
const pollEnv = { ...env, PSA_POLL_INTERVAL_MS: String(pollMs), PSA_POLL_PUSH_INTERVAL_MS: String(pollMs) }

interface Ctx<T extends SyncSim> {
  svc: TestService
  sim: T
  /** The vendors' webhook receivers, closed with the suite. */
  receivers: Hooked['receiver'][]
}

const newCtx = <T extends SyncSim>(): Ctx<T> => ({ receivers: [] }) as unknown as Ctx<T>

async function closeCtx<T extends SyncSim>(c: Ctx<T>): Promise<void> {
  await c.svc.close()
  await c.sim.close()
  for (const r of c.receivers) await r.close()
}

export function syncThroughService<T extends SyncSim>(
  f: SyncServiceFixture<T>,
  on: Backend[] = backends('databases'),
): void {
  const { service } = f
  for (const backend of on) {
    const withPush = f.push !== 'poll' && f.statusPushed !== false
    describe(`${service.name} two-way sync through the service (${backend})`, () => {
      const c = newCtx<T>()
      before(async () => {
        c.sim = await service.start()
        c.svc = await startService({ backend, env: { ...(withPush ? pushEnv : pollEnv), ...service.env } })
      })
      after(() => closeCtx(c))
      scenarios(f, c, withPush ? 'push' : 'poll')
      if (withPush) pushOnly(f, c)
      if (f.push === 'poll') pollOnly(f, c)
    })
    if (withPush)
      describe(`${service.name} two-way sync: pushes lost, the poll hears it (${backend})`, () => {
        const c = newCtx<T>()
        before(async () => {
          c.sim = await service.start()
          c.sim.pushes.drop(null)
          c.svc = await startService({ backend, env: { ...pollEnv, ...service.env } })
        })
        after(() => closeCtx(c))
        test('a technician closes, then reopens, with every push lost: each heard within a poll interval; RESOLVED closes again', async () => {
          const s = await connected(f, c)
          const { cid, psaId } = await created(c, s)
          await c.sim.technician.close(psaId)
          const started = Date.now()
          await waitFor(() => ticketIs(s, cid, 'closed'), {
            what: 'the ticket closed here',
            timeoutMs: pollMs * 4 + 3000,
          })
          assert.ok(Date.now() - started < pollMs * 4 + 3000)
          const update = await psaUpdate(s, cid, 'Ticket Closed In PSA')
          assert.equal(update.payload.payload.status, 'success')
          const events = await s.partner('GET', `/api/partner/events?correlationId=${cid}`)
          const psaEvent = events.body.data.find((e: { event: string }) => e.event === 'Ticket Closed In PSA')
          assert.equal(psaEvent.strategy, 'psa')
          // The poll reads tickets closed within the reopen window again: a reopen no push told is heard.
          const refused = await s.sync({ incidentStatus: 'RESOLVED' }, { correlationId: cid })
          assert.equal(refused.status, 409, refused.text)
          await c.sim.technician.reopen(psaId)
          await waitFor(() => ticketIs(s, cid, 'open'), {
            what: 'the ticket open here again',
            timeoutMs: pollMs * 4 + 3000,
          })
          await psaUpdate(s, cid, 'Ticket Reopened In PSA')
          const again = await s.sync({ incidentStatus: 'RESOLVED' }, { correlationId: cid })
          assert.equal(again.status, 200, again.text)
          assert.equal(f.service.ticket(c.sim, psaId).closed, true)
        })
      })
  }
}

/** A partner connected to the simulator, its push set up (by hand where the PSA needs it). */
async function connected<T extends SyncSim>(f: SyncServiceFixture<T>, c: Ctx<T>): Promise<Hooked> {
  const s = await hooked(c.svc, {
    psa: f.service.settings(c.sim.url),
    psaCompanyId: f.service.companyId,
    rule: { productGroup: 'Endpoint Security', ticket: { board: f.service.board } },
  })
  c.receivers.push(s.receiver)
  // Several tickets of one account in a test: each its own, not de-duplicated into one.
  const dedupOff = await s.partner('PATCH', `/api/partner/integrations/${s.integrationId}`, {
    deduplication: { enabled: false },
  })
  assert.equal(dedupOff.status, 200, dedupOff.text)
  const status = await waitFor(
    async () => {
      const r = await s.partner('GET', '/api/partner/psa/sync')
      return r.status === 200 && r.body.detail !== null ? r.body : null
    },
    { what: 'the sync status' },
  )
  if (f.push === 'manual' && f.setUpByHand) {
    assert.equal(status.mechanism, 'manual')
    assert.ok(status.instructions.length > 0)
    await f.setUpByHand(c.sim, status.pushUrl, status.pushSecret)
  }
  return s
}

async function created<T extends SyncSim>(c: Ctx<T>, s: Hooked, title = 'Malware on WS-042') {
  const r = await s.sync({ title })
  assert.equal(r.status, 201, r.text)
  const cid: string = r.body.data.correlationID
  const t = await c.svc.services.store.tickets.findByCorrelation(s.integrationId, cid)
  assert.ok(t?.psaTicketId)
  return { cid, psaId: t.psaTicketId }
}

async function ticketIs(s: Hooked, cid: string, status: 'open' | 'closed') {
  const r = await s.partner('GET', `/api/partner/tickets/${cid}`)
  return r.status === 200 && r.body.status === status ? r.body : null
}

/** The one status_update of a PSA-side event for the ticket. */
async function psaUpdate(s: Hooked, cid: string, event: string) {
  const of = () =>
    s.receiver
      .accepted('status_update')
      .filter((r) => r.body.payload.correlationId === cid && r.body.payload.event === event)
  await s.receiver.waitFor(() => of().length > 0, `${event} for ${cid}`)
  await hold(300, `a period in which a second ${event} would arrive`)
  assert.equal(of().length, 1, `one ${event}`)
  return of()[0]!.body
}

function scenarios<T extends SyncSim>(f: SyncServiceFixture<T>, c: Ctx<T>, via: 'push' | 'poll'): void {
  const wait = via === 'push' ? 5000 : pollMs * 4 + 3000

  test(`closed in the PSA → closed here by ${via}, one webhook, RESOLVED 409; reopened → open, RESOLVED closes`, async () => {
    const s = await connected(f, c)
    const { cid, psaId } = await created(c, s)
    await c.sim.technician.close(psaId)
    const closed = await waitFor(() => ticketIs(s, cid, 'closed'), { what: 'closed here', timeoutMs: wait })
    assert.equal(closed.closedBy, 'psa')
    assert.ok(closed.psaStatus, 'the PSA status name')
    await psaUpdate(s, cid, 'Ticket Closed In PSA')
    const resolved = await s.sync({ incidentStatus: 'RESOLVED' }, { correlationId: cid })
    assert.equal(resolved.status, 409, resolved.text)
    await c.sim.technician.reopen(psaId)
    await waitFor(() => ticketIs(s, cid, 'open'), { what: 'open here again', timeoutMs: wait })
    await psaUpdate(s, cid, 'Ticket Reopened In PSA')
    const again = await s.sync({ incidentStatus: 'RESOLVED' }, { correlationId: cid })
    assert.equal(again.status, 200, again.text)
    assert.equal(f.service.ticket(c.sim, psaId).closed, true)
    const events = await s.partner('GET', `/api/partner/events?correlationId=${cid}`)
    const psaEvents = events.body.data.filter((e: { strategy: string }) => e.strategy === 'psa')
    assert.deepEqual(psaEvents.map((e: { event: string }) => e.event).reverse(), [
      'Ticket Closed In PSA',
      'Ticket Reopened In PSA',
    ])
    const status = await s.partner('GET', '/api/partner/psa/sync')
    assert.ok(status.body.lastHeardAt, 'the portal shows when the PSA was last heard')
    // The connection test says it too.
    const tested = await s.partner('POST', '/api/partner/psa/test')
    assert.equal(tested.body.ok, true, tested.text)
    // At least as recent as the portal's: a poll or push may be heard between the two reads.
    assert.equal(tested.body.sync.mechanism, f.push === 'registered' ? 'push' : f.push)
    assert.ok(tested.body.sync.lastHeardAt >= status.body.lastHeardAt, JSON.stringify(tested.body.sync))
  })

  test('deleted in the PSA → closed and marked deleted; policy `new`: an UPDATE opens a new ticket that links it', async () => {
    const s = await connected(f, c)
    const patched = await s.partner('PATCH', `/api/partner/integrations/${s.integrationId}`, {
      closedTickets: { policy: 'new' },
    })
    assert.equal(patched.status, 200, patched.text)
    const { cid, psaId } = await created(c, s)
    await c.sim.technician.delete(psaId)
    const gone = await waitFor(() => ticketIs(s, cid, 'closed'), { what: 'closed here', timeoutMs: wait })
    assert.equal(gone.psaDeleted, true)
    await psaUpdate(s, cid, 'Ticket Deleted In PSA')
    const update = await s.sync({ incidentStatus: 'UPDATE', title: 'Still infected' }, { correlationId: cid })
    assert.equal(update.status, 201, update.text)
    const newCid: string = update.body.data.correlationID
    assert.notEqual(newCid, cid)
    const t = await c.svc.services.store.tickets.findByCorrelation(s.integrationId, newCid)
    assert.ok(t?.psaTicketId && t.psaTicketId !== psaId)
    const [event] = (await s.partner('GET', `/api/partner/events?correlationId=${newCid}`)).body.data
    assert.match(event.detail, new RegExp(`'${cid}' is closed`))
  })

  test('policy `reopen`: an UPDATE of a ticket closed in the PSA reopens it there with the alert as a note', async () => {
    const s = await connected(f, c)
    await s.partner('PATCH', `/api/partner/integrations/${s.integrationId}`, {
      closedTickets: { policy: 'reopen', reopenWindowMinutes: 60 },
    })
    const { cid, psaId } = await created(c, s)
    await c.sim.technician.close(psaId)
    await waitFor(() => ticketIs(s, cid, 'closed'), { what: 'closed here', timeoutMs: wait })
    const update = await s.sync({ incidentStatus: 'UPDATE', title: 'Came back' }, { correlationId: cid })
    assert.equal(update.status, 200, update.text)
    assert.equal(update.body.data.correlationID, cid)
    const inPsa = f.service.ticket(c.sim, psaId)
    assert.equal(inPsa.closed, false)
    assert.ok(inPsa.notes.some((n) => n.includes('Came back')))
    assert.ok(await ticketIs(s, cid, 'open'))
    const events = (await s.partner('GET', `/api/partner/events?correlationId=${cid}`)).body.data
    assert.equal(events[0].event, 'Ticket Reopened')
    // alertbridge's own reopen is no change in the PSA.
    await hold(800, 'a period in which a PSA-side reopen would be recorded')
    const after = (await s.partner('GET', `/api/partner/events?correlationId=${cid}`)).body.data
    assert.equal(after.filter((e: { event: string }) => e.event === 'Ticket Reopened In PSA').length, 0)
  })

  test('closeOnlyUntouched: a ticket a technician worked gets a note on RESOLVED and stays open', async () => {
    const s = await connected(f, c)
    await s.partner('PATCH', `/api/partner/integrations/${s.integrationId}`, {
      closedTickets: { closeOnlyUntouched: true },
    })
    const { cid, psaId } = await created(c, s)
    await c.sim.technician.note(psaId, 'Called the customer, reimaging WS-042')
    const r = await s.sync({ incidentStatus: 'RESOLVED' }, { correlationId: cid })
    assert.equal(r.status, 200, r.text)
    assert.equal(r.body.message, 'updated')
    const inPsa = f.service.ticket(c.sim, psaId)
    assert.equal(inPsa.closed, false)
    assert.ok(inPsa.notes.some((n) => n.includes('vendor reports this resolved')))
    assert.ok(await ticketIs(s, cid, 'open'))
    // An untouched one still closes.
    const other = await created(c, s, 'Another malware')
    const closing = await s.sync({ incidentStatus: 'RESOLVED' }, { correlationId: other.cid })
    assert.equal(closing.body.message, 'closed', closing.text)
  })

  if (f.merges)
    test('merged in the PSA → alertbridge follows the surviving ticket: later alerts append there', async () => {
      const s = await connected(f, c)
      const a = await created(c, s, 'Malware on WS-1')
      const b = await created(c, s, 'Malware on WS-2')
      await c.sim.technician.merge(a.psaId, b.psaId)
      await waitFor(
        async () => {
          const t = await c.svc.services.store.tickets.findByCorrelation(s.integrationId, a.cid)
          return t?.psaTicketId === b.psaId
        },
        { what: 'followed the survivor', timeoutMs: wait },
      )
      await psaUpdate(s, a.cid, 'Ticket Merged In PSA')
      const update = await s.sync(
        { incidentStatus: 'UPDATE', title: 'Spread to WS-3' },
        { correlationId: a.cid },
      )
      assert.equal(update.status, 200, update.text)
      assert.ok(f.service.ticket(c.sim, b.psaId).notes.some((n) => n.includes('Spread to WS-3')))
    })

  test('our own writes are no change: create, note and close make no PSA-side event', async () => {
    const s = await connected(f, c)
    const { cid } = await created(c, s)
    await s.sync({ incidentStatus: 'UPDATE' }, { correlationId: cid })
    await s.sync({ incidentStatus: 'RESOLVED' }, { correlationId: cid })
    await hold(via === 'push' ? 1200 : pollMs * 3, 'a period in which a PSA-side event would be recorded')
    const events = (await s.partner('GET', `/api/partner/events?correlationId=${cid}`)).body.data
    assert.deepEqual(
      events.filter((e: { strategy: string }) => e.strategy === 'psa'),
      [],
    )
  })
}

function pushOnly<T extends SyncSim>(f: SyncServiceFixture<T>, c: Ctx<T>): void {
  test('a forged, foreign or replayed push is refused or changes nothing', async () => {
    const s = await connected(f, c)
    const { cid, psaId } = await created(c, s)
    // A genuine push (a technician's note) to forge from; then the technician closes the ticket
    // with the push lost, so that any push taken now would read the close back.
    await c.sim.technician.note(psaId, 'noted')
    await c.sim.pushes.settled()
    // The note's push is read back from the PSA by a job: done before the close, or under load it
    // would read the close and hear it without any push.
    await waitFor(
      async () =>
        (
          await c.svc.services.db.kysely
            .selectFrom('jobs')
            .select('id')
            .where('kind', '=', 'psa-read')
            .execute()
        ).length === 0,
      { what: "the note's read-back" },
    )
    // Every partner of the suite is subscribed to the one simulator: this partner's delivery.
    const link = await c.svc.services.store.psaSync.find(s.partnerId)
    assert.ok(link)
    const ours = pushUrls(c.svc.url, link.secret).url
    const real = c.sim.pushes.deliveries.findLast((d) => d.url === ours)
    assert.ok(real, 'the note was pushed to this partner')
    await hold(600, 'the pushes of the other partners land before they are counted')
    const sent = c.sim.pushes.deliveries.length
    c.sim.pushes.drop(null)
    await c.sim.technician.close(psaId)
    await c.sim.pushes.settled()
    c.sim.pushes.drop(0)
    assert.equal(c.sim.pushes.deliveries.length, sent, 'the close was not pushed')
    const post = (url: string, body: string, headers = real.headers) =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body })
    if (f.signsBody) {
      const forged = await post(
        real.url,
        real.body.replace(/\d(?=\D*$)/, (d) => String((Number(d) + 1) % 10)),
      )
      assert.equal(forged.status, 401, await forged.text())
    }
    const unknown = await post(real.url.replace(/[^/]+$/, 'A'.repeat(43)), real.body)
    assert.equal(unknown.status, 401)
    const noAuth = await post(real.url, real.body, {})
    assert.equal(noAuth.status, 401)
    // The same push again is taken (200) but read no second time.
    const replayed = await post(real.url, real.body)
    assert.equal(replayed.status, 200)
    assert.equal(((await replayed.json()) as { received: number }).received, 0)
    await hold(800, 'a period in which a forged or replayed push would take effect')
    // The close was never pushed and the forgeries changed nothing: the ticket is open here.
    assert.ok(await ticketIs(s, cid, 'open'))
    // The unsigned one (and the forged one) counted against this connection; the unknown URL names none.
    const status = await s.partner('GET', '/api/partner/psa/sync')
    assert.equal(status.body.pushesRefused, f.signsBody ? 2 : 1)
  })

  test('a burst of 250 pushes: no 5xx, and no more reads than tickets changed', async () => {
    const s = await connected(f, c)
    const made = []
    for (let i = 0; i < 10; i++) made.push(await created(c, s, `Burst ${i}`))
    await c.sim.pushes.settled()
    await hold(600, 'the reads the creations caused end before they are counted')
    const readsBefore = c.sim.callsTo(f.reads.pattern, f.reads.method).length
    const sentBefore = c.sim.pushes.deliveries.length
    for (const t of made) await c.sim.technician.close(t.psaId)
    await c.sim.pushes.settled()
    const pushes = c.sim.pushes.deliveries.slice(sentBefore)
    assert.ok(pushes.length >= made.length, 'each close was pushed')
    const statuses: number[] = []
    const queue = Array.from({ length: 250 }, (_, i) => pushes[i % pushes.length]!)
    await Promise.all(
      Array.from({ length: 25 }, async () => {
        for (let p = queue.shift(); p; p = queue.shift()) {
          const r = await fetch(p.url, {
            method: 'POST',
            headers: { 'content-type': 'application/json', ...p.headers },
            body: p.body,
          })
          await r.arrayBuffer()
          statuses.push(r.status)
        }
      }),
    )
    assert.equal(statuses.length, 250)
    assert.deepEqual(
      statuses.filter((x) => x >= 500),
      [],
    )
    for (const t of made) await waitFor(() => ticketIs(s, t.cid, 'closed'), { what: `${t.cid} closed` })
    await hold(600, 'a period in which a read too many would be made')
    const reads = c.sim.callsTo(f.reads.pattern, f.reads.method).length - readsBefore
    assert.ok(reads <= made.length, `${reads} reads for ${made.length} changed tickets`)
  })
}

function pollOnly<T extends SyncSim>(f: SyncServiceFixture<T>, c: Ctx<T>): void {
  /** What a push taken would leave: ids pending, a read queued, the connection heard by a push. */
  const pushTraces = async (partnerId: string) => {
    const db = c.svc.services.db.kysely
    const pending = await db
      .selectFrom('psa_sync_pending')
      .select('psa_ticket_id')
      .where('partner_id', '=', partnerId)
      .execute()
    const reads = await db
      .selectFrom('jobs')
      .select('id')
      .where('kind', '=', 'psa-read')
      .where('payload', 'like', `%${partnerId}%`)
      .execute()
    const link = await c.svc.services.store.psaSync.find(partnerId)
    return {
      pending: pending.length,
      reads: reads.length,
      lastPushAt: link?.lastPushAt,
      refused: link?.pushesRefused,
    }
  }
  const nothingPushed = { pending: 0, reads: 0, lastPushAt: null, refused: 0 }
  const reason = f.pollReason ?? /cannot push ticket changes/

  test('heard by the poll alone: the sync status says why; a push to the connection’s URL is refused 401 and changes nothing', async () => {
    const s = await connected(f, c)
    const status = await s.partner('GET', '/api/partner/psa/sync')
    assert.equal(status.body.mechanism, 'poll')
    assert.match(status.body.detail, reason)
    assert.equal(status.body.pollIntervalMs, pollMs)
    const { psaId } = await created(c, s)
    const link = await c.svc.services.store.psaSync.find(s.partnerId)
    assert.ok(link)
    const body = JSON.stringify({ Data: { Id: Number(psaId) }, ticket_id: psaId, id: psaId })
    const pushed = await fetch(pushUrls(c.svc.url, link.secret).url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    })
    assert.equal(pushed.status, 401, await pushed.text())
    assert.deepEqual(await pushTraces(s.partnerId), nothingPushed)
  })

  const retired = f.retiredPush
  // The suite's last test: the webhook whose delete the PSA fails stays in the simulator till it closes.
  if (retired)
    test('a push an earlier version registered: refused; removed by the register job, one try, even when the PSA fails it', async () => {
      const s = await connected(f, c)
      const { psaId } = await created(c, s)
      const link = await c.svc.services.store.psaSync.find(s.partnerId)
      assert.ok(link)
      const url = pushUrls(c.svc.url, link.secret).url
      const store = c.svc.services.store.psaSync
      const path = (id: string) => new RegExp(`${retired.path(id)}$`)
      // What the earlier version left: the PSA's webhook to this connection's URL, and its row.
      const leftOver = async () => {
        const id = retired.register(c.sim, url, link.secret)
        await store.setRegistration(
          s.partnerId,
          { mechanism: 'push', registrationId: id, detail: `${f.service.name} webhook ${id}` },
          new Date().toISOString(),
        )
        return id
      }
      const heardByPollAlone = () =>
        waitFor(
          async () => {
            const now = await store.find(s.partnerId)
            return now?.mechanism === 'poll' && now.registrationId === null ? now : null
          },
          { what: 'the link heard by the poll alone, its registration cleared' },
        )

      const id = await leftOver()
      // The PSA pushes a technician's note to that webhook: every delivery refused, nothing taken.
      const sent = c.sim.pushes.deliveries.length
      await c.sim.technician.note(psaId, 'Looked at it')
      await c.sim.pushes.settled()
      const ours = c.sim.pushes.deliveries.slice(sent).filter((d) => d.url === url)
      assert.ok(ours.length > 0, 'the PSA pushed the note')
      assert.deepEqual([...new Set(ours.map((d) => d.status))], [401])
      assert.deepEqual(await pushTraces(s.partnerId), nothingPushed)

      // After an upgrade: the start queues the register job, which deletes the webhook.
      await c.svc.services.psaSync.psaSync.scheduleAll()
      const done = await heardByPollAlone()
      assert.match(done.detail ?? '', reason)
      assert.equal(retired.exists(c.sim, id), false, 'the PSA no longer holds it')
      assert.equal(c.sim.callsTo(path(id), 'DELETE').length, 1)
      const shown = await s.partner('GET', '/api/partner/psa/sync')
      assert.deepEqual([shown.body.mechanism, shown.body.pollIntervalMs], ['poll', pollMs])

      // The PSA fails the delete: one try (logged), the poll alone all the same, and no retry.
      const failing = await leftOver()
      c.sim.faults.set({ fail: { status: 503, count: null, match: `${retired.path(failing)}$` } })
      try {
        const again = await s.partner('POST', '/api/partner/psa/sync/register')
        assert.equal(again.status, 202, again.text)
        await heardByPollAlone()
        const tried = c.sim.callsTo(path(failing)).length
        assert.ok(tried >= 1, 'the delete was tried')
        await hold(1500, 'a period in which a retried register job would try the delete again')
        assert.equal(c.sim.callsTo(path(failing)).length, tried, 'not retried')
        assert.equal(retired.exists(c.sim, failing), true, 'the PSA still holds it')
      } finally {
        c.sim.faults.clear()
      }
    })
}
