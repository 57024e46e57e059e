// The key ring: values name the key that sealed them; the current key seals; the previous one (and
// the first, unversioned format) still opens; a wrong key or an altered value never opens.
import assert from 'node:assert/strict'
import { createCipheriv, randomBytes } from 'node:crypto'
import { describe, test } from 'node:test'
import {
  createKeyRing,
  keyIdOf,
  SealedValueError,
  sealedPrefix,
} from '../../../src/platform/security/crypto-box.js'

const A = Buffer.alloc(32, 1).toString('base64')
const B = Buffer.alloc(32, 2).toString('base64')

/** A value in the first format (`v1.` + iv|tag|ciphertext), as earlier builds sealed it. */
function sealV1(key: string, plaintext: string): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(key, 'base64'), iv)
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
  return `v1.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`
}

describe('key ring', () => {
  test('a sealed value starts with the id of the key that sealed it; the id does not reveal the key', () => {
    const ring = createKeyRing(A)
    const sealed = ring.seal('psa-private-key')
    assert.ok(sealed.startsWith(sealedPrefix(keyIdOf(A))))
    assert.match(keyIdOf(A), /^[0-9a-f]{12}$/)
    assert.notEqual(keyIdOf(A), keyIdOf(B))
    assert.equal(
      keyIdOf(A),
      keyIdOf(A.replace(/\+/g, '-').replace(/\//g, '_')),
      'base64url names the same key',
    )
    assert.equal(ring.sealedBy(sealed), 'current')
    assert.equal(ring.open(sealed), 'psa-private-key')
  })

  test('with a previous key, both open and only the current one seals', () => {
    const old = createKeyRing(A).seal('webhook-secret')
    const ring = createKeyRing(B, A)
    assert.equal(ring.sealedBy(old), 'previous')
    assert.equal(ring.open(old), 'webhook-secret')
    assert.equal(ring.sealedBy(ring.seal('x')), 'current')
    assert.equal(createKeyRing(A).sealedBy(ring.seal('x')), 'other')
  })

  test('a key the ring does not hold, or an altered value, does not open', () => {
    const sealed = createKeyRing(A).seal('secret')
    const onlyB = createKeyRing(B)
    assert.equal(onlyB.opens(sealed), false)
    assert.throws(() => onlyB.open(sealed), SealedValueError)
    const tampered = `${sealed.slice(0, -2)}${sealed.endsWith('A') ? 'B' : 'A'}A`
    assert.equal(createKeyRing(A).opens(tampered), false)
    // The id is taken at its word only to pick a key: a value relabelled with B's id still fails.
    const relabelled = sealed.replace(keyIdOf(A), keyIdOf(B))
    assert.equal(createKeyRing(B, A).opens(relabelled), false)
  })

  test('values of the first format open with whichever key of the ring sealed them', () => {
    const v1 = sealV1(A, 'from an earlier build')
    assert.equal(createKeyRing(A).sealedBy(v1), 'unversioned')
    assert.equal(createKeyRing(A).open(v1), 'from an earlier build')
    assert.equal(createKeyRing(B, A).open(v1), 'from an earlier build')
    assert.equal(createKeyRing(B).opens(v1), false)
  })
})
