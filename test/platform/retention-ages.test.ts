// The retention ages (docs/decisions/bounded-growth/retention-ages.md): how the environment's values read,
// and the cut-off each gives.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  cutoffs,
  defaultRetentionDays,
  parseRetentionDays,
  retentionKinds,
} from '../../src/platform/retention-ages.js'

test('a number of days, 0 or off; 0 and off keep rows for ever', () => {
  assert.equal(parseRetentionDays('90'), 90)
  assert.equal(parseRetentionDays(' 7 '), 7)
  assert.equal(parseRetentionDays('0'), null)
  assert.equal(parseRetentionDays('off'), null)
  assert.equal(parseRetentionDays('OFF'), null)
  for (const bad of ['-1', '1.5', 'never', '']) assert.throws(() => parseRetentionDays(bad), RangeError)
})

test('each kind kept for a number of days is cut off that many days before now; kinds kept for ever are left out', () => {
  const now = new Date('2026-04-01T12:00:00.000Z')
  const list = cutoffs({ ...defaultRetentionDays, events: null, usage_counts: 1 }, now)
  assert.deepEqual(
    list.map((c) => c.kind),
    retentionKinds.filter((k) => k !== 'events'),
  )
  assert.equal(list.find((c) => c.kind === 'usage_counts')?.before, '2026-03-31T12:00:00.000Z')
  assert.equal(list.find((c) => c.kind === 'dead_deliveries')?.before, '2026-03-02T12:00:00.000Z')
})

test('the documented defaults: 90 days of events, 30 of deliveries, dead jobs, dead tokens and orphaned PSA effects, 400 of usage, 1 of idempotency keys, 30 of ended one-off maintenance windows', () => {
  assert.deepEqual(defaultRetentionDays, {
    delivered_deliveries: 30,
    dead_deliveries: 30,
    events: 90,
    dead_jobs: 30,
    usage_counts: 400,
    access_tokens: 30,
    psa_effects: 30,
    idempotency_keys: 1,
    maintenance_windows: 30,
  })
})
