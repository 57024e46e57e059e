// A rule's ticket templates (docs/partner-api.md#ticket-templates,
// docs/decisions/rules/ticket-templates.md): the PSA ticket's title and description written with
// Mustache placeholders, logic-less. A template is parsed by the `mustache` package and accepted only
// when it is text and plain `{{name}}` placeholders of the list below: no sections, inverted sections,
// partials, unescaped or set-delimiter tags, so a template runs no code and reads no other data. Values
// are put in as text, never parsed again (a title of "{{summary}}" stays that), escaped for PSAs whose
// field renders HTML, and the result is bounded; each PSA adapter then fits it to its own field.
// Pure: the portal's rule editor previews with the same functions.
import Mustache from 'mustache'

export const templatePlaceholders = [
  'title',
  'summary',
  'accountName',
  'accountId',
  'productGroup',
  'alertType',
  'vendor',
  'correlationId',
  'occurrenceCount',
  'portalLink',
] as const
export type TemplatePlaceholder = (typeof templatePlaceholders)[number]
export type TemplateValues = Record<TemplatePlaceholder, string>

/** A rule's templates; null: the ticket text alertbridge writes by default (the alert's title, and so on). */
export interface TicketTemplates {
  title: string | null
  description: string | null
}

export const templateLimits = {
  /** Characters of a template's source. */
  source: { title: 512, description: 8192 },
  /** Characters of a rendered text, before a PSA fits it: no PSA's title holds more than the first;
   * the second is the largest description field of a PSA alertbridge speaks to. */
  rendered: { title: 1000, description: 100_000 },
} as const

export type TemplatePart = { text: string } | { name: TemplatePlaceholder }
export type ParsedTemplate = { ok: true; parts: TemplatePart[] } | { ok: false; problem: string }

const known = new Set<string>(templatePlaceholders)
const tagNames: Record<string, string> = {
  '#': 'a section ({{#…}})',
  '^': 'an inverted section ({{^…}})',
  '/': 'a section end ({{/…}})',
  '>': 'a partial ({{>…}})',
  '&': 'an unescaped placeholder ({{{…}}} or {{&…}})',
  '=': 'a delimiter change ({{=…=}})',
  '!': 'a comment ({{!…}})',
}

// Parsed templates are not cached by the package: the partner's templates are many and change.
Mustache.templateCache = undefined

/** The template's parts, or why it is refused: unknown placeholders are named, with the known ones. */
export function parseTemplate(source: string, maxLength: number): ParsedTemplate {
  if (source.length > maxLength)
    return { ok: false, problem: `is ${source.length} characters long; at most ${maxLength} are allowed` }
  let tokens: unknown[][]
  try {
    tokens = Mustache.parse(source) as unknown[][]
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err)
    return { ok: false, problem: `is not a template: ${why} (a placeholder is {{name}})` }
  }
  const parts: TemplatePart[] = []
  const unknown: string[] = []
  for (const [kind, value] of tokens) {
    const v = String(value)
    if (kind === 'text') parts.push({ text: v })
    else if (kind === 'name') {
      if (known.has(v)) parts.push({ name: v as TemplatePlaceholder })
      else if (!unknown.includes(v)) unknown.push(v)
    } else {
      return {
        ok: false,
        problem: `holds ${tagNames[String(kind)] ?? `a '${String(kind)}' tag`}; templates are logic-less: text and {{name}} placeholders only`,
      }
    }
  }
  if (unknown.length > 0)
    return {
      ok: false,
      problem: `has unknown placeholder${unknown.length > 1 ? 's' : ''} ${unknown.map((u) => `{{${u}}}`).join(', ')}; known: ${templatePlaceholders.join(', ')}`,
    }
  return { ok: true, parts }
}

/** Why a rule's templates are refused, naming the template, or null. */
export function templatesProblem(t: Partial<TicketTemplates>): string | null {
  for (const field of ['title', 'description'] as const) {
    const source = t[field]
    if (source === null || source === undefined) continue
    if (source.trim() === '') return `templates.${field} must not be empty (null: the default text).`
    const parsed = parseTemplate(source, templateLimits.source[field])
    if (!parsed.ok) return `templates.${field} ${parsed.problem}.`
  }
  return null
}

const htmlEscapes: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => htmlEscapes[c] ?? c)

/**
 * The parts with `values` put in: as text, or escaped for a field that renders HTML. At most `max`
 * characters (a huge value, or many of them, cannot make a huge text).
 */
export function renderParts(
  parts: readonly TemplatePart[],
  values: TemplateValues,
  o: { html: boolean; max: number },
): string {
  let out = ''
  for (const part of parts) {
    const room = o.max - out.length
    if (room <= 0) break
    if ('text' in part) out += part.text.slice(0, room)
    else {
      // Escaping may lengthen a value: cut it first to what could fit, then escape and cut again.
      const raw = values[part.name].slice(0, room)
      out += (o.html ? escapeHtml(raw) : raw).slice(0, room)
    }
  }
  return out
}

/** A template rendered (see renderParts), or null when it is refused (the rules API never stores one). */
export function renderTemplate(
  source: string,
  values: TemplateValues,
  o: { html: boolean; field: 'title' | 'description' },
): string | null {
  const parsed = parseTemplate(source, templateLimits.source[o.field])
  if (!parsed.ok) return null
  return renderParts(parsed.parts, values, { html: o.html, max: templateLimits.rendered[o.field] })
}
