// openKept opens a sealed value once per box while it is recently used: the same text is not opened
// again, another box opens (or refuses) on its own, a refusal is never kept, and the number kept is
// bounded (the oldest is opened again after 2,000 others).
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { SealedValueError } from '../../../src/platform/security/crypto-box.js'
import { openKept } from '../../../src/platform/security/opened.js'
import { countingBox } from '../../support/counting-box.js'
import { newKey } from '../../support/process.js'

test('the same sealed text is opened once per box', () => {
  const key = newKey()
  const box = countingBox(key)
  const sealed = box.seal('secret')
  assert.equal(openKept(box, sealed), 'secret')
  assert.equal(openKept(box, sealed), 'secret')
  assert.equal(box.opened, 1)
  const again = countingBox(key)
  assert.equal(openKept(again, sealed), 'secret')
  assert.equal(again.opened, 1, 'another box opens for itself')
  assert.equal(openKept(box, box.seal('secret')), 'secret')
  assert.equal(box.opened, 2, 'the same plaintext sealed afresh is another text')
})

test('a box with other keys refuses, every time', () => {
  const box = countingBox(newKey())
  const sealed = box.seal('secret')
  openKept(box, sealed)
  const other = countingBox(newKey())
  assert.throws(() => openKept(other, sealed), SealedValueError)
  assert.throws(() => openKept(other, sealed), SealedValueError)
  assert.equal(other.opened, 2, 'a refusal is not kept')
})

test('at most 2,000 values are kept per box', () => {
  const box = countingBox(newKey())
  const first = box.seal('first')
  openKept(box, first)
  for (let i = 0; i < 2000; i++) openKept(box, box.seal(`value ${i}`))
  const before = box.opened
  openKept(box, first)
  assert.equal(box.opened, before + 1, 'the oldest was let go')
})
