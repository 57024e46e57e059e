// The wizard's suggested matches between a vendor's account and the PSA's companies (web/src/match.ts).
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { best, searchWord, similarity, suggestThreshold, words } from '../../web/src/match.js'

test('legal suffixes, "the", case, accents and punctuation do not count', () => {
  assert.deepEqual(words('The ACME Corp.'), ['acme'])
  assert.deepEqual(words('Société Générale S.A.'), ['societe', 'generale', 's', 'a'])
  assert.deepEqual(words('Globex, Inc'), ['globex'])
})

test('the same company under other suffixes is suggested; a different one is not', () => {
  assert.ok(similarity('ACME Corp.', 'Acme Corporation') >= suggestThreshold)
  assert.ok(similarity('Globex Inc', 'Globex') >= suggestThreshold)
  assert.ok(similarity('Initech LLC', 'Initech') >= suggestThreshold)
  assert.ok(similarity('AcmeCorp', 'Acme') >= suggestThreshold, 'a word that starts the other counts half')
  assert.equal(similarity('Umbrella Health', 'Initech'), 0)
  assert.ok(similarity('Acme Labs', 'Acme Corporation') >= suggestThreshold)
  assert.ok(similarity('Acme Labs Europe', 'Acme Corporation') < suggestThreshold)
})

test('the best candidate wins, and none below the threshold', () => {
  const companies = [
    { id: '1', name: 'Acme Holdings' },
    { id: '2', name: 'Acme Labs' },
    { id: '3', name: 'Globex' },
  ]
  assert.equal(best('ACME Labs Ltd', companies)?.item.id, '2')
  assert.equal(best('Hooli', companies), null)
})

test('the PSA is searched by the longest telling word', () => {
  assert.equal(searchWord('The Umbrella Health Corp'), 'umbrella')
  assert.equal(searchWord('Inc.'), 'Inc.')
})
