// Maintenance windows through the API (docs/partner-api.md#maintenance-windows), on SQLite and
// PostgreSQL: CRUD with activeNow and nextStart, bad input changing nothing, suppress mode, hold mode
// with its release at the window's end (a manual clock), a RESOLVED dropping what is held, follow-ups
// of tickets opened before the window, the dry run naming the row, and a window created while it runs
// logging its start once.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { type Setup, setupIntegration } from '../../../../support/fixtures.js'
import { backends, manualClock, startService, type TestService } from '../../../../support/service.js'
import { waitFor } from '../../../../support/wait.js'

/** `read()`'s first answer that `ok` accepts, within `ms`; a failure names the last answer read. */
async function eventually<T>(
  what: string,
  read: () => Promise<T>,
  ok: (v: T) => boolean,
  ms = 20_000,
): Promise<T> {
  let last: T | undefined
  const seen = await waitFor(
    async () => {
      last = await read()
      return ok(last) && { value: last }
    },
    { what: () => `${what} (last: ${JSON.stringify(last)})`, timeoutMs: ms, intervalMs: 50 },
  )
  return seen.value
}

const minute = 60_000

for (const backend of backends('matrix')) {
  describe(`maintenance windows (${backend})`, () => {
    let svc: TestService
    const clock = manualClock(new Date('2026-11-22T10:00:00.000Z'))
    const at = (ms: number) => new Date(clock().getTime() + ms).toISOString()
    before(async () => {
      svc = await startService({ backend, clock })
    })
    after(async () => svc?.close())

    const windows = (s: Setup) => `/api/partner/integrations/${s.integrationId}/maintenance-windows`
    const events = (s: Setup) =>
      svc.services.db.kysely
        .selectFrom('events')
        .select(['event', 'status', 'correlation_id', 'detail', 'message_id', 'incident_status'])
        .where('integration_id', '=', s.integrationId)
        .orderBy('created_at')
        .orderBy('message_id')
        .execute()
    const tickets = (s: Setup) =>
      svc.services.db.kysely
        .selectFrom('tickets')
        .select(['correlation_id', 'status', 'occurrence_count'])
        .where('integration_id', '=', s.integrationId)
        .execute()
    /** Moves the clock and wakes the runners: the jobs due by then run. */
    const advance = (ms: number) => {
      clock.advance(ms)
      svc.services.queue.handOver()
    }

    test('CRUD: one-off and recurring windows with activeNow, activeUntil, nextStart', async () => {
      const s = await setupIntegration(svc)
      const once = await s.partner('POST', windows(s), {
        name: 'Firewall swap',
        startsAt: at(-minute),
        endsAt: at(30 * minute),
        scope: { accountIds: ['acme-001'] },
      })
      assert.equal(once.status, 201, once.text)
      assert.equal(once.body.kind, 'once')
      assert.equal(once.body.mode, 'suppress')
      assert.equal(once.body.activeNow, true)
      assert.equal(once.body.activeUntil, at(30 * minute))
      assert.equal(once.body.nextStart, null)
      assert.deepEqual(once.body.scope, { accountIds: ['acme-001'], productGroups: [], alertTypes: [] })

      const weekly = await s.partner('POST', windows(s), {
        name: 'Sunday patching',
        mode: 'hold',
        recurrence: {
          rrule: 'FREQ=WEEKLY;BYDAY=SU',
          timeZone: 'Europe/Berlin',
          startTime: '01:00',
          durationMinutes: 240,
        },
      })
      assert.equal(weekly.status, 201, weekly.text)
      // Sunday 22 November 2026, 11:00 Berlin: the next is 29 November 01:00 CET.
      assert.equal(weekly.body.activeNow, false)
      assert.equal(weekly.body.nextStart, '2026-11-29T00:00:00.000Z')
      assert.equal(weekly.body.recurrence.startDate, '2026-11-22')

      const list = await s.partner('GET', windows(s))
      assert.equal(list.status, 200, list.text)
      assert.deepEqual(
        list.body.data.map((w: { name: string; activeNow: boolean }) => [w.name, w.activeNow]),
        [
          ['Firewall swap', true],
          ['Sunday patching', false],
        ],
      )
      const one = await s.partner('GET', `${windows(s)}/${weekly.body.id}`)
      assert.equal(one.status, 200, one.text)
      assert.equal(one.body.name, 'Sunday patching')

      const replaced = await s.partner('PUT', `${windows(s)}/${weekly.body.id}`, {
        name: 'Saturday patching',
        recurrence: {
          rrule: 'FREQ=WEEKLY;BYDAY=SA',
          timeZone: 'Europe/Berlin',
          startTime: '22:00',
          durationMinutes: 60,
        },
      })
      assert.equal(replaced.status, 200, replaced.text)
      assert.equal(replaced.body.nextStart, '2026-11-28T21:00:00.000Z')
      assert.equal(replaced.body.mode, 'suppress')

      const gone = await s.partner('DELETE', `${windows(s)}/${weekly.body.id}`)
      assert.equal(gone.status, 204, gone.text)
      assert.equal((await s.partner('GET', `${windows(s)}/${weekly.body.id}`)).status, 404)
      assert.equal((await s.partner('DELETE', `${windows(s)}/${weekly.body.id}`)).status, 404)
      await s.partner('DELETE', `${windows(s)}/${once.body.id}`)
    })

    test('bad input: a clear failure, nothing changed', async () => {
      const s = await setupIntegration(svc)
      const before = await svc.snapshot()
      const cases: [unknown, RegExp][] = [
        [{ name: 'x' }, /either startsAt and endsAt/],
        [{ name: 'x', startsAt: at(0) }, /both startsAt and endsAt/],
        [{ name: 'x', startsAt: at(minute), endsAt: at(0) }, /endsAt must be after startsAt/],
        [
          {
            name: 'x',
            startsAt: at(0),
            endsAt: at(minute),
            recurrence: { rrule: 'FREQ=DAILY', timeZone: 'UTC', startTime: '01:00', durationMinutes: 5 },
          },
          /either startsAt and endsAt/,
        ],
        [
          {
            name: 'x',
            recurrence: {
              rrule: 'FREQ=DAILY',
              timeZone: 'Mars/Olympus',
              startTime: '01:00',
              durationMinutes: 5,
            },
          },
          /timeZone/,
        ],
        [
          {
            name: 'x',
            recurrence: { rrule: 'FREQ=SOMETIMES', timeZone: 'UTC', startTime: '01:00', durationMinutes: 5 },
          },
          /rrule/,
        ],
        [
          {
            name: 'x',
            recurrence: { rrule: 'FREQ=MINUTELY', timeZone: 'UTC', startTime: '01:00', durationMinutes: 5 },
          },
          /FREQ/,
        ],
        [
          {
            name: 'x',
            recurrence: { rrule: 'FREQ=DAILY', timeZone: 'UTC', startTime: '25:00', durationMinutes: 5 },
          },
          /startTime/,
        ],
        [
          {
            name: 'x',
            recurrence: { rrule: 'FREQ=DAILY', timeZone: 'UTC', startTime: '01:00', durationMinutes: 0 },
          },
          /durationMinutes/,
        ],
        [{ name: 'x', mode: 'later', startsAt: at(0), endsAt: at(minute) }, /mode/],
      ]
      for (const [body, detail] of cases) {
        const res = await s.partner('POST', windows(s), body)
        assert.equal(res.status, 400, `${JSON.stringify(body)}: ${res.text}`)
        assert.equal(res.body.message, 'failed')
        assert.match(res.body.detail, detail, res.text)
      }
      assert.equal(
        (await s.partner('PUT', `${windows(s)}/nope`, { name: 'x', startsAt: at(0), endsAt: at(minute) }))
          .status,
        404,
      )
      assert.deepEqual(await svc.snapshot(), before)
    })

    test('suppress mode: a new OPEN in scope is 200 suppressed, the event names the window; others pass', async () => {
      const s = await setupIntegration(svc, { mapped: ['acme-001', 'globex-002'] })
      const w = await s.partner('POST', windows(s), {
        name: 'Firewall swap',
        startsAt: at(-minute),
        endsAt: at(30 * minute),
        scope: { accountIds: ['acme-001'] },
      })
      assert.equal(w.status, 201, w.text)
      const res = await s.sync({ title: 'in window' })
      assert.equal(res.status, 200, res.text)
      assert.equal(res.body.message, 'suppressed')
      assert.ok(res.body.data.correlationID)
      const out = await s.sync({ title: 'other account', accountId: 'globex-002' })
      assert.equal(out.status, 201, out.text)
      const evs = await events(s)
      const suppressed = evs.find((e) => e.event === 'Suppressed By Maintenance Window')
      assert.ok(suppressed, JSON.stringify(evs))
      assert.equal(suppressed.status, 'suppressed')
      assert.match(suppressed.detail ?? '', new RegExp(`Firewall swap.*${w.body.id}`))
      assert.deepEqual(
        (await tickets(s)).map((t) => t.correlation_id),
        [out.body.data.correlationID],
      )
      // The dry run names the row.
      const dry = await s.partner('POST', `/api/partner/integrations/${s.integrationId}/dry-run`, {
        data: {
          title: 'x',
          alertType: 'Malware Detected',
          accountId: 'acme-001',
          productGroup: 'Endpoint Security',
          incidentStatus: 'OPEN',
        },
      })
      assert.equal(dry.status, 200, dry.text)
      assert.equal(dry.body.row, 'maintenance')
      assert.equal(dry.body.action, 'suppress')
      assert.match(dry.body.reason, /Firewall swap/)
      await s.partner('DELETE', `${windows(s)}/${w.body.id}`)
    })

    test('follow-ups of a ticket opened before the window pass as usual', async () => {
      const s = await setupIntegration(svc)
      const open = await s.sync({ title: 'before' })
      assert.equal(open.status, 201, open.text)
      const cid = open.body.data.correlationID
      const w = await s.partner('POST', windows(s), {
        name: 'Now',
        mode: 'hold',
        startsAt: at(-minute),
        endsAt: at(10 * minute),
      })
      assert.equal(w.status, 201, w.text)
      const update = await s.sync({ incidentStatus: 'UPDATE' }, { correlationId: cid })
      assert.equal(update.status, 200, update.text)
      assert.equal(update.body.message, 'updated')
      const resolved = await s.sync({ incidentStatus: 'RESOLVED' }, { correlationId: cid })
      assert.equal(resolved.status, 200, resolved.text)
      assert.equal(resolved.body.message, 'closed')
      await s.partner('DELETE', `${windows(s)}/${w.body.id}`)
    })

    test('hold mode: held in order, a RESOLVED drops its alert, the rest released through the rules at the end', async () => {
      const s = await setupIntegration(svc)
      const w = await s.partner('POST', windows(s), {
        name: 'Core switch',
        mode: 'hold',
        startsAt: at(minute),
        endsAt: at(11 * minute),
      })
      assert.equal(w.status, 201, w.text)
      assert.equal(w.body.activeNow, false)
      advance(2 * minute)
      const started = await eventually(
        'the start event',
        () => events(s),
        (evs) => evs.some((e) => e.event === 'Maintenance Window Started'),
      )
      assert.match(started.find((e) => e.event === 'Maintenance Window Started')?.detail ?? '', /Core switch/)

      const a = await s.sync({ title: 'A' }, { correlationId: 'a-1' })
      assert.equal(a.status, 200, a.text)
      assert.equal(a.body.message, 'suppressed')
      assert.equal(a.body.data.correlationID, 'a-1')
      const b = await s.sync({ title: 'B', alertType: 'Ransomware Behaviour' })
      assert.equal(b.status, 200, b.text)
      const bCid = b.body.data.correlationID
      assert.ok(bCid)
      const c = await s.sync({ title: 'C' }, { correlationId: 'c-1' })
      assert.equal(c.status, 200, c.text)
      const aUpdate = await s.sync(
        { title: 'A', incidentStatus: 'UPDATE', summary: 'worse' },
        { correlationId: 'a-1' },
      )
      assert.equal(aUpdate.status, 200, aUpdate.text)
      const d = await s.sync({ title: 'D', alertType: 'Agent Offline' }, { correlationId: 'd-1' })
      assert.equal(d.status, 200, d.text)
      const cResolved = await s.sync({ title: 'C', incidentStatus: 'RESOLVED' }, { correlationId: 'c-1' })
      assert.equal(cResolved.status, 200, cResolved.text)
      assert.equal(cResolved.body.message, 'suppressed')
      assert.equal((await tickets(s)).length, 0)
      const listed = await s.partner('GET', windows(s))
      assert.equal(listed.body.data[0].held, 4, listed.text)
      assert.equal(listed.body.data[0].activeNow, true)

      // The rules change while the alerts wait: Agent Offline is now suppressed.
      const rule = await s.partner('POST', `/api/partner/integrations/${s.integrationId}/rules`, {
        productGroup: 'Endpoint Security',
        alertTypes: ['Agent Offline'],
        action: 'suppress',
        precedence: 0,
      })
      assert.equal(rule.status, 201, rule.text)

      advance(10 * minute)
      await eventually(
        'the release',
        () => events(s),
        (evs) =>
          evs.some((e) => e.event === 'Maintenance Window Ended') &&
          evs.filter((e) => e.event === 'Ticket Created').length === 2 &&
          evs.some((e) => e.event === 'Ticket Updated') &&
          evs.some((e) => e.event === 'Failed To Create Ticket'),
      )
      const evs = await events(s)
      const names = evs.map((e) => `${e.event}:${e.correlation_id ?? ''}`)
      assert.ok(names.includes('Held Alert Dropped:c-1'), names.join(', '))
      assert.equal(
        names.filter((n) => n.startsWith('Held By Maintenance Window')).length,
        5,
        names.join(', '),
      )
      // Released in the order held: A's ticket, then B's, then A's update.
      const released = names.filter((n) =>
        /^(Ticket Created|Ticket Updated|Failed To Create Ticket):/.test(n),
      )
      assert.deepEqual(released, [
        'Ticket Created:a-1',
        `Ticket Created:${bCid}`,
        'Ticket Updated:a-1',
        'Failed To Create Ticket:d-1',
      ])
      const ts = await tickets(s)
      assert.deepEqual(ts.map((t) => t.correlation_id).sort(), ['a-1', bCid].sort())
      const after = await s.partner('GET', windows(s))
      assert.equal(after.body.data[0].held, 0)
      assert.equal(after.body.data[0].activeNow, false)
      // A later follow-up finds the released ticket.
      const resolveA = await s.sync({ title: 'A', incidentStatus: 'RESOLVED' }, { correlationId: 'a-1' })
      assert.equal(resolveA.body.message, 'closed', resolveA.text)
    })

    test('a window created after its start logs Started at once, exactly once, then Ended', async () => {
      const s = await setupIntegration(svc)
      const boundaries = async () =>
        (await events(s))
          .filter((e) => e.event.startsWith('Maintenance Window'))
          .map((e) => `${e.event}:${e.message_id}`)
      const once = await s.partner('POST', windows(s), {
        name: 'Late swap',
        startsAt: at(-5 * minute),
        endsAt: at(10 * minute),
      })
      assert.equal(once.status, 201, once.text)
      assert.equal(once.body.activeNow, true)
      const startedAt = at(-5 * minute)
      assert.deepEqual(await boundaries(), [
        `Maintenance Window Started:maintenance:${once.body.id}:start:${startedAt}`,
      ])
      // A recurring window created in the middle of an occurrence: every day 10:00–14:00 Berlin, 11:00 now.
      const daily = await s.partner('POST', windows(s), {
        name: 'Daily',
        recurrence: {
          rrule: 'FREQ=DAILY',
          timeZone: 'Europe/Berlin',
          startTime: '10:00',
          durationMinutes: 240,
        },
      })
      assert.equal(daily.status, 201, daily.text)
      assert.equal(daily.body.activeUntil, '2026-11-22T13:00:00.000Z')
      // Saved again while it runs: no second Started.
      const renamed = await s.partner('PUT', `${windows(s)}/${once.body.id}`, {
        name: 'Late swap (renamed)',
        startsAt: at(-5 * minute),
        endsAt: at(10 * minute),
      })
      assert.equal(renamed.status, 200, renamed.text)
      assert.deepEqual(
        (await boundaries()).sort(),
        [
          `Maintenance Window Started:maintenance:${daily.body.id}:start:2026-11-22T09:00:00.000Z`,
          `Maintenance Window Started:maintenance:${once.body.id}:start:${startedAt}`,
        ].sort(),
      )
      const endedAt = at(10 * minute)
      advance(11 * minute)
      const seen = await eventually('the end event', boundaries, (b) =>
        b.some((e) => e.startsWith('Maintenance Window Ended')),
      )
      assert.deepEqual(
        seen.filter((e) => e.includes(once.body.id)),
        [
          `Maintenance Window Started:maintenance:${once.body.id}:start:${startedAt}`,
          `Maintenance Window Ended:maintenance:${once.body.id}:end:${endedAt}`,
        ],
      )
      await s.partner('DELETE', `${windows(s)}/${once.body.id}`)
      await s.partner('DELETE', `${windows(s)}/${daily.body.id}`)
    })

    test('deleting a hold window releases what it holds at once', async () => {
      const s = await setupIntegration(svc)
      const w = await s.partner('POST', windows(s), {
        name: 'Oops',
        mode: 'hold',
        startsAt: at(-minute),
        endsAt: at(60 * minute),
      })
      const held = await s.sync({ title: 'E' }, { correlationId: 'e-1' })
      assert.equal(held.body.message, 'suppressed', held.text)
      assert.equal((await s.partner('DELETE', `${windows(s)}/${w.body.id}`)).status, 204)
      svc.services.queue.handOver()
      await eventually(
        'the release',
        () => tickets(s),
        (ts) => ts.some((t) => t.correlation_id === 'e-1'),
      )
    })

    // Last: it moves the clock a month on.
    test('one-off windows are kept 30 days after their end, then pruned; recurring ones stay', async () => {
      const s = await setupIntegration(svc)
      const once = await s.partner('POST', windows(s), { name: 'Old', startsAt: at(0), endsAt: at(minute) })
      const weekly = await s.partner('POST', windows(s), {
        name: 'Weekly',
        recurrence: { rrule: 'FREQ=WEEKLY', timeZone: 'UTC', startTime: '03:00', durationMinutes: 60 },
      })
      assert.equal(once.status, 201, once.text)
      advance(29 * 24 * 60 * minute)
      await svc.services.ops.retention.run()
      assert.equal((await s.partner('GET', `${windows(s)}/${once.body.id}`)).status, 200)
      advance(2 * 24 * 60 * minute)
      const pruned = await svc.services.ops.retention.run()
      assert.ok(pruned.maintenance_windows >= 1, JSON.stringify(pruned))
      assert.equal((await s.partner('GET', `${windows(s)}/${once.body.id}`)).status, 404)
      assert.equal((await s.partner('GET', `${windows(s)}/${weekly.body.id}`)).status, 200)
    })
  })
}
