// The closed catalogue of job kinds (src/platform/queue/kinds.ts): the service's runner starts only with
// exactly one handler per listed kind. (That the service's own handlers are that list is checked by every
// test that starts a service: src/main/services.ts builds them through serviceJobKinds, which throws.)
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { jobKinds, serviceJobKinds } from '../../../src/platform/queue/kinds.js'
import type { JobKindEntry } from '../../../src/platform/queue/port.js'

const entry = (kind: string): JobKindEntry => ({
  kind,
  retry: { delaysMs: [], maxDelayMs: 0 },
  run: async () => ({ kind: 'done' }),
})

describe('the job kinds', () => {
  test('every listed kind with one handler is the catalogue', () => {
    const all = jobKinds.map(entry)
    assert.equal(serviceJobKinds(all), all)
  })

  test('a kind without a handler, an unlisted kind and a second handler are refused, each named', () => {
    const some = jobKinds.filter((k) => k !== 'snapshot').map(entry)
    assert.throws(() => serviceJobKinds(some), /no handler of the job kind snapshot/)
    assert.throws(
      () => serviceJobKinds([...jobKinds.map(entry), entry('echo')]),
      /job kind echo, which the catalogue does not list/,
    )
    assert.throws(
      () => serviceJobKinds([...jobKinds.map(entry), entry('alert')]),
      /two handlers of the job kind alert/,
    )
  })
})
