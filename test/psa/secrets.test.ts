// Saving a PSA connection without typing its secret again, without I/O (src/psa/secrets.ts).
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { keepSavedSecrets } from '../../src/psa/secrets.js'
import type { StoredPsa } from '../../src/psa/stored.js'

const saved: StoredPsa = {
  kind: 'connectwise',
  settings: { baseUrl: 'https://cw.example.com/', companyId: 'acme', publicKey: 'pub', privateKey: 'SECRET' },
}
const input = {
  kind: 'connectwise' as const,
  baseUrl: 'https://cw.example.com',
  companyId: 'acme',
  publicKey: 'pub2',
}

describe('keeping the saved PSA secret', () => {
  test('a secret left out, empty or masked keeps the saved one', () => {
    for (const privateKey of [undefined, '', '********']) {
      const kept = keepSavedSecrets(saved, { ...input, privateKey }, ['privateKey'])
      assert.ok(kept.ok)
      assert.equal(kept.value.privateKey, 'SECRET')
      assert.equal(kept.value.publicKey, 'pub2', 'the other settings are the new ones')
    }
  })

  test('a new secret replaces the saved one', () => {
    const kept = keepSavedSecrets(saved, { ...input, privateKey: 'NEW' }, ['privateKey'])
    assert.ok(kept.ok)
    assert.equal(kept.value.privateKey, 'NEW')
  })

  test('a changed host without a new secret is refused; with one it is taken', () => {
    for (const moved of [
      { baseUrl: 'https://evil.example' },
      { site: 'eu.myconnectwise.net', baseUrl: undefined },
    ]) {
      const refused = keepSavedSecrets(saved, { ...input, ...moved }, ['privateKey'])
      assert.equal(refused.ok, false)
      if (!refused.ok) {
        assert.equal(refused.refusal.code, 'VALIDATION_FAILED')
        assert.match(refused.refusal.detail, /enter privateKey again/)
        assert.doesNotMatch(refused.refusal.detail, /SECRET/)
      }
      const given = keepSavedSecrets(saved, { ...input, ...moved, privateKey: 'NEW' }, ['privateKey'])
      assert.ok(given.ok)
      assert.equal(given.value.privateKey, 'NEW')
    }
    // Case and a trailing slash are the same host.
    const same = keepSavedSecrets(saved, { ...input, baseUrl: 'HTTPS://CW.example.com/' }, ['privateKey'])
    assert.ok(same.ok)
  })

  test('another kind keeps nothing, and a secret never saved stays missing', () => {
    const other = keepSavedSecrets(saved, { kind: 'syncro', baseUrl: 'https://cw.example.com' }, ['apiToken'])
    assert.ok(other.ok)
    assert.deepEqual(other.value, { kind: 'syncro', baseUrl: 'https://cw.example.com' })
    const none = keepSavedSecrets({ kind: 'connectwise', settings: {} }, { ...input, privateKey: '' }, [
      'privateKey',
    ])
    assert.ok(none.ok)
    assert.equal('privateKey' in none.value, false)
  })
})
