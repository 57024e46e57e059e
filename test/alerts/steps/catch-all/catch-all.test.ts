// The catch-all row of the decision table (docs/decision-table.md#catch-all), without I/O: an OPEN of an
// account that is not mapped, or never declared, goes to the fallback company when the integration has
// it on; off, the refusals stay as they were; a catch-all ticket's follow-ups find it unmapped.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { type Decision, decide } from '../../../../src/alerts/domain/decide.js'
import {
  catchAllHeader,
  catchAllMapping,
  catchAllProblem,
  caughtAll,
  remappedNote,
} from '../../../../src/alerts/steps/catch-all/catch-all.js'
import { ctx, rule, settings, ticket } from '../../../support/decision.js'

const on = settings({ catchAll: { enabled: true, psaCompanyId: '999', board: 'Triage' } })
const unmapped = { mappings: new Map() }

function refusal(d: Decision): string | null {
  assert.equal(d.kind, 'done')
  return (d as Extract<Decision, { kind: 'done' }>).outcome.error
}

function created(d: Decision): Extract<Decision, { kind: 'create' }> {
  assert.equal(d.kind, 'create', JSON.stringify(d))
  return d as Extract<Decision, { kind: 'create' }>
}

describe('decide: catch-all', () => {
  test('off (the default, or on without a company): ACCOUNT_NOT_MAPPED and ACCOUNT_UNKNOWN as before', () => {
    for (const integration of [
      settings(),
      settings({ catchAll: { enabled: false, psaCompanyId: '999', board: null } }),
      settings({ catchAll: { enabled: true, psaCompanyId: null, board: null } }),
    ]) {
      assert.equal(refusal(decide(ctx({}, { ...unmapped, integration }))), 'ACCOUNT_NOT_MAPPED')
      assert.equal(
        refusal(decide(ctx({}, { ...unmapped, integration, accountKnown: false }))),
        'ACCOUNT_UNKNOWN',
      )
    }
  })

  test('on: a declared, unmapped account’s OPEN creates in the fallback company and board', () => {
    const d = created(decide(ctx({}, { ...unmapped, integration: on })))
    assert.equal(d.catchAll, 'not-mapped')
    assert.deepEqual(d.mapping, { accountId: 'acme', psaCompanyId: '999', board: 'Triage' })
    assert.equal(d.rule.id, 'rule-1')
  })

  test('on: an account the vendor never declared goes there too', () => {
    const d = created(decide(ctx({}, { ...unmapped, integration: on, accountKnown: false })))
    assert.equal(d.catchAll, 'unknown')
    assert.equal(d.mapping.psaCompanyId, '999')
  })

  test('on: a mapped account goes to its own company, not the catch-all', () => {
    const d = created(decide(ctx({}, { integration: on })))
    assert.equal(d.catchAll, undefined)
    assert.equal(d.mapping.psaCompanyId, '100')
  })

  test('on: the rules still apply (no rule, suppressed) after the catch-all found a company', () => {
    assert.equal(refusal(decide(ctx({}, { ...unmapped, integration: on, rules: [] }))), 'NO_RULE')
    const d = decide(ctx({}, { ...unmapped, integration: on, rules: [rule({ action: 'suppress' })] }))
    assert.equal(d.kind, 'done')
    assert.equal((d as Extract<Decision, { kind: 'done' }>).outcome.row, 'suppressed')
  })

  test('on: a repeat de-duplicates into the open catch-all ticket', () => {
    const holder = ticket({ catchAllCompanyId: '999' })
    const d = decide(ctx({}, { ...unmapped, integration: on, dedupTicket: holder }))
    assert.equal(d.kind, 'append')
  })

  test('a catch-all ticket’s UPDATE and RESOLVED find it while the account stays unmapped, even with the catch-all off', () => {
    const t = ticket({ catchAllCompanyId: '999' })
    for (const incidentStatus of ['UPDATE', 'RESOLVED'] as const) {
      const d = decide(ctx({ incidentStatus, correlationId: 'cid-1' }, { ...unmapped, ticket: t }))
      assert.equal(d.kind, incidentStatus === 'UPDATE' ? 'append' : 'close')
    }
    // An ordinary ticket of an account no longer mapped is still refused.
    const plain = decide(
      ctx({ incidentStatus: 'UPDATE', correlationId: 'cid-1' }, { ...unmapped, ticket: ticket() }),
    )
    assert.equal(refusal(plain), 'ACCOUNT_NOT_MAPPED')
  })
})

describe('catch-all helpers', () => {
  test('the mapping is the fallback company only when on with a company', () => {
    assert.equal(catchAllMapping(undefined, 'a'), null)
    assert.equal(catchAllMapping({ enabled: true, psaCompanyId: null, board: null }, 'a'), null)
    assert.deepEqual(catchAllMapping({ enabled: true, psaCompanyId: '9', board: null }, 'a'), {
      accountId: 'a',
      psaCompanyId: '9',
      board: null,
    })
  })

  test('turning it on needs a company, given or stored', () => {
    assert.match(catchAllProblem(undefined, { enabled: true }) ?? '', /psaCompanyId/)
    assert.equal(catchAllProblem(undefined, { enabled: true, psaCompanyId: '9' }), null)
    const stored = { enabled: false, psaCompanyId: '9', board: null }
    assert.equal(catchAllProblem(stored, { enabled: true }), null)
    assert.match(catchAllProblem({ ...stored, enabled: true }, { psaCompanyId: null }) ?? '', /psaCompanyId/)
    assert.equal(catchAllProblem(stored, undefined), null)
  })

  test('the outcome is 201 created on the catch-all row; the header and notes name the account', () => {
    const o = caughtAll('cid', 'why')
    assert.equal(o.row, 'catch-all')
    assert.equal(o.httpStatus, 201)
    assert.equal(o.message, 'created')
    assert.equal(o.event?.name, 'Ticket Created')
    assert.match(catchAllHeader('acme', 'Acme Inc').join('\n'), /Vendor account: Acme Inc \(id acme\)/)
    assert.match(catchAllHeader('ghost', null).join('\n'), /ghost \(not declared by the vendor\)/)
    assert.match(remappedNote('acme', 'Acme Inc', '100', true), /moved there/)
    assert.match(remappedNote('acme', null, '100', false), /new alerts open tickets there/)
  })
})
