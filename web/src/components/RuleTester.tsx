// The rule tester: build or paste an alert's `data`, and see what the service would do with it now
// (which rule matches, create / append / reopen / close / suppress / refuse, and why). Nothing is changed.
import { type FormEvent, useEffect, useId, useState } from 'react'
import { Link } from 'react-router'
import { useAccounts } from '../hooks/accounts'
import { useCatalogue } from '../hooks/integrations'
import { type DryRunInput, useDryRun } from '../hooks/rules'
import { ErrorNotice, Notice } from './State'

const actionWords: Record<string, string> = {
  create: 'A new ticket would be created.',
  append: 'The alert would be added to an existing ticket.',
  reopen: 'The closed ticket would be reopened, with the alert added to it.',
  close: 'The ticket would be closed.',
  suppress: 'The alert would be suppressed: no ticket.',
  refuse: 'The alert would be refused.',
}

/**
 * The tester takes an alert's data (with its correlationId beside the fields, for UPDATE and RESOLVED)
 * or a whole alert request as a vendor sends it ({…, data: {…}}).
 */
function toDryRun(pasted: Record<string, unknown>): DryRunInput {
  const whole = typeof pasted.data === 'object' && pasted.data !== null ? pasted : null
  const { correlationId, correlationID, ...data } = (whole?.data ?? pasted) as Record<string, unknown>
  const id = whole?.correlationId ?? whole?.correlationID ?? correlationId ?? correlationID
  return { data: data as DryRunInput['data'], ...(typeof id === 'string' && id ? { correlationId: id } : {}) }
}

export function RuleTester({
  integrationId,
  onResult,
}: {
  integrationId: string
  onResult: (matchedRuleId: string | null) => void
}) {
  const uid = useId()
  const catalogue = useCatalogue(integrationId)
  const accounts = useAccounts(integrationId, 'all', null, 50)
  const groups = catalogue.data?.productGroups ?? {}
  const dryRun = useDryRun(integrationId)
  const [group, setGroup] = useState('')
  const [type, setType] = useState('')
  const [account, setAccount] = useState('')
  const [status, setStatus] = useState('OPEN')
  const [text, setText] = useState('')
  const [parseError, setParseError] = useState<string | null>(null)
  const g = group || Object.keys(groups)[0] || ''
  const t = type || groups[g]?.[0] || ''
  const a = account || accounts.data?.data[0]?.vendorAccountId || ''

  // The builder writes the alert; the text stays editable (paste a real one there).
  const build = () =>
    setText(
      JSON.stringify(
        {
          title: `Test: ${t || 'alert'}`,
          summary: 'Sent from the rule tester',
          productGroup: g,
          alertType: t,
          accountId: a,
          incidentStatus: status,
        },
        null,
        2,
      ),
    )
  // biome-ignore lint/correctness/useExhaustiveDependencies: build once the catalogue and accounts arrive
  useEffect(() => {
    if (!text && g && a) build()
  }, [g, a])

  const submit = (e: FormEvent) => {
    e.preventDefault()
    let data: unknown
    try {
      data = JSON.parse(text)
    } catch {
      return setParseError('The alert is not valid JSON: check its quotes, commas and braces.')
    }
    if (typeof data !== 'object' || data === null || Array.isArray(data))
      return setParseError('The alert must be a JSON object like the data of an alert.')
    setParseError(null)
    dryRun.mutate(toDryRun(data as Record<string, unknown>), {
      onSuccess: (r) => onResult(r.matchedRule?.id ?? null),
    })
  }
  const r = dryRun.data
  return (
    <section className="panel" aria-labelledby={`${uid}-h`}>
      <h2 id={`${uid}-h`}>Rule tester</h2>
      <p className="small muted">Shows what an alert would do now. Nothing is created or changed.</p>
      <fieldset>
        <legend>Build an alert</legend>
        <div className="grid-2">
          <div className="field">
            <label htmlFor={`${uid}-group`}>Product group</label>
            <select
              id={`${uid}-group`}
              value={g}
              onChange={(e) => {
                setGroup(e.target.value)
                setType('')
              }}
            >
              {Object.keys(groups).map((x) => (
                <option key={x}>{x}</option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${uid}-type`}>Alert type</label>
            <select id={`${uid}-type`} value={t} onChange={(e) => setType(e.target.value)}>
              {(groups[g] ?? []).map((x) => (
                <option key={x}>{x}</option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${uid}-account`}>Account</label>
            <select id={`${uid}-account`} value={a} onChange={(e) => setAccount(e.target.value)}>
              {(accounts.data?.data ?? []).map((x) => (
                <option key={x.vendorAccountId} value={x.vendorAccountId}>
                  {x.name}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${uid}-status`}>Incident status</label>
            <select id={`${uid}-status`} value={status} onChange={(e) => setStatus(e.target.value)}>
              <option>OPEN</option>
              <option>UPDATE</option>
              <option>RESOLVED</option>
            </select>
          </div>
        </div>
        <button type="button" className="secondary" onClick={build}>
          Fill in the alert below
        </button>
      </fieldset>
      <form onSubmit={submit}>
        <div className="field">
          <label htmlFor={`${uid}-json`}>Alert data (JSON)</label>
          <textarea
            id={`${uid}-json`}
            className="mono"
            spellCheck={false}
            value={text}
            onChange={(e) => setText(e.target.value)}
            aria-describedby={`${uid}-json-hint`}
          />
          <p className="hint" id={`${uid}-json-hint`}>
            The alert's <code>data</code> as a vendor sends it; add <code>"correlationId"</code> to test an
            update or a close.
          </p>
        </div>
        <button type="submit" disabled={dryRun.isPending || !text.trim()}>
          {dryRun.isPending ? 'Testing…' : 'Test alert'}
        </button>
      </form>
      {parseError && <Notice kind="error">{parseError}</Notice>}
      {dryRun.error && <ErrorNotice error={dryRun.error} />}
      {r && (
        <div
          aria-live="polite"
          className={`notice ${r.action === 'refuse' ? 'error' : r.action === 'suppress' ? 'warn' : 'ok'}`}
        >
          <p>
            <strong data-testid="dry-run-action">{r.action}</strong>: {actionWords[r.action] ?? ''}
          </p>
          <p>{r.reason}</p>
          <p>
            {r.matchedRule
              ? `Matched rule: ${r.matchedRule.productGroup}${r.matchedRule.alertTypes.length ? ` (${r.matchedRule.alertTypes.join(', ')})` : ''}, precedence ${r.matchedRule.precedence}.`
              : 'No rule matched.'}
          </p>
          {r.existingTicket && (
            <p>
              Existing ticket:{' '}
              <Link
                to={`/tickets/${encodeURIComponent(r.existingTicket.correlationId)}?integrationId=${encodeURIComponent(integrationId)}`}
              >
                {r.existingTicket.correlationId}
              </Link>
            </p>
          )}
          {r.ticket && (
            <p>
              The ticket:{' '}
              {(['board', 'priority', 'type', 'status'] as const)
                .map((k) => `${k} ${r.ticket?.[k] ?? 'PSA default'}`)
                .join(' · ')}
            </p>
          )}
          {r.error && (
            <p className="small">
              The vendor would get the error <code>{r.error}</code>.
            </p>
          )}
        </div>
      )}
    </section>
  )
}
