// Ticket templates (src/alerts/rules/templates.ts, src/alerts/tickets/ticket-template.ts): logic-less parsing, unknown
// placeholders refused by name, values put in as text (never parsed again), escaped for PSAs whose
// description renders HTML, and bounded however large the values.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import {
  escapeHtml,
  parseTemplate,
  renderTemplate,
  type TemplateValues,
  templateLimits,
  templatesProblem,
} from '../../../src/alerts/rules/templates.js'
import {
  portalLink,
  renderedForTicket,
  renderTicketTemplates,
  templateValues,
} from '../../../src/alerts/tickets/ticket-template.js'
import { newTicket } from '../../../src/alerts/tickets/ticket-text.js'
import type { AlertFacts } from '../../../src/platform/core/types.js'
import { rule } from '../../support/decision.js'

const alert = (over: Partial<AlertFacts> = {}): AlertFacts => ({
  incidentStatus: 'OPEN',
  correlationId: undefined,
  title: 'Malware',
  summary: '',
  accountId: 'acme',
  productGroup: 'Endpoint Security',
  alertType: 'Malware Detected',
  ...over,
})

const values = (over: Partial<TemplateValues> = {}): TemplateValues => ({
  title: 'Disk full',
  summary: 'C: at 99%',
  accountName: 'Acme Ltd',
  accountId: 'acme',
  productGroup: 'Monitoring',
  alertType: 'Disk',
  vendor: 'Watcher',
  correlationId: 'cid-1',
  occurrenceCount: '1',
  portalLink: 'https://ab.example/tickets/cid-1',
  ...over,
})
const text = { html: false, field: 'description' } as const

describe('parseTemplate and templatesProblem', () => {
  test('text and known placeholders, with or without spaces inside the braces', () => {
    const p = parseTemplate('[{{ accountName }}] {{title}} ({{occurrenceCount}})', 512)
    assert.ok(p.ok)
    assert.deepEqual(p.parts, [
      { text: '[' },
      { name: 'accountName' },
      { text: '] ' },
      { name: 'title' },
      { text: ' (' },
      { name: 'occurrenceCount' },
      { text: ')' },
    ])
  })

  test('unknown placeholders are refused by name, with the known ones', () => {
    const why = templatesProblem({ title: '{{title}} {{severity}} {{constructor}} {{severity}}' })
    assert.match(
      why ?? '',
      /^templates\.title has unknown placeholders \{\{severity\}\}, \{\{constructor\}\}; known: title, summary/,
    )
  })

  test('sections, inverted sections, partials, unescaped, comments and delimiter changes are refused', () => {
    for (const t of [
      '{{#title}}x{{/title}}',
      '{{^title}}x{{/title}}',
      '{{>partial}}',
      '{{{title}}}',
      '{{&title}}',
      '{{! note }}',
      '{{=<% %>=}}',
    ]) {
      const why = templatesProblem({ description: t })
      assert.match(why ?? '', /^templates\.description holds .*logic-less/, t)
    }
  })

  test('an unclosed tag, an empty template and an oversized one are refused; null is the default', () => {
    assert.match(
      templatesProblem({ title: 'Alert {{title' }) ?? '',
      /templates\.title is not a template: Unclosed tag/,
    )
    assert.match(templatesProblem({ title: '  ' }) ?? '', /must not be empty/)
    const big = 'x'.repeat(templateLimits.source.title + 1)
    assert.match(templatesProblem({ title: big }) ?? '', /at most 512 are allowed/)
    assert.equal(templatesProblem({ title: null, description: null }), null)
    assert.equal(templatesProblem({}), null)
  })
})

describe('rendering', () => {
  test('values are text: a value holding {{…}} is not rendered again', () => {
    const out = renderTemplate(
      '{{title}} / {{summary}}',
      values({ title: '{{summary}}', summary: '{{#a}}{{/a}}' }),
      text,
    )
    assert.equal(out, '{{summary}} / {{#a}}{{/a}}')
  })

  test('HTML in values is escaped for a PSA that renders it, kept as text for one that does not', () => {
    const hostile = '<img src=x onerror=alert(1)> & "q" \'s\''
    const html = renderTemplate('<b>{{summary}}</b>', values({ summary: hostile }), {
      html: true,
      field: 'description',
    })
    assert.equal(html, '<b>&lt;img src=x onerror=alert(1)&gt; &amp; &quot;q&quot; &#39;s&#39;</b>')
    assert.equal(renderTemplate('{{summary}}', values({ summary: hostile }), text), hostile)
    assert.equal(escapeHtml('a<b'), 'a&lt;b')
  })

  test('huge values, repeated, give a bounded text', () => {
    const huge = 'A'.repeat(300_000)
    const many = Array.from({ length: 100 }, () => '{{summary}}').join('')
    const out = renderTemplate(many, values({ summary: huge }), text) ?? ''
    assert.equal(out.length, templateLimits.rendered.description)
    const title =
      renderTemplate('{{title}}{{title}}', values({ title: huge }), { html: false, field: 'title' }) ?? ''
    assert.equal(title.length, templateLimits.rendered.title)
    const escaped =
      renderTemplate('{{summary}}', values({ summary: '<'.repeat(200_000) }), {
        html: true,
        field: 'description',
      }) ?? ''
    assert.equal(escaped.length, templateLimits.rendered.description)
  })

  test('the title is never escaped; the description is for the HTML PSAs (ConnectWise, Halo)', () => {
    const t = { title: '{{title}}', description: '{{title}}' }
    const v = values({ title: 'a<b' })
    assert.deepEqual(renderTicketTemplates(t, v, 'halopsa'), { title: 'a<b', description: 'a&lt;b' })
    assert.deepEqual(renderTicketTemplates(t, v, 'connectwise'), { title: 'a<b', description: 'a&lt;b' })
    assert.deepEqual(renderTicketTemplates(t, v, 'autotask'), { title: 'a<b', description: 'a<b' })
    assert.deepEqual(renderTicketTemplates({ title: null, description: null }, v, 'sandbox'), {
      title: null,
      description: null,
    })
  })

  test('the portal link: PUBLIC_URL and the ticket page, the correlation id encoded', () => {
    assert.equal(portalLink('https://ab.example/', 'a/b c'), 'https://ab.example/tickets/a%2Fb%20c')
    assert.equal(portalLink(null, 'cid'), '/tickets/cid')
    const v = templateValues(
      alert(),
      { vendor: 'V', accountName: 'Acme' },
      {
        correlationId: 'cid-9',
        occurrenceCount: 3,
        publicUrl: 'https://ab.example',
      },
    )
    assert.equal(v.portalLink, 'https://ab.example/tickets/cid-9')
    assert.equal(v.occurrenceCount, '3')
  })

  test('a new ticket: the rendered title, and the rendered description above the reference lines', async () => {
    const r = rule({
      templates: { title: '[{{accountName}}] {{title}}', description: '{{vendor}}: {{summary}}' },
    })
    const store = {
      vendors: { findById: async () => ({ name: 'Watcher' }) },
      vendorData: { findAccount: async () => ({ name: 'Acme Ltd' }) },
    } as unknown as Parameters<typeof renderedForTicket>[0]
    const a = alert({ title: 'Disk full', summary: 'C: at 99%' })
    const rendered = await renderedForTicket(store, null, { id: 'i', vendorId: 'v' }, a, {
      templates: r.templates,
      correlationId: 'cid-1',
      psaKind: 'sandbox',
    })
    assert.deepEqual(rendered, { title: '[Acme Ltd] Disk full', description: 'Watcher: C: at 99%' })
    const d = {
      kind: 'create',
      rule: r,
      mapping: { accountId: 'acme', psaCompanyId: 'c1', board: null },
      correlationId: 'cid-1',
    } as unknown as Parameters<typeof newTicket>[1]
    const t = newTicket(a, d, {}, 'msg-1', null, rendered)
    assert.equal(t.summary, '[Acme Ltd] Disk full')
    assert.equal(t.description, 'Watcher: C: at 99%\n\nCorrelation ID: cid-1\nMessage ID: msg-1')
    const none = await renderedForTicket(store, null, { id: 'i', vendorId: 'v' }, a, {
      templates: { title: null, description: null },
      correlationId: 'cid-1',
      psaKind: 'sandbox',
    })
    assert.equal(none, undefined)
  })
})
