// The wizard's suggested matches between a vendor's account and the PSA's companies (web/src/match.ts,
// web/src/match-index.ts): names normalised before they are compared, the reason and confidence of
// each suggestion, false friends, and 500 accounts against 1,000 companies.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { best, compare, normalise, possibleThreshold, searchWord, similarity } from '../../web/src/match.js'
import { CompanyIndex, suggestAll } from '../../web/src/match-index.js'

const match = (a: string, b: string) => compare(normalise(a), normalise(b))

test('names lose case, accents, punctuation, a leading "The" and legal forms at the end', () => {
  assert.equal(normalise('The ACME Corp.').base, 'acme')
  assert.equal(normalise('Société Générale S.A.').base, 'societe generale')
  assert.equal(normalise('Globex, Inc').base, 'globex')
  assert.equal(normalise('Initech L.L.C.').base, 'initech')
  assert.equal(normalise('Wingtip Toys Pty Ltd').base, 'wingtip toys')
  assert.equal(normalise('Müller GmbH & Co. KG').base, 'muller')
  assert.equal(normalise('Straße AG').base, 'strasse')
  assert.equal(normalise('Smith & Sons').base, 'smith and sons')
  assert.equal(normalise("McDonald's").base, 'mcdonalds')
  // A legal form alone, or one not at the end, is the name.
  assert.equal(normalise('Inc.').base, 'inc')
  assert.equal(normalise('AG Insurance').base, 'ag insurance')
  assert.equal(normalise('Coca-Cola Company').base, 'coca cola')
})

test('a branch after a separator is set apart; a hyphen in a word is not a separator', () => {
  for (const [name, base, branch] of [
    ['Woodgrove Bank - Branch Operations', 'woodgrove bank', ' - Branch Operations'],
    ['Woodgrove Bank – East', 'woodgrove bank', ' – East'],
    ['Contoso (Head Office)', 'contoso', ' (Head Office)'],
    ['Contoso: London', 'contoso', ': London'],
    ['Fabrikam Inc. | Support', 'fabrikam', ' | Support'],
    ['Coca-Cola', 'coca cola', null],
    ['- East', 'east', null],
  ] as const) {
    const n = normalise(name)
    assert.deepEqual([n.base, n.branch], [base, branch], name)
  }
})

test('the same name once normalised is confident, and says what was ignored', () => {
  for (const [a, b, reason] of [
    ['Globex', 'Globex', 'Same name'],
    ['GLOBEX', 'globex', 'Same name'],
    ['Société Générale', 'Societe Generale', 'Same name once case, accents and punctuation are ignored'],
    ['Smith & Sons', 'Smith and Sons', "Same name once '&' is read as 'and'"],
    ['Contoso Inc.', 'Contoso', "Same name once 'Inc.' is ignored"],
    ['ACME Corp.', 'Acme Corporation', "Same name once 'Corp.' and 'Corporation' are ignored"],
    ['Initech L.L.C.', 'Initech', "Same name once 'L.L.C.' is ignored"],
    ['Wingtip Toys Pty Ltd', 'Wingtip Toys', "Same name once 'Pty Ltd' is ignored"],
    ['The Phone Company', 'Phone', "Same name once 'The' and 'Company' are ignored"],
    [
      'Woodgrove Bank - Branch Operations',
      'Woodgrove Bank',
      "Same name once the branch ' - Branch Operations' is ignored",
    ],
    ['Contoso', 'Contoso (Head Office)', "Same name once the branch ' (Head Office)' is ignored"],
    ['Fabrikam – East', 'Fabrikam, Inc.', "Same name once 'Inc.' and the branch ' – East' are ignored"],
    ['Contoso: London', 'Contoso Ltd', "Same name once 'Ltd' and the branch ': London' are ignored"],
  ] as const) {
    assert.deepEqual(match(a, b), { confidence: 'confident', reason, score: 1 }, `${a} / ${b}`)
  }
})

test('false friends are not confident, and most are not suggested at all', () => {
  for (const [a, b] of [
    ['Acme Dental', 'Acme Legal'],
    ['Umbrella Health', 'Initech'],
    ['North Star Logistics', 'South Star Logistics'],
    ['IT', 'Acme IT'],
    ['Alpha Corp', 'Beta Corp'],
    ['Inc.', 'Globex Inc.'],
  ] as const) {
    const m = match(a, b)
    assert.notEqual(m?.confidence, 'confident', `${a} / ${b}: ${m?.reason}`)
  }
  assert.equal(match('Acme Dental', 'Acme Legal'), null)
  assert.equal(match('Umbrella Health', 'Initech'), null)
  // Two branches of one name: possibly the same company, never confidently.
  assert.deepEqual(match('Woodgrove Bank - East', 'Woodgrove Bank - West'), {
    confidence: 'possible',
    reason: "Same name but another branch ('- East', '- West')",
    score: 0.9,
  })
})

test('similar names are possible, with their score', () => {
  const m = match('Northwind Traders', 'Northwind Trader')
  assert.equal(m?.confidence, 'possible')
  assert.match(m?.reason ?? '', /^Similar name \(\d\d%\)$/)
  // One name's words all in the other: possible at the threshold.
  assert.deepEqual(match('Contoso', 'Contoso Pharmaceuticals'), {
    confidence: 'possible',
    reason: 'Similar name (60%)',
    score: possibleThreshold,
  })
  assert.ok(similarity('ACME Labs', 'Acme Labs Ltd') > similarity('ACME Labs', 'Acme Holdings'))
})

test('the best candidate wins; none when nothing is close', () => {
  const companies = [
    { id: '1', name: 'Acme Holdings' },
    { id: '2', name: 'Acme Labs' },
    { id: '3', name: 'Globex' },
  ]
  assert.equal(best('ACME Labs Ltd', companies)?.item.id, '2')
  assert.equal(best('ACME Labs Ltd', companies)?.confidence, 'confident')
  assert.equal(best('Hooli', companies), null)
})

test('the index suggests as compare does, prefers the nearest form, and doubts a shared name', () => {
  const index = new CompanyIndex([
    { id: '1', name: 'Woodgrove Bank' },
    { id: '2', name: 'Woodgrove Bank - Branch Operations' },
    { id: '3', name: 'Globex' },
    { id: '4', name: 'Globex Inc.' },
    { id: '5', name: 'Fabrikam Ltd' },
    { id: '6', name: 'Fabrikam, Inc.' },
    { id: '7', name: 'Northwind Trader' },
  ])
  const got = (name: string) => {
    const s = index.suggest(name)
    return s && [s.item.id, s.confidence, s.reason]
  }
  assert.deepEqual(got('Woodgrove Bank - Branch Operations'), ['2', 'confident', 'Same name'])
  assert.deepEqual(got('Woodgrove Bank - Retail'), [
    '1',
    'confident',
    "Same name once the branch ' - Retail' is ignored",
  ])
  assert.deepEqual(got('globex'), ['3', 'confident', 'Same name'])
  assert.deepEqual(got('Fabrikam'), ['5', 'possible', 'Same name as 2 PSA companies: choose one'])
  assert.deepEqual(got('Northwind Traders')?.slice(0, 2), ['7', 'possible'])
  assert.equal(got('Hooli'), null)
  assert.equal(got('!!!'), null)
  assert.equal(index.get('3')?.name, 'Globex')
})

test('500 accounts against 1,000 companies: confident and possible apart, quickly', () => {
  const words = [
    'Alpha',
    'Bravo',
    'Cedar',
    'Delta',
    'Ember',
    'Falcon',
    'Granite',
    'Harbor',
    'Iris',
    'Juniper',
  ]
  const name = (i: number) =>
    `${words[i % 10]} ${words[Math.floor(i / 10) % 10]} ${words[Math.floor(i / 100)]}`
  const companies = Array.from({ length: 1000 }, (_, i) => ({ id: `c${i}`, name: `${name(i)} Inc.` }))
  const accounts = Array.from({ length: 500 }, (_, i) => ({
    vendorAccountId: `a${i}`,
    // Even: the company's name with a branch (confident); odd: one letter off (possible).
    name: i % 2 === 0 ? `${name(i * 2)} LLC - Branch ${i}` : `${name(i * 2).slice(0, -1)}x Ltd`,
  }))
  const started = performance.now()
  const set = suggestAll(accounts, new CompanyIndex(companies))
  const ms = performance.now() - started
  assert.equal(set.confident.length, 250)
  assert.ok(
    set.confident.every(
      ({ account, suggestion }) => suggestion.item.id === `c${Number(account.vendorAccountId.slice(1)) * 2}`,
    ),
  )
  assert.equal(set.possible.length + set.confident.length, set.byAccount.size)
  assert.ok(set.possible.length >= 200, `${set.possible.length} possible`)
  // Milliseconds in a browser; generous here for a busy machine.
  assert.ok(ms < 3000, `${ms} ms`)
})

test('the PSA is searched by the longest telling word', () => {
  assert.equal(searchWord('The Umbrella Health Corp'), 'umbrella')
  assert.equal(searchWord('Inc.'), 'inc')
})
