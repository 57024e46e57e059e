// The contract every PSA adapter runs (sandbox, ConnectWise, Autotask, …), through the same bound
// client the executor uses. Each adapter's fixture says only its specifics: how to start its PSA, the
// settings, how to look into the PSA's state and how to make it fail. The suite covers the whole
// ticket lifecycle, authentication, look-ups across pages, 429 storms, a 5xx then success, a timeout,
// and a crash between the PSA's create and our record (the retry adopts the ticket).
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { LookupKind, PsaOperations, PsaResult } from '../../../src/psa/adapter.js'
import type { LosableOp } from '../sims/harness.js'
import { hold } from '../wait.js'

export interface PsaTicketState {
  closed: boolean
  notes: string[]
  /** The title and description as the PSA holds them, where the fixture can read them. */
  title?: string
  description?: string
}

export interface ContractFixture {
  /** A client with good settings, and one whose credentials the PSA refuses (null: it has none). */
  client: PsaOperations
  badCredentials: PsaOperations | null
  /** The PSA company, board and statuses a ticket is created with (names or ids, as a partner sets them). */
  fields: { companyId: string; board: string | null; priority: string | null; status: string | null }
  /** A status name that sounds closed but that the PSA does not treat as closed, and one it does. */
  notClosingStatus: string | null
  closingStatus: string | null
  /**
   * Billing: a company whose agreements have at least one billing line, and a line's quantity as the
   * PSA holds it. null: this PSA's API cannot set billing quantities (the suite checks it says so).
   */
  billing: { companyId: string; quantity(lineId: string): Promise<number | null> } | null
  /** Look-ups with more entries than one page of the PSA holds (none: the PSA has no paging). */
  paged: { what: LookupKind[]; moreThan: number }
  tickets(): Promise<number>
  state(id: string): Promise<PsaTicketState>
  /** A technician closes the ticket in the PSA. */
  closeInPsa(id: string): Promise<void>
  /** The next `count` calls fail with this status (429 with a Retry-After of `retryAfterSeconds`). */
  failNext(status: number, count: number, retryAfterSeconds?: number): Promise<void>
  /**
   * The next call of a ticket operation is carried out by the PSA and its answer lost (the connection
   * drops after the effect). null: the PSA answers in this process and commits with the outcome.
   */
  loseNext: ((op: LosableOp) => Promise<void>) | null
  /** More tickets than one page of the PSA's ticket list holds are there before the suite starts. */
  seededTickets: number
  /** Every answer takes this long (0: no delay). */
  slow(ms: number): Promise<void>
  /** Calls the PSA has received so far (where it can count them). */
  calls(): number | null
  close(): Promise<void>
}

const call = (ms = 5000) => ({ signal: AbortSignal.timeout(ms) })
let n = 0
const ticketCall = (correlationId = `contract-${Date.now()}-${n++}`, adopt = false, ms = 5000) => ({
  ...call(ms),
  correlationId,
  ref: correlationId,
  marker: correlationId,
  adopt,
})

function value<T>(r: PsaResult<T>, what: string): T {
  assert.ok(r.ok, `${what}: ${r.ok ? '' : `${r.failure.kind} ${r.failure.message}`}`)
  return r.value
}

export function adapterContract(name: string, start: () => Promise<ContractFixture>): void {
  describe(`PSA adapter contract: ${name}`, () => {
    let f: ContractFixture
    before(async () => {
      f = await start()
    })
    after(() => f.close())

    const create = async (
      correlationId?: string,
      adopt = false,
      budgetMs = 5000,
      summary = 'Malware detected on WS-042',
    ) =>
      f.client.createTicket(
        { ...f.fields, type: null, summary, description: 'Trojan quarantined.' },
        ticketCall(correlationId, adopt, budgetMs),
      )

    test('lifecycle: create → append → close (resolution note first) → already closed', async () => {
      const before = await f.tickets()
      const made = value(await create(), 'create')
      assert.equal(made.adopted, false)
      assert.equal(await f.tickets(), before + 1)
      value(await f.client.appendNote(made.ticketId, 'Repeated alert: still there', ticketCall()), 'append')
      assert.ok((await f.state(made.ticketId)).notes.some((t) => t.includes('still there')))
      const closed = value(
        await f.client.closeTicket(
          made.ticketId,
          { note: 'Resolved: healed', closedStatus: null },
          ticketCall(),
        ),
        'close',
      )
      assert.equal(closed.alreadyClosed, false)
      const state = await f.state(made.ticketId)
      assert.equal(state.closed, true)
      assert.ok(
        state.notes.some((t) => t.includes('healed')),
        'the resolution note is on the ticket',
      )
      const again = value(
        await f.client.closeTicket(
          made.ticketId,
          { note: 'Resolved again', closedStatus: null },
          ticketCall(),
        ),
        'close again',
      )
      assert.equal(again.alreadyClosed, true)
    })

    test('a ticket a technician closed in the PSA is reported already closed', async () => {
      const made = value(await create(), 'create')
      await f.closeInPsa(made.ticketId)
      const r = value(
        await f.client.closeTicket(made.ticketId, { note: 'Resolved', closedStatus: null }, ticketCall()),
        'close',
      )
      assert.equal(r.alreadyClosed, true)
    })

    test('a status that only sounds closed does not close; the named closed status does', async (t) => {
      if (!f.notClosingStatus) return t.skip('this PSA has no such status')
      const made = value(await create(), 'create')
      value(
        await f.client.closeTicket(
          made.ticketId,
          { note: 'moved', closedStatus: f.notClosingStatus },
          ticketCall(),
        ),
        'close with a status that does not close',
      )
      assert.equal((await f.state(made.ticketId)).closed, false)
      if (f.closingStatus) {
        value(
          await f.client.closeTicket(
            made.ticketId,
            { note: 'closed', closedStatus: f.closingStatus },
            ticketCall(),
          ),
          'close with the named closed status',
        )
        assert.equal((await f.state(made.ticketId)).closed, true)
      }
    })

    test('a long title is cut to the PSA’s limit and the create still works', async () => {
      const made = value(await create(undefined, false, 5000, `Disk failure ${'x'.repeat(400)}`), 'create')
      assert.ok(made.ticketId)
    })

    test('a 300-character title and a 100 KB summary fit the PSA; so does a 100 KB note', async () => {
      const title = `Ransomware behaviour on ${'many hosts of the branch office '.repeat(9)}`.slice(0, 300)
      const summary = 'Process tree and evidence. '.repeat(4000)
      const made = value(
        await f.client.createTicket(
          { ...f.fields, type: null, summary: title, description: `${summary}\n\nMessage ID: m-long` },
          ticketCall(),
        ),
        'create',
      )
      const state = await f.state(made.ticketId)
      if (state.title !== undefined) {
        assert.ok(state.title.length < title.length, 'the title was cut')
        assert.ok(state.title.endsWith('…'), `the title says it was cut: ${state.title}`)
      }
      if (state.description !== undefined)
        assert.ok(state.description.includes(title), 'the whole title opens the description')
      const long = `Update: ${title}\n\n${summary}\n\nMessage ID: m-long-note`
      value(await f.client.appendNote(made.ticketId, long, ticketCall()), 'a long note')
      const notes = (await f.state(made.ticketId)).notes
      assert.ok(
        notes.some((n) => n.includes('m-long-note')),
        'the note keeps its Message ID when it is cut',
      )
    })

    describe('a lost answer (the PSA acted, the connection dropped)', () => {
      const lose = async (op: LosableOp, t: { skip(m: string): void }) => {
        if (!f.loseNext) {
          t.skip('this PSA answers in this process')
          return false
        }
        await f.loseNext(op)
        return true
      }

      test('create: the retry finds the ticket among more than a page of others and adopts it', async (t) => {
        assert.ok((await f.tickets()) > f.seededTickets - 1, 'the PSA holds more tickets than a page')
        const cid = `lost-create-${Date.now()}`
        const before = await f.tickets()
        if (!(await lose('create', t))) return
        const first = await create(cid)
        assert.equal(first.ok, false, 'the answer was lost')
        assert.equal(first.ok ? null : first.failure.retryable, true)
        assert.equal(await f.tickets(), before + 1, 'the PSA made it all the same')
        const again = value(await create(cid, true), 'retry')
        assert.equal(again.adopted, true)
        assert.equal(await f.tickets(), before + 1, 'exactly one ticket')
      })

      test('note: the retry finds the note and writes none', async (t) => {
        const made = value(await create(), 'create')
        const marker = `m-note-${Date.now()}`
        if (!(await lose('note', t))) return
        const note = `Update: still there\n\nMessage ID: ${marker}`
        const first = await f.client.appendNote(made.ticketId, note, { ...ticketCall(), marker })
        assert.equal(first.ok, false)
        value(
          await f.client.appendNote(made.ticketId, note, { ...ticketCall(), marker, adopt: true }),
          'retry',
        )
        const notes = (await f.state(made.ticketId)).notes.filter((n) => n.includes(marker))
        assert.equal(notes.length, 1, 'one note')
      })

      for (const op of ['close-note', 'close'] as const) {
        test(`close (${op === 'close' ? 'the status change' : 'the resolution note'} lost): closed, one resolution note`, async (t) => {
          const made = value(await create(), 'create')
          const marker = `m-${op}-${Date.now()}`
          if (!(await lose(op, t))) return
          const close = { note: `Resolved: healed\n\nMessage ID: ${marker}`, closedStatus: null }
          const first = await f.client.closeTicket(made.ticketId, close, { ...ticketCall(), marker })
          assert.equal(first.ok, false)
          const again = value(
            await f.client.closeTicket(made.ticketId, close, { ...ticketCall(), marker, adopt: true }),
            'retry',
          )
          assert.equal(again.alreadyClosed, false, 'closed by us, not by a technician')
          const state = await f.state(made.ticketId)
          assert.equal(state.closed, true)
          assert.equal(state.notes.filter((n) => n.includes(marker)).length, 1, 'one resolution note')
        })
      }
    })

    test('bad credentials: an auth failure that is not retried', async (t) => {
      if (!f.badCredentials) return t.skip('this PSA has no credentials')
      const r = await f.badCredentials.createTicket(
        { ...f.fields, type: null, summary: 's', description: 'd' },
        ticketCall(),
      )
      assert.equal(r.ok, false)
      assert.equal(r.ok ? null : r.failure.retryable, false)
      const test = await f.badCredentials.test(call())
      assert.equal(test.ok, false)
      assert.match(test.ok ? '' : test.failure.message, /./)
      const good = await f.client.test(call())
      assert.ok(good.ok, good.ok ? '' : good.failure.message)
    })

    test('look-ups list every entry, across every page', async () => {
      for (const what of ['companies', 'boards', 'priorities', 'statuses', 'types'] as const) {
        const list = value(
          await f.client.lookup(what, { board: f.fields.board ?? undefined }, call(20_000)),
          what,
        )
        assert.ok(list.length > 0, `${what} has entries`)
        assert.ok(list.every((e) => typeof e.id === 'string' && typeof e.name === 'string'))
      }
      const statuses = value(
        await f.client.lookup('statuses', { board: f.fields.board ?? undefined }, call()),
        's',
      )
      assert.ok(
        statuses.some((s) => s.closed === true),
        'a closed status is marked',
      )
      for (const what of f.paged.what) {
        const list = value(
          await f.client.lookup(what, { board: f.fields.board ?? undefined }, call(60_000)),
          what,
        )
        assert.ok(list.length > f.paged.moreThan, `${what}: ${list.length} entries, more than one page`)
        assert.equal(new Set(list.map((e) => e.id)).size, list.length, `${what}: no entry twice`)
      }
    })

    test('usage: billing lines of a company; a quantity is set, not added; a 5xx changes nothing', async () => {
      const effectiveDate = new Date().toISOString()
      if (!f.billing) {
        const r = await f.client.billingLines('any', call())
        assert.equal(r.ok, false)
        assert.equal(r.ok ? null : r.failure.retryable, false)
        return
      }
      const lines = value(await f.client.billingLines(f.billing.companyId, call(20_000)), 'billing lines')
      assert.ok(lines.length > 0, 'the company has billing lines')
      for (const l of lines) {
        assert.ok(
          l.id && l.name && l.agreementId,
          `a line names itself and its agreement: ${JSON.stringify(l)}`,
        )
        assert.ok(l.quantity === null || typeof l.quantity === 'number')
      }
      const line = lines[0]!
      value(await f.client.setQuantity(line.id, 7, { ...call(), effectiveDate }), 'set 7')
      assert.equal(await f.billing.quantity(line.id), 7)
      const second = value(await f.client.setQuantity(line.id, 3, { ...call(), effectiveDate }), 'set 3')
      assert.equal(await f.billing.quantity(line.id), 3, 'the second count is the new total')
      assert.ok(second.previous === null || second.previous === 7, `previous: ${second.previous}`)
      await f.failNext(503, 1)
      const failed = await f.client.setQuantity(line.id, 11, { ...call(), effectiveDate })
      assert.equal(failed.ok, false)
      assert.equal(failed.ok ? null : failed.failure.retryable, true)
      assert.equal(await f.billing.quantity(line.id), 3, 'a failed push changes nothing')
      value(await f.client.setQuantity(line.id, 11, { ...call(), effectiveDate }), 'retry')
      assert.equal(await f.billing.quantity(line.id), 11)
    })

    test('a 5xx is a retryable failure; the retry succeeds with one ticket', async () => {
      const before = await f.tickets()
      await f.failNext(503, 1)
      const cid = `five-${Date.now()}`
      const first = await create(cid)
      assert.equal(first.ok, false)
      assert.equal(first.ok ? null : first.failure.retryable, true)
      const second = value(await create(cid, true), 'retry')
      assert.ok(second.ticketId)
      assert.equal(await f.tickets(), before + 1)
    })

    test('a 429 storm: retryable with Retry-After, the limiter holds calls back, one ticket in the end', async () => {
      const before = await f.tickets()
      await f.failNext(429, 3, 1)
      const cid = `storm-${Date.now()}`
      const first = await create(cid)
      assert.equal(first.ok, false)
      const failure = first.ok ? null : first.failure
      assert.equal(failure?.kind, 'rate-limited')
      assert.ok((failure?.retryAfterMs ?? 0) >= 1000, 'the Retry-After is passed on')
      const callsAfterFirst = f.calls()
      const held = await create(cid, true)
      assert.equal(held.ok, false, 'held back while the PSA asked to wait')
      if (callsAfterFirst !== null)
        assert.equal(f.calls(), callsAfterFirst, 'no call reached the PSA meanwhile')
      // After the pause, attempts go on until the storm has passed (each 429 pauses again).
      let result: PsaResult<{ ticketId: string; adopted: boolean }> = held
      for (let i = 0; i < 6 && !result.ok; i++) {
        await hold(
          (result.ok ? 0 : (result.failure.retryAfterMs ?? 1000)) + 50,
          'the pause the PSA asked for',
        )
        result = await create(cid, true)
      }
      assert.ok(result.ok, result.ok ? '' : result.failure.message)
      assert.equal(await f.tickets(), before + 1, 'one ticket, however many tries')
    })

    test('a PSA slower than the time budget: a retryable timeout; the retry adopts what the PSA made after all', async () => {
      const before = await f.tickets()
      const cid = `slow-${Date.now()}`
      await f.slow(1500)
      try {
        const started = Date.now()
        const r = await create(cid, false, 300)
        assert.equal(r.ok, false)
        assert.deepEqual(r.ok ? null : [r.failure.kind, r.failure.retryable], ['timeout', true])
        assert.ok(Date.now() - started < 1400, 'answered when the budget ran out, not when the PSA did')
      } finally {
        await f.slow(0)
      }
      // The PSA may still have made the ticket after we gave up (a server does not see the abort).
      await hold(1600, 'the slow PSA finishes what it was asked, or does not: either may happen')
      value(await create(cid, true), 'retry')
      assert.equal(await f.tickets(), before + 1, 'one ticket, made late or by the retry')
    })

    test('a crash between the PSA’s create and our record: the retry adopts the ticket', async () => {
      const cid = `crash-${Date.now()}`
      const before = await f.tickets()
      const made = value(await create(cid), 'create')
      // … the process died here, before recording made.ticketId; the job runs again:
      const again = value(await create(cid, true), 'retry')
      assert.deepEqual([again.ticketId, again.adopted], [made.ticketId, true])
      assert.equal(await f.tickets(), before + 1)
    })
  })
}
