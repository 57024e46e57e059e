// Near a PSA's request limit (docs/psa/README.md, "Near the limit"), against the Kaseya BMS simulator
// with a small hourly budget: past 80% of it an UPDATE is answered at once and its note waits for the
// ticket's next batched note (at most one a minute, moved on with a manual clock); past 95% the batched
// note waits too, while a new ticket and a close still go; the close carries the notes still waiting,
// so nothing accepted is lost.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { PsaOperations } from '../../../src/psa/adapter.js'
import { hooked } from '../../support/hooked.js'
import { kaseyaBmsService as bms } from '../../support/psa/service-fixtures.js'
import { manualClock, startService, type TestService } from '../../support/service.js'
import type { KaseyaBmsSim } from '../../support/sims/kaseya-bms/server.js'

/** The per-endpoint hourly budget: small enough to spend in a test, large enough for its calls. */
const budget = 60

describe('notes are batched near the PSA limit (Kaseya BMS, sqlite)', () => {
  let svc: TestService
  let sim: KaseyaBmsSim
  const clock = manualClock()
  const receivers: { close(): Promise<void> }[] = []
  before(async () => {
    sim = await bms.start()
    svc = await startService({
      clock,
      env: { ALLOW_PRIVATE_NETWORK: 'true', PSA_RETRY_SCHEDULE: '0.2,0.2,0.2', PSA_TIMEOUT_MS: '3000' },
    })
  })
  after(async () => {
    await svc.close()
    await sim.close()
    for (const r of receivers) await r.close()
  })

  /** Moves the clock past the note interval and waits for the jobs then due to have run. */
  const nextMinute = async () => {
    clock.advance(61_000)
    svc.services.queue.handOver()
    await svc.counts()
  }

  test('UPDATEs batch past 80%, notes wait past 95%, creates and closes go, the close carries what waited', async () => {
    const s = await hooked(svc, {
      psa: { ...bms.settings(sim.url), hourlyBudgetPerEndpoint: budget },
      psaCompanyId: bms.companyId,
      rule: { productGroup: 'Endpoint Security', ticket: { board: bms.board } },
    })
    receivers.push(s.receiver)
    const dedup = await s.partner('PATCH', `/api/partner/integrations/${s.integrationId}`, {
      deduplication: { keyFields: ['accountId', 'productGroup', 'alertType', 'title'] },
    })
    assert.equal(dedup.status, 200, dedup.text)
    const partner = await svc.services.store.partners.findById(s.partnerId)
    const connected = partner ? svc.services.psa.registry.connect(partner.id, partner.psa) : null
    assert.ok(connected?.ok)
    const client: PsaOperations = connected.client
    const share = async () => (await client.budgetShare?.()) ?? 0
    /** Spends the budget with look-ups until its fullest endpoint is at least `at` used. */
    const spendTo = async (at: number) => {
      while ((await share()) < at) {
        const r = await client.lookup('priorities', {}, { signal: AbortSignal.timeout(5000) })
        assert.ok(r.ok, 'the look-up is within the budget')
      }
    }
    const ticketOf = async (cid: string) => {
      const t = await svc.services.store.tickets.findByCorrelation(s.integrationId, cid)
      return bms.ticket(sim, t?.psaTicketId ?? '')
    }

    const created = await s.sync({ title: 'Backup failed' }, { correlationId: 'inc-1' })
    assert.equal(created.status, 201, created.text)
    assert.ok((await share()) < 0.8, 'the create left most of the budget')
    const notesAtFirst = (await ticketOf('inc-1')).notes.length

    // Past 80%: the UPDATEs are answered at once; the PSA hears of them in one note a minute later.
    await spendTo(0.8)
    for (const title of ['Backup failed again', 'Backup failed a third time']) {
      const r = await s.sync({ incidentStatus: 'UPDATE', title }, { correlationId: 'inc-1' })
      assert.equal(r.status, 200, r.text)
      assert.equal(r.body.message, 'updated')
    }
    assert.equal((await ticketOf('inc-1')).notes.length, notesAtFirst, 'no note yet')
    const events = await s.partner('GET', `/api/partner/events?correlationId=inc-1`)
    assert.ok(
      events.text.includes('request budget is nearly spent'),
      'the audit trail says why the note waits',
    )
    assert.ok((await share()) < 0.95)
    await nextMinute()
    let notes = (await ticketOf('inc-1')).notes
    assert.equal(notes.length, notesAtFirst + 1, 'one batched note')
    assert.match(notes.at(-1)!, /2 updates arrived while the PSA's request budget was nearly spent/)
    assert.match(notes.at(-1)!, /Backup failed again[\s\S]*Backup failed a third time/)

    // Past 95%: a batched note waits; a new ticket still goes.
    await spendTo(0.95)
    const late = await s.sync(
      { incidentStatus: 'UPDATE', title: 'Backup failed once more' },
      {
        correlationId: 'inc-1',
      },
    )
    assert.equal(late.status, 200, late.text)
    const other = await s.sync({ title: 'Disk full' }, { correlationId: 'inc-2' })
    assert.equal(other.status, 201, other.text)
    await nextMinute()
    assert.equal((await ticketOf('inc-1')).notes.length, notesAtFirst + 1, 'the batched note waits')

    // The close goes, and its resolution carries the note that waited.
    const closed = await s.sync({ incidentStatus: 'RESOLVED' }, { correlationId: 'inc-1' })
    assert.equal(closed.status, 200, closed.text)
    assert.equal(closed.body.message, 'closed')
    const t = await ticketOf('inc-1')
    assert.equal(t.closed, true)
    notes = t.notes
    assert.ok(
      notes.slice(notesAtFirst + 1).some((n) => n.includes('Backup failed once more')),
      'the waiting note is in the resolution',
    )
    // The note job finds nothing left to write for the closed ticket.
    await nextMinute()
    assert.equal(
      (await ticketOf('inc-1')).notes.filter((n) => n.includes('Backup failed once more')).length,
      1,
      'written once',
    )
  })
})
