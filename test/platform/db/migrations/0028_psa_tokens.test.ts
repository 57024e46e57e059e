// Migration 0028_psa_tokens on each database: its two tables (a PSA's rotating tokens beside the
// partner's settings, the consent flows under way) are removed and made again (down, then up) over a
// database the service filled through its API; a row per partner and kind, changed by compare-and-swap;
// a consent flow's state taken once, a partner keeping its five newest.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Kysely } from 'kysely'
import * as m0028 from '../../../../src/platform/db/migrations/0028_psa_tokens.js'
import { OauthStates } from '../../../../src/psa/core/oauth-states.js'
import { SqlTokenStore } from '../../../../src/psa/core/token-store.js'
import { setupIntegration } from '../../../support/fixtures.js'
import { backends, startService, type TestService } from '../../../support/service.js'

for (const backend of backends('databases')) {
  describe(`migration 0028_psa_tokens (${backend})`, () => {
    let svc: TestService
    before(async () => {
      svc = await startService({ backend })
    })
    after(async () => svc?.close())

    test('down and up again: the tables are there, empty, one row per partner and kind; a state is taken once', async () => {
      const { partnerId } = await setupIntegration(svc)
      const db = svc.services.db.kysely
      const tokens = new SqlTokenStore(db, svc.services.box)
      const key = { partnerId, kind: 'ninjaone' }
      assert.equal(await tokens.seed(key, 'g.c', 'rt-1', null), true)
      assert.equal(await tokens.seed(key, 'g.c', 'rt-2', null), false, 'one row per partner and kind')
      const untyped = db as unknown as Kysely<unknown>
      await m0028.down(untyped)
      await m0028.up(untyped)
      assert.equal(await tokens.read(key), null)
      assert.equal(await tokens.seed(key, 'g.c', 'rt-1', null), true)
      const row = await tokens.read(key)
      assert.deepEqual(
        { ...row, claimedUntil: row?.claimedUntil ?? null },
        {
          version: 1,
          grant: 'g.c',
          refreshToken: 'rt-1',
          accessToken: null,
          accessExpiresAt: null,
          claimedUntil: null,
        },
      )
      assert.equal(await tokens.claim(key, 1, Date.now() + 1000), true)
      assert.equal(await tokens.claim(key, 1, Date.now() + 1000), false, 'a claim is a compare-and-swap')
      const states = new OauthStates(db, svc.services.box)
      const flow = await states.start(partnerId, 'ninjaone', '/integrations')
      assert.equal((await states.take(flow.state))?.verifier, flow.verifier)
      assert.equal(await states.take(flow.state), null, 'taken once')
      for (let i = 0; i < 8; i++) await states.start(partnerId, 'ninjaone', '/integrations')
      const kept = await db
        .selectFrom('psa_oauth_states')
        .select('state_digest')
        .where('partner_id', '=', partnerId)
        .execute()
      assert.equal(kept.length, 5, 'a partner keeps its five newest flows')
    })
  })
}
