// The integration lifecycle: created, mapping, pending, connected, and which calls move it or are refused.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { transition } from '../../../src/tenants/integrations/state.js'

describe('integration lifecycle', () => {
  test('the vendor starts mapping from created; later calls do not cut alerts off', () => {
    assert.deepEqual(transition('created', { kind: 'vendor-started-mapping' }), {
      ok: true,
      next: 'mapping',
      changed: true,
    })
    for (const s of ['mapping', 'pending', 'connected'] as const) {
      assert.deepEqual(transition(s, { kind: 'vendor-started-mapping' }), {
        ok: true,
        next: s,
        changed: false,
      })
    }
  })

  test('completing the mapping needs state mapping and at least one mapped account', () => {
    assert.deepEqual(transition('mapping', { kind: 'partner-completed-mapping', mappedAccounts: 1 }), {
      ok: true,
      next: 'pending',
      changed: true,
    })
    const none = transition('mapping', { kind: 'partner-completed-mapping', mappedAccounts: 0 })
    assert.equal(none.ok, false)
    const early = transition('created', { kind: 'partner-completed-mapping', mappedAccounts: 3 })
    assert.equal(!early.ok && early.error, 'INVALID_STATE')
    assert.equal(transition('connected', { kind: 'partner-completed-mapping', mappedAccounts: 0 }).ok, true)
  })

  test('a successful request moves pending to connected and is refused before pending', () => {
    assert.deepEqual(transition('pending', { kind: 'request-succeeded' }), {
      ok: true,
      next: 'connected',
      changed: true,
    })
    assert.deepEqual(transition('connected', { kind: 'request-succeeded' }), {
      ok: true,
      next: 'connected',
      changed: false,
    })
    for (const s of ['created', 'mapping'] as const) {
      const r = transition(s, { kind: 'request-succeeded' })
      assert.equal(!r.ok && r.error, 'INTEGRATION_NOT_ACTIVE')
    }
  })
})
