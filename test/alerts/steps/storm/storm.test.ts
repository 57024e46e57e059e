// Row `storm` of the decision table (docs/decision-table.md#storm), without I/O: past the cap an OPEN
// folds into the account's storm ticket; a folded incident's UPDATE and RESOLVED are lines, the RESOLVED
// of the last open one (self-healing on) answered closed; and the helpers that settings, notes and the
// closing rely on.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { type Decision, decide } from '../../../../src/alerts/domain/decide.js'
import { immediateAnswer } from '../../../../src/alerts/intake/immediate-answer.js'
import {
  type FoldedAlert,
  pastCap,
  type StormFacts,
  stormClosedOutcome,
  stormKey,
  stormLine,
  stormNote,
  stormOutcome,
  stormResolved,
  stormTitle,
} from '../../../../src/alerts/steps/storm/storm.js'
import type { Ticket } from '../../../../src/platform/core/types.js'
import {
  defaultStormSettings,
  parseStormSettings,
  type StormSettings,
} from '../../../../src/tenants/integrations/storm-settings.js'
import { ctx, settings, ticket } from '../../../support/decision.js'

const on = (over: Partial<StormSettings> = {}): StormSettings => ({
  ...defaultStormSettings(),
  enabled: true,
  ...over,
})
const facts = (over: Partial<StormFacts> = {}): StormFacts => ({
  accountCreates: 0,
  integrationCreates: 0,
  current: null,
  folded: null,
  ...over,
})
const stormTicket = (over: Partial<Ticket> = {}): Ticket =>
  ticket({
    id: 'storm-1',
    correlationId: 'storm-cid',
    dedupKey: stormKey('acme'),
    lastOccurrenceAt: '2026-11-22T11:58:00.000Z',
    ...over,
  })
const folded = (over: Partial<FoldedAlert> = {}): FoldedAlert => ({
  id: 'f-1',
  stormTicketId: 'storm-1',
  correlationId: null,
  dedupKey: 'key',
  title: 'Malware',
  status: 'open',
  ...over,
})
const storm = (d: Decision) => {
  assert.equal(d.kind, 'storm', `expected row storm, got ${d.kind}`)
  return d as Extract<Decision, { kind: 'storm' }>
}

describe('decide: row storm (storm control)', () => {
  test('off by default: a past cap changes nothing, the OPEN creates', () => {
    const d = decide(ctx({}, { storm: facts({ accountCreates: 50 }) }))
    assert.equal(d.kind, 'create')
  })

  test('under the cap the OPEN creates; at the cap it opens the storm ticket', () => {
    const integration = settings({ storm: on({ maxTicketsPerAccount: 10 }) })
    assert.equal(decide(ctx({}, { integration, storm: facts({ accountCreates: 9 }) })).kind, 'create')
    const s = storm(decide(ctx({}, { integration, storm: facts({ accountCreates: 10 }) })))
    assert.equal(s.step, 'open')
    if (s.step !== 'open') return
    assert.equal(s.ticket, null)
    assert.equal(s.correlationId, 'new-cid')
    assert.equal(s.retireTicketId, null)
    assert.equal(s.dedupKey, 'key')
    assert.match(s.why, /10 tickets were created for account 'acme' in the last 10 minutes \(cap 10\)/)
  })

  test('under the cap the create carries the settings its reservation counts against again; off or a test alert: none', () => {
    const integration = settings({ storm: on({ maxTicketsPerAccount: 3, maxTicketsPerIntegration: 7 }) })
    const under = decide(ctx({}, { integration, storm: facts({ accountCreates: 2 }) }))
    assert.equal(under.kind, 'create')
    if (under.kind !== 'create') return
    assert.deepEqual(under.stormCap, on({ maxTicketsPerAccount: 3, maxTicketsPerIntegration: 7 }))
    // Off: no count and no lock where the reservation is made.
    const off = decide(ctx({}, { storm: facts() }))
    assert.equal(off.kind === 'create' && off.stormCap, undefined)
    // A test alert is never folded, so it is not counted again either.
    const t = decide(ctx({ test: true }, { integration, storm: facts() }))
    assert.equal(t.kind === 'create' && t.stormCap, undefined)
  })

  test('past the cap the OPEN folds into the open storm ticket within its window', () => {
    const integration = settings({ storm: on() })
    const current = stormTicket()
    const s = storm(decide(ctx({}, { integration, storm: facts({ accountCreates: 12, current }) })))
    assert.ok(s.step === 'open' && s.ticket?.id === 'storm-1')
    assert.equal(s.correlationId, 'storm-cid')
  })

  test('a storm ticket whose window has passed gives the key up to a new one', () => {
    const integration = settings({ storm: on({ windowMinutes: 10 }) })
    const current = stormTicket({ lastOccurrenceAt: '2026-11-22T11:40:00.000Z' })
    const s = storm(decide(ctx({}, { integration, storm: facts({ accountCreates: 12, current }) })))
    assert.ok(s.step === 'open')
    assert.equal(s.ticket, null)
    assert.equal(s.retireTicketId, 'storm-1')
  })

  test('a test alert is never folded', () => {
    const integration = settings({ storm: on() })
    assert.equal(
      decide(ctx({ test: true }, { integration, storm: facts({ accountCreates: 99 }) })).kind,
      'create',
    )
  })

  test('the integration-wide cap folds too', () => {
    const integration = settings({ storm: on({ maxTicketsPerIntegration: 20 }) })
    const s = storm(
      decide(ctx({}, { integration, storm: facts({ accountCreates: 2, integrationCreates: 20 }) })),
    )
    assert.match(s.why, /20 tickets were created for this integration/)
  })

  test('storm comes after repeat: an open ticket of the dedup key still takes the OPEN', () => {
    const integration = settings({ storm: on() })
    const d = decide(ctx({}, { integration, dedupTicket: ticket(), storm: facts({ accountCreates: 99 }) }))
    assert.equal(d.kind, 'append')
  })

  test('storm comes after suppression and the account checks', () => {
    const integration = settings({ storm: on(), ticketCreation: false })
    const d = decide(ctx({}, { integration, storm: facts({ accountCreates: 99 }) }))
    assert.equal(d.kind, 'done')
    const unmapped = decide(
      ctx(
        {},
        { integration: settings({ storm: on() }), mappings: new Map(), storm: facts({ accountCreates: 99 }) },
      ),
    )
    assert.equal(unmapped.kind, 'done')
  })

  test('a repeat of a folded incident still open folds again, under the cap too', () => {
    const integration = settings({ storm: on() })
    const t = stormTicket()
    const s = storm(
      decide(
        ctx({}, { integration, storm: facts({ accountCreates: 0, folded: { alert: folded(), ticket: t } }) }),
      ),
    )
    assert.ok(s.step === 'open' && s.folded?.id === 'f-1' && s.ticket?.id === 'storm-1')
  })

  test("an OPEN naming the storm ticket's correlationId folds into it, not a note per alert", () => {
    const t = stormTicket()
    const s = storm(decide(ctx({ correlationId: 'storm-cid' }, { ticket: t })))
    assert.ok(s.step === 'open' && s.ticket?.id === 'storm-1' && s.folded === null)
  })

  test('UPDATE and RESOLVED of a folded incident are lines of its storm ticket (unfold)', () => {
    const t = stormTicket()
    for (const incidentStatus of ['UPDATE', 'RESOLVED'] as const) {
      const s = storm(
        decide(
          ctx(
            { incidentStatus, correlationId: 'vendor-1' },
            { storm: facts({ folded: { alert: folded({ correlationId: 'vendor-1' }), ticket: t } }) },
          ),
        ),
      )
      assert.ok(s.step === 'follow-up' && s.folded?.id === 'f-1' && s.ticket.id === 'storm-1')
    }
  })

  test('RESOLVED of the last open folded incident, self-healing on, closes: answered closed', () => {
    const t = stormTicket()
    const resolved = (
      openInStorm: number,
      over: Parameters<typeof ctx>[1] = {},
      status: FoldedAlert['status'] = 'open',
    ) =>
      storm(
        decide(
          ctx(
            { incidentStatus: 'RESOLVED', correlationId: 'vendor-1' },
            { storm: facts({ folded: { alert: folded({ status }), ticket: t }, openInStorm }), ...over },
          ),
        ),
      )
    const last = resolved(1)
    assert.ok(last.step === 'follow-up' && last.closes)
    assert.deepEqual(immediateAnswer(last), {
      message: 'closed',
      httpStatus: 200,
      correlationId: 'storm-cid',
      error: null,
      detail: null,
    })
    // Earlier ones, self-healing off, or an incident resolved already: a line as before, updated.
    for (const d of [resolved(2), resolved(1, { integration: settings({ selfHealing: false }) })]) {
      assert.ok(d.step === 'follow-up' && !d.closes)
      assert.equal(immediateAnswer(d).message, 'updated')
    }
    const again = resolved(0, {}, 'resolved')
    assert.ok(again.step === 'follow-up' && !again.closes)
    const update = storm(
      decide(
        ctx(
          { incidentStatus: 'UPDATE', correlationId: 'vendor-1' },
          { storm: facts({ folded: { alert: folded(), ticket: t }, openInStorm: 1 }) },
        ),
      ),
    )
    assert.ok(update.step === 'follow-up' && !update.closes)
  })

  test('RESOLVED naming the storm ticket without a matching folded incident is still a line', () => {
    const s = storm(
      decide(ctx({ incidentStatus: 'RESOLVED', correlationId: 'storm-cid' }, { ticket: stormTicket() })),
    )
    assert.ok(s.step === 'follow-up' && s.folded === null)
  })

  test('a closed storm ticket: RESOLVED is already-closed, UPDATE update-closed', () => {
    const t = stormTicket({ status: 'closed', closedAt: '2026-11-22T11:59:00.000Z' })
    const f = { storm: facts({ folded: { alert: folded(), ticket: t } }) }
    const resolved = decide(ctx({ incidentStatus: 'RESOLVED', correlationId: 'v' }, f))
    assert.ok(resolved.kind === 'done' && resolved.outcome.row === 'already-closed')
    const update = decide(ctx({ incidentStatus: 'UPDATE', correlationId: 'v' }, f))
    assert.ok(update.kind === 'done' && update.outcome.row === 'update-closed')
  })

  test('a folded alert is answered 200 updated with the storm ticket’s correlationId', () => {
    const o = stormOutcome('storm-cid', 'why')
    assert.equal(o.row, 'storm')
    assert.equal(o.httpStatus, 200)
    assert.equal(o.message, 'updated')
    assert.equal(o.correlationId, 'storm-cid')
    assert.equal(o.event?.name, 'Ticket Updated')
  })

  test('the last RESOLVED is answered as a RESOLVED that closes a ticket, with the storm ticket’s correlationId', () => {
    const o = stormClosedOutcome('storm-cid', 'why')
    assert.deepEqual(
      [o.row, o.httpStatus, o.message, o.correlationId, o.event, o.detail],
      ['storm', 200, 'closed', 'storm-cid', { name: 'Ticket Closed', status: 'success' }, 'why'],
    )
  })
})

describe('storm helpers', () => {
  test('settings: stored JSON read back, anything malformed is the default (off)', () => {
    assert.deepEqual(parseStormSettings(null), defaultStormSettings())
    assert.deepEqual(parseStormSettings('{not json'), defaultStormSettings())
    assert.deepEqual(
      parseStormSettings(
        '{"enabled":true,"maxTicketsPerAccount":3,"maxTicketsPerIntegration":null,"windowMinutes":5}',
      ),
      { enabled: true, maxTicketsPerAccount: 3, maxTicketsPerIntegration: null, windowMinutes: 5 },
    )
    assert.equal(parseStormSettings('{"enabled":true,"maxTicketsPerAccount":-1}').maxTicketsPerAccount, 10)
  })

  test('pastCap: off, under, at', () => {
    assert.equal(pastCap(defaultStormSettings(), facts({ accountCreates: 99 }), 'a'), null)
    assert.equal(pastCap(on({ maxTicketsPerAccount: 3 }), facts({ accountCreates: 2 }), 'a'), null)
    assert.ok(pastCap(on({ maxTicketsPerAccount: 3 }), facts({ accountCreates: 3 }), 'a'))
  })

  test('title, lines and the batched note', () => {
    assert.equal(stormTitle(37, 'Acme AV', 'Contoso'), 'Alert storm: 37 alerts from Acme AV for Contoso')
    assert.equal(stormTitle(null, 'Acme AV', 'Contoso'), 'Alert storm: alerts from Acme AV for Contoso')
    assert.equal(
      stormLine('OPEN', 'Disk full', '2026-11-22T12:00:05.000Z', false, null),
      '12:00:05Z New: Disk full',
    )
    assert.equal(
      stormLine('RESOLVED', 'Disk full', '2026-11-22T12:00:05.000Z', false, 'c1'),
      '12:00:05Z Resolved: Disk full [c1]',
    )
    const note = stormNote(12, 4, 'V', 'A', ['l1', 'l2'])
    assert.match(note, /^Alert storm: 12 alerts from V for A so far, 4 still open\./)
    assert.match(note, /Since the last note \(2\):\nl1\nl2$/)
  })

  test('the storm ticket closes with self-healing on and every folded incident resolved', () => {
    assert.equal(stormResolved(true, 0, 5), true)
    assert.equal(stormResolved(false, 0, 5), false)
    assert.equal(stormResolved(true, 1, 5), false)
    assert.equal(stormResolved(true, 0, 0), false)
  })
})
