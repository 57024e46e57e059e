// Hold-and-release survives a restart (docs/partner-api.md#maintenance-windows): a window in hold mode
// keeps an alert, the service stops, and a new one started on the same database after the window's end
// releases it (the held alert and its release job are rows of the database), on SQLite and PostgreSQL.
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, test } from 'node:test'
import { boot } from '../../../../src/main/boot.js'
import { loadConfig } from '../../../../src/platform/config.js'
import { setupIntegration } from '../../../support/fixtures.js'
import { backends, manualClock, postgresDatabase, requester } from '../../../support/service.js'
import { waitFor } from '../../../support/wait.js'

const minute = 60_000

/** One process of the installation on `databaseUrl`, with its own clock. */
async function start(installation: Record<string, string>, clock: ReturnType<typeof manualClock>) {
  const config = loadConfig({
    ...installation,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    PSA_TIMEOUT_MS: '2000',
    PASSWORD_HASH_COST: '14',
    SNAPSHOT_COALESCE_MS: '100',
  })
  const { app, services } = await boot(config, { clock })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const address = app.server.address()
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
  return {
    services,
    request: requester(url),
    adminToken: installation.ADMIN_TOKEN!,
    close: () => app.close(),
  }
}

for (const backend of backends('databases')) {
  describe(`maintenance: hold survives a restart (${backend})`, () => {
    test('held before the stop, released by the next process at the window’s end', async () => {
      let databaseUrl: string
      let cleanup: () => Promise<void>
      if (backend === 'sqlite') {
        const dir = mkdtempSync(join(tmpdir(), 'alertbridge-maint-'))
        databaseUrl = `sqlite:${join(dir, 'alertbridge.db')}`
        cleanup = async () => rmSync(dir, { recursive: true, force: true })
      } else {
        const db = await postgresDatabase({ migrated: true })
        databaseUrl = db.url
        cleanup = db.drop
      }
      const installation = {
        DATABASE_URL: databaseUrl,
        ADMIN_TOKEN: `test-admin-${randomBytes(24).toString('hex')}`,
        SECRET_KEY: randomBytes(32).toString('base64'),
      }
      try {
        const clock = manualClock(new Date('2026-11-22T10:00:00.000Z'))
        const first = await start(installation, clock)
        let s: Awaited<ReturnType<typeof setupIntegration>>
        try {
          s = await setupIntegration(first)
          const w = await s.partner(
            'POST',
            `/api/partner/integrations/${s.integrationId}/maintenance-windows`,
            {
              name: 'Overnight',
              mode: 'hold',
              startsAt: new Date(clock().getTime() - minute).toISOString(),
              endsAt: new Date(clock().getTime() + 10 * minute).toISOString(),
            },
          )
          assert.equal(w.status, 201, w.text)
          const held = await s.sync({ title: 'held over a restart' }, { correlationId: 'r-1' })
          assert.equal(held.status, 200, held.text)
          assert.equal(held.body.message, 'suppressed')
        } finally {
          await first.close()
        }

        clock.advance(11 * minute)
        const second = await start(installation, clock)
        try {
          const db = second.services.db.kysely
          await waitFor(
            async () => {
              const created = await db
                .selectFrom('events')
                .select('event')
                .where('correlation_id', '=', 'r-1')
                .where('event', '=', 'Ticket Created')
                .executeTakeFirst()
              if (!created) second.services.queue.handOver()
              return created
            },
            { what: 'the held alert to be released after the restart', timeoutMs: 20_000, intervalMs: 100 },
          )
          const events = await db
            .selectFrom('events')
            .select('event')
            .where('correlation_id', '=', 'r-1')
            .execute()
          assert.deepEqual(events.map((e) => e.event).sort(), [
            'Held By Maintenance Window',
            'Ticket Created',
          ])
          const ticket = await db
            .selectFrom('tickets')
            .select('status')
            .where('correlation_id', '=', 'r-1')
            .executeTakeFirst()
          assert.equal(ticket?.status, 'open')
          assert.equal(
            Number(
              (
                await db
                  .selectFrom('maintenance_held')
                  .select((eb) => eb.fn.countAll().as('n'))
                  .executeTakeFirstOrThrow()
              ).n,
            ),
            0,
          )
        } finally {
          await second.close()
        }
      } finally {
        await cleanup()
      }
    })
  })
}
