// The bearer-token cache the token-based PSAs share: one fetch for many callers, renewal a margin
// before expiry (with the refresh token while it is good), and one more try with a new token when the
// PSA refuses the one held.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import type { PsaResult } from '../../../src/psa/adapter.js'
import { type Token, TokenCache } from '../../../src/psa/core/token.js'
import { hold } from '../../support/wait.js'

const call = () => ({ signal: AbortSignal.timeout(5000) })

function cache(lifeMs: number, now: () => number) {
  const fetches: (string | null)[] = []
  let n = 0
  const tokens = new TokenCache({
    now,
    async fetch(_call, expiring): Promise<PsaResult<Token>> {
      fetches.push(expiring?.refresh?.value ?? null)
      await hold(5, 'a fetch that takes a moment, so that callers overlap')
      n++
      return {
        ok: true,
        value: {
          value: `t${n}`,
          expiresAt: now() + lifeMs,
          refresh: { value: `r${n}`, expiresAt: now() + 10 * lifeMs },
        },
      }
    },
  })
  return { tokens, fetches }
}

describe('PSA token cache', () => {
  test('callers at the same time share one fetch; the token is kept until the margin before expiry', async () => {
    let now = 1_000_000
    const { tokens, fetches } = cache(3_600_000, () => now)
    const got = await Promise.all(Array.from({ length: 5 }, () => tokens.get(call())))
    assert.deepEqual(
      got.map((g) => (g.ok ? g.value : null)),
      ['t1', 't1', 't1', 't1', 't1'],
    )
    assert.deepEqual(fetches, [null])
    now += 3_600_000 - 61_000
    assert.deepEqual(await tokens.get(call()), { ok: true, value: 't1' })
    now += 2_000
    assert.deepEqual(await tokens.get(call()), { ok: true, value: 't2' }, 'renewed within the margin')
    assert.deepEqual(fetches, [null, 'r1'], 'renewed with the refresh token')
  })

  test('a 401 with the token held: fetched again and the call sent once more; twice refused is passed on', async () => {
    const { tokens, fetches } = cache(3_600_000, Date.now)
    const seen: string[] = []
    const r = await tokens.send(call(), async (token): Promise<PsaResult<string>> => {
      seen.push(token)
      return token === 't1'
        ? { ok: false, failure: { kind: 'auth', retryable: false, status: 401, message: 'expired' } }
        : { ok: true, value: 'done' }
    })
    assert.deepEqual(r, { ok: true, value: 'done' })
    assert.deepEqual(seen, ['t1', 't2'])
    const refused = await tokens.send(
      call(),
      async (): Promise<PsaResult<string>> => ({
        ok: false,
        failure: { kind: 'auth', retryable: false, status: 401, message: 'bad client' },
      }),
    )
    assert.equal(refused.ok ? null : refused.failure.kind, 'auth')
    assert.equal(fetches.length, 3)
  })

  test('a failed fetch is not kept: the next call tries again', async () => {
    let fail = true
    const tokens = new TokenCache({
      async fetch(): Promise<PsaResult<Token>> {
        if (fail) return { ok: false, failure: { kind: 'auth', retryable: false, message: 'invalid_client' } }
        return { ok: true, value: { value: 'good', expiresAt: Date.now() + 60_000 } }
      },
    })
    assert.equal((await tokens.get(call())).ok, false)
    fail = false
    assert.deepEqual(await tokens.get(call()), { ok: true, value: 'good' })
  })
})
