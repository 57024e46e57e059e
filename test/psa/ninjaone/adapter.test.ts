// The NinjaOne adapter's own rules: the closed statuses (a system name, or a parent's, RESOLVED or
// CLOSED; never a display name), NinjaOne's three error shapes, its HTML rate-limit page as a wait,
// epoch seconds or milliseconds, the comment's multipart body, the ticket update copied from the
// ticket read, what counts as a technician's work, the push's ticket ids; and against the simulator:
// a stale version re-read and PUT again, a machine token's refusal in words, a token NinjaOne
// refuses before its time renewed once, an HTML rate-limit page pausing the connection, the
// connection test's sentences.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { createOutboundHttp } from '../../../src/platform/outbound/http.js'
import { ninjaOnePsa } from '../../../src/psa/ninjaone/adapter.js'
import { epochMs, multipart, ninjaErrorText, rateLimitPage } from '../../../src/psa/ninjaone/client.js'
import { statusClosed, statusesOf } from '../../../src/psa/ninjaone/lists.js'
import { closingStatus, updateOf } from '../../../src/psa/ninjaone/notes.js'
import { workedIn } from '../../../src/psa/ninjaone/psa-sync.js'
import { ticketIds } from '../../../src/psa/ninjaone/push.js'
import { dedupeToken } from '../../../src/psa/ninjaone/tickets.js'
import { PsaRegistry } from '../../../src/psa/registry.js'
import { MemoryTokenStore } from '../../support/psa/memory-token-store.js'
import { seedStatuses } from '../../support/sims/ninjaone/seed.js'
import { type NinjaOneSim, parseMultipart, startNinjaOneSim } from '../../support/sims/ninjaone/server.js'

// As NinjaOne answers them: JSON.
const statuses = statusesOf(JSON.parse(JSON.stringify(seedStatuses())))

describe('NinjaOne rules', () => {
  test('closed: RESOLVED, CLOSED and statuses under them; not one that only reads closed', () => {
    const closed = statuses.filter((s) => s.closed).map((s) => s.name)
    assert.deepEqual(closed, ['Resolved', 'Closed', 'Done'])
    assert.equal(
      statusClosed(
        { statusId: 7001, name: 'CUSTOM_7001', displayName: 'Closed - Awaiting Customer', parentId: 3000 },
        statuses,
      ),
      false,
    )
    assert.equal(
      statusClosed({ statusId: 9999, name: 'CUSTOM', displayName: 'x', parentId: 6000 }, statuses),
      true,
    )
    assert.equal(statusClosed('5000', statuses), true)
    assert.equal(closingStatus(statuses, null)?.id, '6000')
    assert.equal(closingStatus(statuses, 'Done')?.id, '7002')
  })

  test("NinjaOne's error shapes and its HTML rate-limit page", () => {
    assert.equal(
      ninjaErrorText({ resultCode: 'FAILURE', errorMessage: 'subject is required', incidentId: 'i-1' }),
      'subject is required: FAILURE (incident i-1)',
    )
    assert.equal(
      ninjaErrorText({ error: 'invalid_token', error_description: 'Expired' }),
      'Expired: invalid_token',
    )
    assert.equal(ninjaErrorText({ errorCode: 'E1', message: 'no' }), 'no: E1')
    assert.equal(ninjaErrorText({}), null)
    assert.equal(rateLimitPage('<html><h1>Rate limit exceeded</h1></html>'), true)
    assert.equal(rateLimitPage('<html><h1>Not found</h1></html>'), false)
    assert.equal(rateLimitPage('rate limit'), false, 'only an HTML page')
  })

  test('times: epoch seconds, or milliseconds', () => {
    assert.equal(epochMs(1_764_700_000), 1_764_700_000_000)
    assert.equal(epochMs(1_764_700_000_123), 1_764_700_000_123)
    assert.equal(epochMs(1_764_700_000.5), 1_764_700_000_500)
    assert.equal(epochMs('1764700000'), 1_764_700_000_000)
    for (const v of [null, undefined, '', 'x', -1, 0]) assert.equal(epochMs(v), null)
  })

  test('the comment goes as the multipart part `comment`, its JSON intact', () => {
    const json = JSON.stringify({ public: false, body: 'line 1\r\n--not-a-boundary\r\nline 3' })
    const m = multipart({ comment: json })
    assert.match(m.contentType, /^multipart\/form-data; boundary=/)
    assert.deepEqual(parseMultipart(m.body, m.contentType), { comment: json })
  })

  test('an update copies what NinjaOne requires from the ticket read, with the new status', () => {
    const t = {
      id: 5,
      version: 4,
      clientId: 2,
      ticketFormId: 1,
      subject: 's',
      status: { statusId: 1000 },
      tags: ['x'],
    }
    assert.deepEqual(updateOf(t, '6000'), {
      version: 4,
      clientId: 2,
      ticketFormId: 1,
      subject: 's',
      status: '6000',
    })
    assert.equal(updateOf({ ...t, requesterUid: 'u-1' }, '6000').requesterUid, 'u-1')
  })

  test("a technician's work: another author's comment or save, or time; ours is not", () => {
    const ours = { type: 'DESCRIPTION', appUserContactId: 42 }
    assert.equal(workedIn([{ type: 'COMMENT', appUserContactId: 42 }, ours]), false)
    assert.equal(workedIn([{ type: 'COMMENT', appUserContactId: 7 }, ours]), true)
    assert.equal(workedIn([{ type: 'SAVE', appUserContactId: 7 }, ours]), true)
    assert.equal(workedIn([{ type: 'COMMENT', appUserContactId: 42, timeTracked: 60 }, ours]), true)
    assert.equal(workedIn([]), false)
  })

  test("a push's ticket ids: NINJA_TICKETING activities only, from ticketId or data", () => {
    const a = (more: Record<string, unknown>) => ({ activityType: 'NINJA_TICKETING', ...more })
    assert.deepEqual(
      ticketIds([a({ ticketId: 5 }), a({ data: { ticketId: '6' } }), a({ data: { ticket: { id: 7 } } })]),
      ['5', '6', '7'],
    )
    assert.deepEqual(ticketIds(a({ ticketId: 5 })), ['5'])
    assert.deepEqual(ticketIds([{ activityType: 'CONDITION', ticketId: 5 }, a({ ticketId: 'x' })]), [])
  })

  test('the dedupe token is short, tag-safe and the same for every attempt', () => {
    assert.equal(dedupeToken('cid-1'), dedupeToken('cid-1'))
    assert.notEqual(dedupeToken('cid-1'), dedupeToken('cid-2'))
    assert.match(dedupeToken('x'.repeat(500)), /^ab-[0-9a-f]{20}$/)
  })
})

describe('NinjaOne against its simulator', () => {
  const connect = (sim: NinjaOneSim, more: Record<string, unknown> = {}) => {
    const registry = new PsaRegistry([
      ninjaOnePsa(
        { http: createOutboundHttp({ allowPrivateNetwork: true, userAgent: 'alertbridge-test' }) },
        { tokens: new MemoryTokenStore() },
      ),
    ])
    const c = registry.connect('p-1', {
      kind: 'ninjaone',
      settings: {
        baseUrl: sim.url,
        clientId: sim.state.credentials.clientId,
        clientSecret: sim.state.credentials.clientSecret,
        refreshToken: sim.grant(),
        ...more,
      },
    })
    if (!c.ok) throw new Error(c.failure.message)
    return c.client
  }
  const ticket = {
    companyId: '1',
    board: null,
    priority: null,
    type: null,
    status: null,
    summary: 'Malware',
    description: 'Found.',
  }
  let n = 0
  const call = (adopt = false) => {
    const cid = `unit-${Date.now()}-${n++}`
    return { signal: AbortSignal.timeout(5000), correlationId: cid, ref: cid, marker: cid, adopt }
  }

  test('a close whose version went stale (the comment before it raised it) reads the ticket again and closes it', async (t) => {
    const sim = await startNinjaOneSim({ organizations: 3, tickets: 3 })
    t.after(() => sim.close())
    const c = connect(sim)
    const made = await c.createTicket(ticket, call())
    assert.ok(made.ok)
    const row = sim.state.tickets.find((x) => String(x.id) === made.value.ticketId)!
    // The resolution comment raises the version past the one read (as a technician's save would).
    const closed = await c.closeTicket(made.value.ticketId, { note: 'Resolved', closedStatus: null }, call())
    assert.ok(closed.ok, closed.ok ? '' : closed.failure.message)
    assert.equal(row.statusId, 6000)
    assert.equal(
      sim.callsTo(/\/ticket\/\d+$/, 'PUT').length,
      2,
      'one 409, then the PUT with the version read again',
    )
  })

  test("a machine token's ticket write: NinjaOne's refusal, not retried", async (t) => {
    const sim = await startNinjaOneSim({ organizations: 3, tickets: 3 })
    t.after(() => sim.close())
    const c = connect(sim)
    assert.ok((await c.lookup('statuses', {}, call())).ok)
    for (const token of Object.keys(sim.state.accessTokens)) sim.state.accessTokens[token]!.user = false
    const r = await c.createTicket(ticket, call())
    assert.deepEqual(r.ok ? null : [r.failure.kind, r.failure.retryable], ['forbidden', false])
    assert.match(r.ok ? '' : r.failure.message, /user context/)
  })

  test('a token NinjaOne refuses before its time is renewed once, and the call goes through', async (t) => {
    const sim = await startNinjaOneSim({ organizations: 3, tickets: 3 })
    t.after(() => sim.close())
    const c = connect(sim)
    assert.ok((await c.lookup('statuses', {}, call())).ok)
    sim.state.accessTokens = {}
    const r = await c.createTicket(ticket, call())
    assert.ok(r.ok, r.ok ? '' : r.failure.message)
    assert.equal(sim.callsTo(/\/ws\/oauth\/token$/, 'POST').length, 2)
  })

  test('an HTML rate-limit page is a wait: no ticket, the connection pauses, nothing reaches NinjaOne meanwhile', async (t) => {
    const sim = await startNinjaOneSim({ organizations: 3, tickets: 3 })
    t.after(() => sim.close())
    const c = connect(sim)
    assert.ok((await c.lookup('boards', {}, call())).ok)
    const before = sim.state.tickets.length
    sim.state.htmlRateLimit = 1
    const first = await c.createTicket(ticket, call())
    assert.equal(first.ok, false)
    const f = first.ok ? null : first.failure
    assert.deepEqual([f?.kind, f?.throttled, f?.retryable], ['rate-limited', true, true])
    assert.ok((f?.retryAfterMs ?? 0) >= 1000)
    assert.equal(sim.state.tickets.length, before)
    // The connection waits: the retry is held back without reaching NinjaOne.
    const calls = sim.calls.length
    const held = await c.createTicket(ticket, call(true))
    assert.deepEqual(held.ok ? null : [held.failure.kind, held.failure.throttled], ['rate-limited', true])
    assert.equal(sim.calls.length, calls, 'no call reached NinjaOne meanwhile')
  })

  test('the connection test says what new tickets get, or what is missing', async (t) => {
    const sim = await startNinjaOneSim({ organizations: 3, tickets: 3 })
    t.after(() => sim.close())
    const good = await connect(sim).test(call())
    assert.ok(good.ok)
    assert.match(good.value.detail, /ticket form 'Default'.*close with 'Resolved'/)
    const none = await connect(sim, { refreshToken: undefined }).test(call())
    assert.match(none.ok ? '' : none.failure.message, /Connect NinjaOne/)
    const wrongHost = await connect(sim, { clientId: 'other-region-client' }).test(call())
    assert.match(wrongHost.ok ? '' : wrongHost.failure.message, /region/)
  })
})
