// The usage push's decisions (docs/partner-api.md#usage-counts-reach-the-psas-billing), without I/O: where
// a count goes, which billing line a product names on a company's agreements, and what a failed attempt
// leaves for the partner to see.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { afterFailure, lineForProduct, usageTarget } from '../../src/billing/usage-push-plan.js'

describe('usage target', () => {
  test("the account's own line first, whatever else is mapped", () => {
    assert.deepEqual(usageTarget({ line: '7:12', product: 'P', company: '100' }, 'edr', 'acme'), {
      kind: 'line',
      lineId: '7:12',
    })
    assert.deepEqual(usageTarget({ line: '7:12', product: null, company: null }, 'edr', 'acme'), {
      kind: 'line',
      lineId: '7:12',
    })
  })

  test("then the service's product on the account's company", () => {
    assert.deepEqual(usageTarget({ line: null, product: 'P', company: '100' }, 'edr', 'acme'), {
      kind: 'product',
      productId: 'P',
      companyId: '100',
    })
  })

  test('nothing mapped, or the account without a company: kept, not pushed, and says why', () => {
    const service = usageTarget({ line: null, product: null, company: '100' }, 'edr', 'acme')
    assert.equal(service.kind, 'unmapped')
    assert.match(service.kind === 'unmapped' ? service.detail : '', /Service 'edr' is not mapped/)
    const account = usageTarget({ line: null, product: 'P', company: null }, 'edr', 'acme')
    assert.match(account.kind === 'unmapped' ? account.detail : '', /Account 'acme' is not mapped/)
  })
})

describe('line for a product', () => {
  const line = (id: string, productId: string | null, name = `line ${id}`) => ({
    id,
    productId,
    name,
    agreementName: 'MSA',
  })

  test('the one line billing the product', () => {
    assert.deepEqual(lineForProduct([line('1', 'A'), line('2', 'B')], 'B', '100'), { ok: true, lineId: '2' })
  })

  test('a PSA whose lines name their product only by name: matched by name, case and spacing aside', () => {
    assert.deepEqual(lineForProduct([line('1', null, 'Endpoint  Seats')], 'endpoint seats', '100'), {
      ok: true,
      lineId: '1',
    })
  })

  test('none, or several: the partner is told which, and how to resolve it', () => {
    const none = lineForProduct([line('1', 'A')], 'B', '100')
    assert.equal(none.ok, false)
    assert.match(none.ok ? '' : none.detail, /company '100' has no billing line for product 'B'/)
    const two = lineForProduct([line('1', 'A'), line('2', 'A')], 'A', '100')
    assert.match(two.ok ? '' : two.detail, /2 billing lines .*1 \(MSA\), 2 \(MSA\).*map this account/)
  })
})

describe('after a failed attempt', () => {
  test('a transient failure is retried while the schedule allows, then shown failed', () => {
    const f = { message: 'Service Unavailable', retryable: true }
    assert.deepEqual(afterFailure(f, true), {
      status: 'retrying',
      detail: 'The PSA failed; retrying: Service Unavailable.',
    })
    assert.deepEqual(afterFailure(f, false), {
      status: 'failed',
      detail: 'The PSA kept failing; not retried any more: Service Unavailable.',
    })
  })

  test("a refusal is not retried; the PSA's own words are kept", () => {
    assert.deepEqual(afterFailure({ message: 'Quantity must be positive.', retryable: false }, true), {
      status: 'failed',
      detail: 'The PSA refused: Quantity must be positive.',
    })
  })
})
