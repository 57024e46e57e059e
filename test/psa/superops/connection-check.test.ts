// The SuperOps connection test (src/psa/superops/connection-check.ts) says in plain words what it
// found: the statuses the tenant's tickets close with and the one a RESOLVED alert uses, that changes
// are heard by polling; or which setting to fix (the token, the subdomain, closedStatus).
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { call, superOpsClient } from '../../support/psa/superops.js'
import { type SuperOpsSim, startSuperOpsSim } from '../../support/sims/superops/server.js'

async function check(sim: SuperOpsSim, settings: object = {}) {
  const r = await superOpsClient(sim.endpoint, settings).test(call())
  return r.ok ? { ok: true, text: r.value.detail } : { ok: false, text: r.failure.message }
}

describe('SuperOps connection test', () => {
  test('connected: the closed statuses found, the one a close uses, and the poll', async () => {
    const sim = await startSuperOpsSim()
    try {
      const r = await check(sim)
      assert.equal(r.ok, true)
      assert.match(r.text, /statuses have no closed flag/)
      assert.match(r.text, /'Closed', 'Resolved' all have a resolution time/)
      assert.match(r.text, /a RESOLVED alert closes a ticket with 'Closed'/)
      assert.match(r.text, /no ticket webhooks: changes made in SuperOps are heard by polling/)
      const chosen = await check(sim, { defaults: { closedStatus: 'Resolved' } })
      assert.match(chosen.text, /closes a ticket with 'Resolved'/)
    } finally {
      await sim.close()
    }
  })

  test('what to fix: the token, the subdomain, a closedStatus SuperOps lacks, or none found', async () => {
    const sim = await startSuperOpsSim()
    const empty = await startSuperOpsSim({ tickets: 0 })
    try {
      const token = await check(sim, { apiToken: 'api-old' })
      assert.deepEqual([token.ok, /refused the credentials \(apiToken\)/.test(token.text)], [false, true])
      const sub = await check(sim, { subdomain: 'other' })
      assert.match(sub.text, /does not know the subdomain/)
      const unknown = await check(sim, { defaults: { closedStatus: 'Done' } })
      assert.match(unknown.text, /no ticket status 'Done' \(closedStatus\): pick one of 'New', 'Open'/)
      const none = await check(empty)
      assert.equal(none.ok, false)
      assert.match(none.text, /set closedStatus/)
    } finally {
      await sim.close()
      await empty.close()
    }
  })
})
