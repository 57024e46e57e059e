// The rule tester: build an alert from fields (or edit it as JSON, or paste a vendor's) and see what the
// service would do with it now, in plain words (which rule, which company and board, or why it would
// fail and what to do), the technical detail behind a disclosure. Nothing is changed.
import { type FormEvent, useEffect, useId, useState } from 'react'
import { useAccounts } from '../hooks/accounts'
import { useProductGroups } from '../hooks/integrations'
import { type DryRunInput, useDryRun } from '../hooks/rules'
import {
  type AlertFields,
  alertOfFields,
  fieldsOfJson,
  inputOfPasted,
  jsonOfFields,
  parseAlertJson,
} from '../tester-alert'
import { DryRunResult } from './DryRunResult'
import { ErrorNotice, Notice } from './State'
import { TesterFields } from './TesterFields'

const blank: AlertFields = {
  accountId: '',
  productGroup: '',
  alertType: '',
  incidentStatus: 'OPEN',
  correlationId: '',
  title: 'Test alert from the rule tester',
  summary: '',
  extras: [],
}

/** The fields the alert endpoints require are filled in (the account and catalogue have arrived). */
const complete = (f: AlertFields) => Boolean(f.accountId && f.productGroup && f.alertType && f.title.trim())

export function RuleTester({
  integrationId,
  onResult,
}: {
  integrationId: string
  onResult: (matchedRuleId: string | null) => void
}) {
  const uid = useId()
  const catalogue = useProductGroups(integrationId)
  // The same list the account picker starts with (one request for both).
  const firstAccount = useAccounts(integrationId, 'all', null, 100)
  const groups = catalogue.data?.productGroups ?? {}
  const dryRun = useDryRun(integrationId)
  const [fields, setFields] = useState<AlertFields>(blank)
  const [mode, setMode] = useState<'fields' | 'json'>('fields')
  const [text, setText] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const [runs, setRuns] = useState(0)

  // Start from the catalogue's first group and type and the first account, once they arrive.
  const group = Object.keys(groups)[0] ?? ''
  const account = firstAccount.data?.data[0]?.vendorAccountId ?? ''
  // biome-ignore lint/correctness/useExhaustiveDependencies: filled in once, when they arrive (groups follows group)
  useEffect(() => {
    setFields((f) => {
      const productGroup = f.productGroup || group
      return {
        ...f,
        productGroup,
        alertType: f.alertType || (groups[productGroup]?.[0] ?? ''),
        accountId: f.accountId || account,
      }
    })
  }, [group, account])

  const toJson = () => {
    setText(jsonOfFields(fields))
    setProblem(null)
    setMode('json')
  }
  const toFields = () => {
    const parsed = fieldsOfJson(text)
    if (!parsed.ok) return setProblem(parsed.problem)
    setFields(parsed.value)
    setProblem(null)
    setMode('fields')
  }

  const submit = (e: FormEvent) => {
    e.preventDefault()
    let input: DryRunInput
    if (mode === 'json') {
      const parsed = parseAlertJson(text)
      if (!parsed.ok) return setProblem(parsed.problem)
      input = inputOfPasted(parsed.value) as DryRunInput
    } else {
      input = alertOfFields(fields) as DryRunInput
    }
    setProblem(null)
    dryRun.mutate(input, {
      onSuccess: (r) => {
        setRuns((n) => n + 1)
        onResult(r.matchedRule?.id ?? null)
      },
    })
  }

  return (
    <section className="panel" aria-labelledby={`${uid}-h`}>
      <h2 id={`${uid}-h`}>Rule tester</h2>
      <p className="small muted">
        Shows what an alert would do now: which rule takes it and where its ticket would go. Nothing is
        created or changed.
      </p>
      <form onSubmit={submit} aria-labelledby={`${uid}-alert`}>
        <div className="row spread">
          <h3 id={`${uid}-alert`}>The alert to test</h3>
          <button type="button" className="secondary" onClick={mode === 'fields' ? toJson : toFields}>
            {mode === 'fields' ? 'Edit as JSON' : 'Edit as fields'}
          </button>
        </div>
        {mode === 'fields' ? (
          <TesterFields integrationId={integrationId} groups={groups} fields={fields} onChange={setFields} />
        ) : (
          <div className="field">
            <label htmlFor={`${uid}-json`}>Alert data (JSON)</label>
            <textarea
              id={`${uid}-json`}
              className="mono"
              spellCheck={false}
              rows={10}
              value={text}
              onChange={(e) => setText(e.target.value)}
              aria-describedby={`${uid}-json-hint`}
            />
            <p className="hint" id={`${uid}-json-hint`}>
              The alert's <code>data</code> as a vendor sends it, or a whole alert request (its credentials
              are ignored); add <code>"correlationId"</code> to test an update or a close.
            </p>
          </div>
        )}
        {problem && <Notice kind="error">{problem}</Notice>}
        <button
          type="submit"
          disabled={dryRun.isPending || (mode === 'json' ? !text.trim() : !complete(fields))}
        >
          {dryRun.isPending ? 'Testing…' : 'Test alert'}
        </button>
      </form>
      {dryRun.error && <ErrorNotice error={dryRun.error} />}
      <DryRunResult integrationId={integrationId} result={dryRun.data} run={runs} />
    </section>
  )
}
