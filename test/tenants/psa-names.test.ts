// The PSA's names for ids (src/tenants/psa-names.ts): a setting names an entry by its id or its name; a
// list the PSA is slow to give is waited for a short while only (and kept for the next page), one it
// cannot give is not asked again for a minute, and board-scoped lists are never asked without a board.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { ok, refuse } from '../../src/platform/core/result.js'
import type { LookupKind, PsaEntity } from '../../src/psa/adapter.js'
import type { LookupQuery, PsaConnections } from '../../src/psa/index.js'
import type { StoredPsa } from '../../src/psa/stored.js'
import { entryNamed, PsaNames } from '../../src/tenants/psa-names.js'
import { hold } from '../support/wait.js'

const boards: PsaEntity[] = [
  { id: '1', name: 'Service Desk' },
  { id: '2', name: 'Security' },
]

/** A stand-in for the connections: answers after `delayMs`, or fails; counts the calls. */
function connections(answer: { delayMs?: number; fail?: boolean } = {}) {
  const calls: { what: LookupKind; board: string | undefined }[] = []
  const fake = {
    async lookup(_partnerId: string, _stored: StoredPsa, what: LookupKind, q: LookupQuery) {
      calls.push({ what, board: q.board })
      await hold(answer.delayMs ?? 0, 'a PSA that answers after a delay')
      return answer.fail
        ? refuse('PSA_ERROR', 'The PSA failed to answer.')
        : ok({ data: boards, nextCursor: null })
    },
  }
  return { calls, fake: fake as unknown as PsaConnections }
}

const sandbox: StoredPsa = { kind: 'sandbox', settings: {} }
const connectwise: StoredPsa = { kind: 'connectwise', settings: { site: 'example' } }

describe('the PSA names of ids', () => {
  test('an entry by its id, else by its name with case ignored; null when not listed', () => {
    assert.equal(entryNamed(boards, '2')?.name, 'Security')
    assert.equal(entryNamed(boards, 'service desk')?.name, 'Service Desk')
    assert.equal(entryNamed(boards, 'Backup'), null)
    assert.equal(entryNamed(boards, null), null)
    assert.equal(entryNamed(null, '1'), null)
  })

  test('a slow list is waited for a short while only, one read for the pages that wait', async () => {
    const { calls, fake } = connections({ delayMs: 150 })
    const names = new PsaNames(fake, 30)
    assert.equal(await names.list('p1', sandbox, 'boards'), null, 'not in time')
    assert.equal(await names.list('p1', sandbox, 'boards'), null, 'the same read, still not in time')
    assert.equal(calls.length, 1, 'one read for both')
    // The read ends in the background (the connections keep its list for the next page).
    await hold(200, 'the slow read ends before the next test')
  })

  test('a list the PSA cannot give is not asked again for a while', async () => {
    const { calls, fake } = connections({ fail: true })
    const names = new PsaNames(fake, 1000)
    assert.equal(await names.list('p1', sandbox, 'companies'), null)
    assert.equal(await names.list('p1', sandbox, 'companies'), null)
    assert.equal(calls.length, 1)
  })

  test('statuses and types of a PSA that keeps them per board: only with a board', async () => {
    const { calls, fake } = connections()
    const names = new PsaNames(fake, 1000)
    assert.equal(await names.list('p1', connectwise, 'statuses'), null)
    assert.equal(await names.list('p1', connectwise, 'types', null), null)
    assert.deepEqual(calls, [])
    assert.deepEqual(await names.list('p1', connectwise, 'types', '2'), boards)
    assert.deepEqual(await names.list('p1', sandbox, 'types'), boards, 'one list for all boards')
    assert.deepEqual(calls, [
      { what: 'types', board: '2' },
      { what: 'types', board: undefined },
    ])
  })
})
