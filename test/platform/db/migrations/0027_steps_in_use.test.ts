// Upgrading to the steps-in-use flags (migration 0027_steps_in_use): an integration that has a
// maintenance window, and a ticket with a note line waiting, are marked from what they hold; the others
// are not, and their alerts skip those reads (docs/decisions/speed/steps-in-use.md). The migration is
// run again (down, then up) over a database that the service filled through its API.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Kysely } from 'kysely'
import * as m0027 from '../../../../src/platform/db/migrations/0027_steps_in_use.js'
import { setupIntegration } from '../../../support/fixtures.js'
import { backends, startService, type TestService } from '../../../support/service.js'

for (const backend of backends('databases')) {
  describe(`migration 0027_steps_in_use marks what is in use (${backend})`, () => {
    let svc: TestService
    before(async () => {
      svc = await startService({ backend })
    })
    after(async () => svc?.close())

    test('an integration with a window and a ticket with a waiting line are marked; the others are not', async () => {
      const withWindow = await setupIntegration(svc)
      const without = await setupIntegration(svc)
      const made = await withWindow.partner(
        'POST',
        `/api/partner/integrations/${withWindow.integrationId}/maintenance-windows`,
        { name: 'Firewall swap', startsAt: '2030-10-16T22:00:00Z', endsAt: '2030-10-17T02:00:00Z' },
      )
      assert.equal(made.status, 201, made.text)
      const waiting = await without.sync()
      const plain = await without.sync({ title: 'another incident', alertType: 'Agent Offline' })
      for (const r of [waiting, plain]) assert.equal(r.status, 201, r.text)
      const ticketOf = async (cid: string) =>
        (await svc.services.store.tickets.findByCorrelation(without.integrationId, cid))!.id
      const waitingId = await ticketOf(waiting.body.data.correlationID)
      const plainId = await ticketOf(plain.body.data.correlationID)
      const db = svc.services.db.kysely
      await db
        .insertInto('storm_lines')
        .values({
          id: 'line-1',
          storm_ticket_id: waitingId,
          message_id: 'message-1',
          line: 'a note waiting for the next batched note',
          created_at: '2026-12-02T00:00:00.000Z',
          noted_at: null,
        })
        .execute()

      // A migration sees the database untyped, as the migrator hands it over.
      const untyped = db as unknown as Kysely<unknown>
      await m0027.down(untyped)
      await m0027.up(untyped)

      const flags = await db
        .selectFrom('integrations')
        .select(['id', 'maintenance_in_use'])
        .where('id', 'in', [withWindow.integrationId, without.integrationId])
        .execute()
      const inUse = Object.fromEntries(flags.map((r) => [r.id, Number(r.maintenance_in_use)]))
      assert.deepEqual(inUse, { [withWindow.integrationId]: 1, [without.integrationId]: 0 })
      const tickets = await db
        .selectFrom('tickets')
        .select(['id', 'batched_lines'])
        .where('id', 'in', [waitingId, plainId])
        .execute()
      const lines = Object.fromEntries(tickets.map((r) => [r.id, Number(r.batched_lines)]))
      assert.deepEqual(lines, { [waitingId]: 1, [plainId]: 0 })
    })
  })
}
