// Fitting alert text into a PSA's field limits (src/psa/core/text.ts): titles cut at a word with "…",
// long bodies cut with a line saying so and their reference lines kept.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import { fitText, fitTicket, fitTitle } from '../../../src/psa/core/text.js'

describe('fitting text to a PSA', () => {
  test('a title that fits is kept, on one line', () => {
    assert.equal(fitTitle('Disk  full\non SRV-01', 100), 'Disk full on SRV-01')
  })

  test('a long title is cut at a word boundary and ends with an ellipsis', () => {
    const title = `Ransomware behaviour detected ${'on many hosts '.repeat(30)}`
    const fitted = fitTitle(title, 100)
    assert.ok(fitted.length <= 100, `${fitted.length}`)
    assert.ok(fitted.endsWith('…'))
    assert.match(fitted, /(hosts|many|on)…$/, 'cut after a whole word')
  })

  test('a title of one long word is cut mid-word', () => {
    const fitted = fitTitle('x'.repeat(300), 50)
    assert.equal(fitted, `${'x'.repeat(49)}…`)
  })

  test('a surrogate pair is never split', () => {
    const fitted = fitTitle(`${'a'.repeat(48)}😀😀😀`, 50)
    assert.ok(!/[\ud800-\udbff]…$/.test(fitted), JSON.stringify(fitted))
  })

  test('a body over the limit says how much was cut and keeps its reference lines', () => {
    const text = `${'Line of evidence. '.repeat(6000)}\n\nCorrelation ID: c-1\nMessage ID: m-1`
    const fitted = fitText(text, 8000, 'Autotask')
    assert.ok(fitted.length <= 8000, `${fitted.length}`)
    assert.match(fitted, /\[\d+ characters cut here to fit Autotask's limit of 8000\]/)
    assert.ok(fitted.endsWith('Correlation ID: c-1\nMessage ID: m-1'))
    const cut = Number(/\[(\d+) characters/.exec(fitted)?.[1])
    const head = fitted.slice(0, fitted.indexOf('\n\n['))
    assert.equal(head.length + cut, text.length - '\n\nCorrelation ID: c-1\nMessage ID: m-1'.length)
  })

  test('a cut title opens the description whole', () => {
    const summary = `Backup failed ${'for a very long reason '.repeat(20)}`.trim()
    const t = fitTicket({ summary, description: 'details' }, { title: 80, description: 10_000 }, 'X')
    assert.ok(t.title.length <= 80)
    assert.ok(t.description.startsWith(summary))
    assert.ok(t.description.endsWith('details'))
    const short = fitTicket(
      { summary: 'short', description: 'details' },
      { title: 80, description: 100 },
      'X',
    )
    assert.deepEqual(short, { title: 'short', description: 'details' })
  })

  test('property: the fitted text is never longer than the limit, and unchanged when it fits', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 3000 }), fc.integer({ min: 1, max: 2000 }), (text, max) => {
        const fitted = fitText(text, max, 'PSA')
        assert.ok(fitted.length <= max, `${fitted.length} > ${max}`)
        if (text.length <= max) assert.equal(fitted, text)
        const title = fitTitle(text, max)
        assert.ok(title.length <= max)
      }),
    )
  })
})
