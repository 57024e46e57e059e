// A rule's conditions (title, summary or a vendor's extra data field; equals, contains or an RE2
// pattern) and its ticket templates, previewed live as the partner's PSA would get them.
import { useId } from 'react'
import type { RuleInput } from '../api/types'
import { useDebounced } from '../hooks/debounced'
import { useExtraFields, useTemplatePreview } from '../hooks/rule-templates'
import { ErrorNotice } from './State'

export type Condition = NonNullable<RuleInput['conditions']>[number]
type Operator = 'equals' | 'contains' | 'matches'
const operators: Operator[] = ['equals', 'contains', 'matches']
const operatorOf = (c: Condition): Operator => operators.find((o) => c[o] !== undefined) ?? 'contains'

export function ConditionsEditor({
  integrationId,
  conditions,
  onChange,
}: {
  integrationId: string
  conditions: Condition[]
  onChange: (c: Condition[]) => void
}) {
  const uid = useId()
  const extra = useExtraFields(integrationId)
  const fields = ['title', 'summary', ...(extra.data?.data ?? []).map((f) => f.field)]
  const set = (i: number, c: Condition) => onChange(conditions.map((x, j) => (j === i ? c : x)))
  return (
    <fieldset>
      <legend>Conditions (all must hold; none: every alert of the group and types)</legend>
      <datalist id={`${uid}-fields`}>
        {fields.map((f) => (
          <option key={f} value={f} />
        ))}
      </datalist>
      {conditions.map((c, i) => {
        const op = operatorOf(c)
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: conditions have no id of their own
          <div className="row" key={i}>
            <input
              aria-label="Field"
              list={`${uid}-fields`}
              value={c.field}
              placeholder="title, summary or e.g. severity"
              onChange={(e) => set(i, { ...c, field: e.target.value })}
            />
            <select
              aria-label="Test"
              value={op}
              onChange={(e) => set(i, { field: c.field, [e.target.value as Operator]: c[op] ?? '' })}
            >
              <option value="equals">equals</option>
              <option value="contains">contains</option>
              <option value="matches">matches (RE2 pattern)</option>
            </select>
            <input
              aria-label="Value"
              value={c[op] ?? ''}
              maxLength={256}
              onChange={(e) => set(i, { field: c.field, [op]: e.target.value })}
            />
            <button
              type="button"
              className="secondary"
              onClick={() => onChange(conditions.filter((_, j) => j !== i))}
            >
              Remove
            </button>
          </div>
        )
      })}
      <button
        type="button"
        className="secondary"
        disabled={conditions.length >= 10}
        onClick={() => onChange([...conditions, { field: 'title', contains: '' }])}
      >
        Add condition
      </button>
      {extra.data && extra.data.data.length > 0 && (
        <p className="hint">
          Extra fields in recent alerts:{' '}
          {extra.data.data.map((f) => `${f.field} (${f.examples.slice(0, 3).join(', ')})`).join('; ')}
        </p>
      )}
    </fieldset>
  )
}

export interface Templates {
  title: string | null
  description: string | null
}

const placeholders =
  'title, summary, accountName, accountId, productGroup, alertType, vendor, correlationId, occurrenceCount, portalLink'

export function TemplatesEditor({
  integrationId,
  templates,
  onChange,
}: {
  integrationId: string
  templates: Templates
  onChange: (t: Templates) => void
}) {
  const uid = useId()
  const settled = useDebounced(templates, 300)
  const any = Boolean(settled.title || settled.description)
  const preview = useTemplatePreview(integrationId, { templates: settled }, any)
  const set = (k: keyof Templates) => (v: string) => onChange({ ...templates, [k]: v === '' ? null : v })
  return (
    <fieldset>
      <legend>Ticket text (empty: alertbridge's default)</legend>
      <p className="hint">
        Placeholders: {'{{'}name{'}}'} with name one of {placeholders}. No sections or other tags.
      </p>
      <div className="field">
        <label htmlFor={`${uid}-title`}>Title template</label>
        <input
          id={`${uid}-title`}
          value={templates.title ?? ''}
          maxLength={512}
          placeholder="[{{accountName}}] {{title}}"
          onChange={(e) => set('title')(e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={`${uid}-description`}>Description template</label>
        <textarea
          id={`${uid}-description`}
          rows={4}
          value={templates.description ?? ''}
          maxLength={8192}
          placeholder={'{{summary}}\n\nIn the portal: {{portalLink}}'}
          onChange={(e) => set('description')(e.target.value)}
        />
      </div>
      {any && (
        <section aria-label="Preview" className="panel">
          <strong>Preview on a sample alert</strong>
          {preview.error ? (
            <ErrorNotice error={preview.error} />
          ) : preview.data ? (
            <>
              <p>
                <span className="muted small">Title: </span>
                <span data-testid="preview-title">{preview.data.title ?? '(the alert’s title)'}</span>
              </p>
              <pre data-testid="preview-description">{preview.data.description ?? '(the default text)'}</pre>
              {preview.data.html && (
                <p className="hint">Your PSA shows descriptions as HTML: the alert’s values are escaped.</p>
              )}
            </>
          ) : null}
        </section>
      )}
    </fieldset>
  )
}
