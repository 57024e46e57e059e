// Rotation windows, credential generations and tenant holds, without I/O
// (docs/decisions/credentials/overlap-window.md, docs/decisions/credentials/disabled-tenants.md).
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import { fieldsSet, originOf } from '../../../src/tenants/audit/operator-audit.js'
import {
  disabledDetail,
  generationLive,
  generationOf,
  matchCredential,
  overlapEnd,
  previousLive,
  rotationState,
  tenantHold,
} from '../../../src/tenants/credentials/credentials.js'

const t0 = new Date('2026-11-22T10:00:00.000Z')
const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000).toISOString()

describe('rotation windows', () => {
  test('the replaced value works until the window ends and not at its end', () => {
    const until = overlapEnd(t0, 3600)
    assert.equal(until, at(3600))
    assert.equal(previousLive(until, at(3599)), true)
    assert.equal(previousLive(until, at(3600)), false)
    assert.equal(previousLive(null, at(0)), false)
  })

  test('an overlap of 0 cuts the replaced value off at once', () => {
    assert.equal(overlapEnd(t0, 0), null)
    assert.equal(matchCredential({ current: false, previous: true }, overlapEnd(t0, 0), at(0)), 'none')
  })

  test('the current value always matches; the replaced one only inside its window', () => {
    const until = at(60)
    assert.equal(matchCredential({ current: true, previous: false }, until, at(600)), 'current')
    assert.equal(matchCredential({ current: false, previous: true }, until, at(59)), 'previous')
    assert.equal(matchCredential({ current: false, previous: true }, until, at(60)), 'none')
    assert.equal(matchCredential({ current: false, previous: false }, until, at(0)), 'none')
  })

  test('a window that is over reads as no window', () => {
    assert.deepEqual(rotationState(at(0), at(60), at(30)), { rotatedAt: at(0), previousValidUntil: at(60) })
    assert.deepEqual(rotationState(at(0), at(60), at(61)), { rotatedAt: at(0), previousValidUntil: null })
  })
})

describe('generations', () => {
  test('a token of the current generation works; of the one before, only inside the window', () => {
    const g = { version: 3, previousExpiresAt: at(60) }
    assert.equal(generationLive(3, g, at(1000)), true)
    assert.equal(generationLive(2, g, at(59)), true)
    assert.equal(generationLive(2, g, at(60)), false)
    assert.equal(generationLive(1, g, at(0)), false, 'two rotations back never works')
    assert.equal(
      generationLive(2, { version: 3, previousExpiresAt: null }, at(0)),
      false,
      'window ended early',
    )
  })

  test('the generation of a match: current is the version, previous the one before', () => {
    assert.equal(generationOf('current', { version: 5, previousExpiresAt: null }), 5)
    assert.equal(generationOf('previous', { version: 5, previousExpiresAt: at(1) }), 4)
  })

  test('property: whatever the window, a token issued by a match works exactly while that match would', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 50 }),
        fc.option(fc.integer({ min: 0, max: 10_000 }), { nil: null }),
        fc.integer({ min: 0, max: 20_000 }),
        fc.boolean(),
        (version, windowEnd, now, usedPrevious) => {
          const g = { version, previousExpiresAt: windowEnd === null ? null : at(windowEnd) }
          const match = matchCredential(
            { current: !usedPrevious, previous: usedPrevious },
            g.previousExpiresAt,
            at(0),
          )
          if (match === 'none') return
          const live = generationLive(generationOf(match, g), g, at(now))
          const secretWorksThen =
            matchCredential(
              { current: !usedPrevious, previous: usedPrevious },
              g.previousExpiresAt,
              at(now),
            ) !== 'none'
          assert.equal(live, secretWorksThen)
        },
      ),
      { seed: 10, numRuns: 500 },
    )
  })
})

describe('disabled tenants', () => {
  const state = { vendorId: 'v1', partnerId: 'p1', vendorDisabled: null, partnerDisabled: null }
  const off = { at: at(0), reason: 'unpaid invoices' }

  test('work of an enabled integration runs; a disabled vendor holds it first, then a disabled partner', () => {
    assert.equal(tenantHold(state), null)
    assert.deepEqual(tenantHold({ ...state, partnerDisabled: off }), {
      key: 'partner:p1',
      reason: 'the partner is disabled',
    })
    assert.deepEqual(tenantHold({ ...state, vendorDisabled: off, partnerDisabled: off }), {
      key: 'vendor:v1',
      reason: 'the vendor is disabled',
    })
  })

  test('the refusal says who was disabled, when and why', () => {
    assert.match(disabledDetail('vendor', off, 'own'), /This vendor was disabled .* \(unpaid invoices\)/)
    assert.match(
      disabledDetail('partner', { at: at(0), reason: null }, 'integration'),
      /^The partner of this/,
    )
  })
})

describe('audit summaries', () => {
  test('a change is named by the fields it set; a URL by its origin only', () => {
    assert.deepEqual(fieldsSet({ name: 'x', webhookUrl: undefined, webhookAuthHeader: 'secret' }), [
      'name',
      'webhookAuthHeader',
    ])
    assert.equal(originOf('https://hooks.example.com:8443/in?token=abc'), 'https://hooks.example.com:8443')
    assert.equal(originOf(null), null)
  })
})
