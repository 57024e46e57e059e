// The two-way sync contract every PSA adapter runs (docs/psa/sync.md), against its simulator: tickets
// read back as the PSA holds them after a technician closes, reopens, merges, deletes or works them;
// reopening through the API; and, where the PSA pushes, registering the push through the PSA's API,
// receiving what the simulator sends when a technician changes a ticket, verifying it, and refusing a
// forged or stale one. Each PSA's fixture says only its specifics.
import assert from 'node:assert/strict'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, test } from 'node:test'
import type { NewPsaTicket, PsaOperations, PsaResult } from '../../../src/psa/adapter.js'

export interface ReceivedPush {
  headers: IncomingHttpHeaders
  rawBody: Buffer
}

export interface SyncFixture {
  /** A client with good settings. */
  client: PsaOperations
  /** The fields of a new ticket (company, board, …). */
  ticket: Omit<NewPsaTicket, 'summary' | 'description'>
  /** A technician acts on a ticket in the PSA (not through alertbridge's API user). */
  technician: {
    close(id: string): Promise<void>
    reopen(id: string): Promise<void>
    /** Merges `id` into `into`: `id` stops being a ticket of its own. */
    merge(id: string, into: string): Promise<void>
    delete(id: string): Promise<void>
    note(id: string, text: string): Promise<void>
    /** A time entry, where the PSA has them (else a note). */
    time(id: string): Promise<void>
  }
  /** The ticket's status name, closed or not, and its notes' texts, as the PSA holds them. */
  state(id: string): Promise<{ closed: boolean; statusName: string; notes: string[] }>
  /**
   * The push, where the PSA has one the API registers: how to make a push of `secret` verify (the
   * fixture's own copy of the secret) and the simulator's switch that drops pushes. null: this PSA has
   * no API-registered push (HaloPSA's is set up by hand, Syncro has none).
   */
  push: {
    /** Drop the next `count` pushes (null: every one; 0: none). */
    drop(count: number | null): void
    /** Every push in flight has been delivered. */
    settled(): Promise<void>
    /** A push as the simulator would send it for the ticket, but changed after signing (forged). */
    forge(push: ReceivedPush): ReceivedPush
    /** The push carries its own time, so one older than five minutes is refused as stale. */
    timestamped: boolean
    /** false: the PSA signs with a key of its own (ConnectWise's key_url), so the connection's secret
     * plays no part in verify (default true). */
    signedWithSecret?: boolean
  } | null
  /**
   * Whether the PSA merges tickets in a way its API shows (default true). false: it has no merge, the
   * fixture's technician.merge closes the ticket with a note instead, and the merged read is not checked.
   */
  merges?: boolean
  close(): Promise<void>
}

const call = (ms = 5000) => ({ signal: AbortSignal.timeout(ms) })
let n = 0
const ticketCall = () => {
  const correlationId = `sync-${Date.now()}-${n++}`
  return { ...call(), correlationId, ref: correlationId, marker: correlationId, adopt: false }
}

function value<T>(r: PsaResult<T>, what: string): T {
  assert.ok(r.ok, `${what}: ${r.ok ? '' : `${r.failure.kind} ${r.failure.message}`}`)
  return r.value
}

/** A loopback receiver that keeps every push it gets and answers 200. */
async function receiver(): Promise<{ url: string; got: ReceivedPush[]; close(): Promise<void> }> {
  const got: ReceivedPush[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      got.push({ headers: req.headers, rawBody: Buffer.concat(chunks) })
      res.writeHead(200).end('{}')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/push`,
    got,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

export function syncContract(name: string, start: () => Promise<SyncFixture>): void {
  describe(`PSA sync contract: ${name}`, () => {
    let f: SyncFixture
    before(async () => {
      f = await start()
    })
    after(() => f.close())

    const create = async () =>
      value(
        await f.client.createTicket(
          { ...f.ticket, summary: 'Malware detected on WS-042', description: 'Trojan quarantined.' },
          ticketCall(),
        ),
        'create',
      ).ticketId
    const read = async (ids: string[]) => value(await f.client.readTickets(ids, call()), 'readTickets')
    const readOne = async (id: string) => {
      const [r] = await read([id])
      assert.ok(r, `a read for ${id}`)
      assert.equal(r.ticketId, id)
      return r
    }

    test('a new ticket reads open and unworked; alertbridge’s own note and close do not count as work', async () => {
      const id = await create()
      const r = await readOne(id)
      assert.equal(r.state, 'open')
      assert.equal(r.worked, false)
      assert.ok(r.statusName, 'an open ticket has a status name')
      value(await f.client.appendNote(id, 'Repeated alert: still there', ticketCall()), 'note')
      assert.equal((await readOne(id)).worked, false, 'our own note is not a technician’s work')
    })

    test('a technician closes, reopens: each read says so, with the status name', async () => {
      const id = await create()
      await f.technician.close(id)
      const closed = await readOne(id)
      assert.equal(closed.state, 'closed')
      assert.equal(closed.statusName, (await f.state(id)).statusName)
      await f.technician.reopen(id)
      assert.equal((await readOne(id)).state, 'open')
    })

    test('merged and deleted tickets read as such; many ids are read at once', async () => {
      const [a, b, c, d] = [await create(), await create(), await create(), await create()]
      await f.technician.merge(a, b)
      await f.technician.delete(c)
      const reads = await read([a, b, c, d])
      const by = new Map(reads.map((r) => [r.ticketId, r]))
      if (f.merges !== false) {
        assert.equal(by.get(a)?.state, 'merged')
        assert.equal(by.get(a)?.mergedInto, b)
      } else assert.equal(by.get(a)?.state, 'closed', 'without a merge, the technician closed it')
      assert.equal(by.get(b)?.state, 'open')
      assert.equal(by.get(c)?.state, 'deleted')
      assert.equal(by.get(d)?.state, 'open')
    })

    test('a technician’s note or time entry marks the ticket worked', async () => {
      const noted = await create()
      await f.technician.note(noted, 'Called the customer')
      assert.equal((await readOne(noted)).worked, true)
      const timed = await create()
      await f.technician.time(timed)
      assert.equal((await readOne(timed)).worked, true)
    })

    test('reopenTicket puts a closed ticket back to an open status with the note', async () => {
      const id = await create()
      await f.technician.close(id)
      value(
        await f.client.reopenTicket(
          id,
          { note: 'The alert came back: reopened', openStatus: null },
          ticketCall(),
        ),
        'reopen',
      )
      const s = await f.state(id)
      assert.equal(s.closed, false)
      assert.ok(s.notes.some((t) => t.includes('came back')))
      assert.equal((await readOne(id)).state, 'open')
    })

    test('push: registered through the API, a technician’s change arrives signed, a forged one is refused', async (t) => {
      const push = f.push
      if (!f.client.push || !push) {
        assert.equal(f.push, null, 'a fixture with a push needs a kind with one')
        return t.skip('this PSA has no push registered through its API')
      }
      const r = await receiver()
      t.after(() => r.close())
      const secret = 'sync-contract-secret-0123456789abcdef'
      const target = { url: r.url, secret, deactivationUrl: `${r.url}/deactivated` }
      const reg = value(await f.client.push.register(target, call()), 'register')
      assert.equal(reg.mode, 'registered')
      const id = await create()
      await push.settled()
      r.got.length = 0
      await f.technician.close(id)
      await push.settled()
      assert.ok(r.got.length >= 1, 'the technician’s close was pushed')
      const got = r.got.at(-1)
      assert.ok(got)
      const ok = await f.client.push.verify({ ...got, secret, now: new Date() }, call())
      assert.deepEqual(ok, { ok: true, ticketIds: [id] })
      if (push.signedWithSecret !== false) {
        const wrongSecret = await f.client.push.verify(
          { ...got, secret: `${secret}x`, now: new Date() },
          call(),
        )
        assert.equal(wrongSecret.ok, false)
      }
      const forged = await f.client.push.verify({ ...push.forge(got), secret, now: new Date() }, call())
      assert.equal(forged.ok, false)
      if (push.timestamped) {
        const later = new Date(Date.now() + 10 * 60_000)
        assert.equal((await f.client.push.verify({ ...got, secret, now: later }, call())).ok, false, 'stale')
      }
      push.drop(1)
      r.got.length = 0
      await f.technician.reopen(id)
      await push.settled()
      assert.equal(r.got.length, 0, 'a dropped push never arrives')
      push.drop(0)
      if (reg.mode === 'registered')
        value(await f.client.push.unregister(reg.registrationId, call()), 'unregister')
      await f.technician.close(id)
      await push.settled()
      assert.equal(r.got.length, 0, 'nothing is pushed once unregistered')
    })
  })
}
