// Which headers schemas the validator compiler skips (src/platform/http/lazy-compilers.ts): one that
// only names optional strings can refuse nothing, so it is not run; any constraint, a required header
// or another type keeps it checked. Through an app: a documented optional header is passed as sent,
// a constrained one is still refused in the failure shape.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import Fastify from 'fastify'
import Type from 'typebox'
import { checksNothing, lazyValidatorCompiler } from '../../../src/platform/http/lazy-compilers.js'

const optional = (s = Type.String({ description: 'a key' })) =>
  Type.Object({ 'idempotency-key': Type.Optional(s) })

describe('headers schemas that check nothing', () => {
  test('only optional plain strings: nothing to check', () => {
    assert.equal(checksNothing(optional()), true)
    assert.equal(checksNothing(Type.Object({})), true)
  })

  test('a constraint, a required header or another type: checked', () => {
    assert.equal(checksNothing(optional(Type.String({ maxLength: 255 }))), false)
    assert.equal(checksNothing(optional(Type.String({ pattern: '^[a-z]+$' }))), false)
    assert.equal(checksNothing(optional(Type.String({ format: 'uuid' }))), false)
    assert.equal(checksNothing(Type.Object({ 'x-key': Type.String() })), false, 'required')
    assert.equal(checksNothing(Type.Object({ 'x-count': Type.Optional(Type.Integer()) })), false)
    assert.equal(checksNothing(Type.Object({}, { additionalProperties: false })), false)
    assert.equal(checksNothing(null), false)
  })

  test('through an app: an unconstrained header passes as sent, a constrained one is refused', async () => {
    const app = Fastify()
    app.setValidatorCompiler(lazyValidatorCompiler)
    app.get('/free', { schema: { headers: optional() } }, async (r) => ({
      key: r.headers['idempotency-key'],
    }))
    app.get('/bounded', { schema: { headers: optional(Type.String({ maxLength: 4 })) } }, async () => ({}))
    try {
      const free = await app.inject({ url: '/free', headers: { 'idempotency-key': 'k'.repeat(300) } })
      assert.deepEqual([free.statusCode, free.json().key], [200, 'k'.repeat(300)])
      const ok = await app.inject({ url: '/bounded', headers: { 'idempotency-key': 'abcd' } })
      assert.equal(ok.statusCode, 200)
      const refused = await app.inject({ url: '/bounded', headers: { 'idempotency-key': 'abcde' } })
      assert.equal(refused.statusCode, 400)
    } finally {
      await app.close()
    }
  })
})
