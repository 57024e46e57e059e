// The integration's switches: alerting, ticket creation, self-healing, de-duplication (which
// fields make two alerts the same incident, and for how long), and what happens to closed tickets
// (an update to one: refused, reopened within a window, or a new ticket; closing only untouched ones).
import { type FormEvent, useState } from 'react'
import { useParams } from 'react-router'
import type { Integration } from '../api/types'
import { CatchAllPanel } from '../components/CatchAllPanel'
import { IntegrationHeader } from '../components/IntegrationHeader'
import { Page } from '../components/Page'
import { SettingsFacts } from '../components/SettingsFacts'
import { ErrorNotice, Notice, QueryView } from '../components/State'
import { StormPanel } from '../components/StormPanel'
import { TestAlertPanel } from '../components/TestAlertPanel'
import { useIntegration, useUpdateIntegration } from '../hooks/integrations'
import { useCanEdit } from '../hooks/session'
import {
  hoursOf,
  type KeyField,
  keyFields,
  maxHours,
  type Policy,
  policies,
  switches,
} from '../settings-words'

function SettingsForm({
  integration,
  update,
}: {
  integration: Integration
  /** The parent's: the form is drawn afresh from what was saved, and "Saved." outlives that. */
  update: ReturnType<typeof useUpdateIntegration>
}) {
  const [flags, setFlags] = useState({
    alertsEnabled: integration.alertsEnabled,
    ticketCreation: integration.ticketCreation,
    selfHealing: integration.selfHealing,
  })
  const [dedup, setDedup] = useState(integration.deduplication.enabled)
  const [fields, setFields] = useState<KeyField[]>(integration.deduplication.keyFields as KeyField[])
  const [windowMinutes, setWindowMinutes] = useState(
    integration.deduplication.windowMinutes?.toString() ?? '',
  )
  const [policy, setPolicy] = useState<Policy>(integration.closedTickets.policy)
  const [reopenHours, setReopenHours] = useState(hoursOf(integration.closedTickets.reopenWindowMinutes))
  const [untouched, setUntouched] = useState(integration.closedTickets.closeOnlyUntouched)
  const [problem, setProblem] = useState<string | null>(null)

  const submit = (e: FormEvent) => {
    e.preventDefault()
    const minutes = windowMinutes.trim() ? Number(windowMinutes) : null
    if (minutes !== null && (!Number.isInteger(minutes) || minutes < 1 || minutes > 525600))
      return setProblem('The window is a whole number of minutes from 1 to 525600, or empty for no limit.')
    if (dedup && fields.length === 0)
      return setProblem('Tick at least one field that makes two alerts the same.')
    const reopenMinutes = Math.round(Number(reopenHours) * 60)
    if (policy === 'reopen' && (!reopenHours.trim() || !(reopenMinutes >= 1 && reopenMinutes <= 525600)))
      return setProblem(
        `Reopen tickets closed within 1 minute to ${maxHours} hours: enter a number of hours.`,
      )
    setProblem(null)
    update.mutate({
      ...flags,
      deduplication: {
        enabled: dedup,
        ...(fields.length ? { keyFields: fields } : {}),
        windowMinutes: minutes,
      },
      closedTickets: {
        policy,
        closeOnlyUntouched: untouched,
        ...(policy === 'reopen' ? { reopenWindowMinutes: reopenMinutes } : {}),
      },
    })
  }
  return (
    <form onSubmit={submit}>
      <fieldset>
        <legend>Switches</legend>
        {switches.map((s) => (
          <div key={s.id} className="field inline">
            <input
              id={s.id}
              type="checkbox"
              checked={flags[s.id]}
              aria-describedby={`${s.id}-hint`}
              onChange={(e) => setFlags((f) => ({ ...f, [s.id]: e.target.checked }))}
            />
            <label htmlFor={s.id}>{s.label}</label>
            <span className="hint" id={`${s.id}-hint`}>
              {s.hint} <strong>{flags[s.id] ? 'On:' : 'Off:'}</strong> {flags[s.id] ? s.on : s.off}
            </span>
          </div>
        ))}
      </fieldset>
      <fieldset>
        <legend>De-duplication</legend>
        <div className="field inline">
          <input id="dedup" type="checkbox" checked={dedup} onChange={(e) => setDedup(e.target.checked)} />
          <label htmlFor="dedup">
            Add a new alert to an open ticket of the same incident instead of opening another
          </label>
        </div>
        <fieldset disabled={!dedup}>
          <legend>The same incident when these fields are equal</legend>
          <div className="checks">
            {keyFields.map((f) => (
              <label key={f.id}>
                <input
                  type="checkbox"
                  checked={fields.includes(f.id)}
                  onChange={(e) =>
                    setFields((l) => (e.target.checked ? [...l, f.id] : l.filter((x) => x !== f.id)))
                  }
                />
                {f.label}
              </label>
            ))}
          </div>
        </fieldset>
        <div className="field">
          <label htmlFor="window">Window in minutes</label>
          <input
            id="window"
            type="number"
            inputMode="numeric"
            min={1}
            max={525600}
            disabled={!dedup}
            value={windowMinutes}
            aria-describedby="window-hint"
            onChange={(e) => setWindowMinutes(e.target.value)}
          />
          <p className="hint" id="window-hint">
            Only tickets opened this recently count; empty: no limit.
          </p>
        </div>
      </fieldset>
      <fieldset>
        <legend>Closed tickets</legend>
        <fieldset>
          <legend>When an alert updates a ticket that is already closed</legend>
          {policies(reopenHours).map((p) => (
            <div key={p.id} className="field inline">
              <input
                id={`policy-${p.id}`}
                type="radio"
                name="closed-policy"
                value={p.id}
                checked={policy === p.id}
                aria-describedby={`policy-${p.id}-hint`}
                onChange={() => setPolicy(p.id)}
              />
              <label htmlFor={`policy-${p.id}`}>{p.label}</label>
              <span className="hint" id={`policy-${p.id}-hint`}>
                {p.hint}
              </span>
            </div>
          ))}
        </fieldset>
        {policy === 'reopen' && (
          <div className="field narrow">
            <label htmlFor="reopen-hours">Reopen window in hours</label>
            <input
              id="reopen-hours"
              type="number"
              inputMode="decimal"
              min={0.1}
              max={maxHours}
              step="any"
              value={reopenHours}
              aria-describedby="reopen-hours-hint"
              onChange={(e) => setReopenHours(e.target.value)}
            />
            <p className="hint" id="reopen-hours-hint">
              A ticket closed longer ago than this is not reopened: a new ticket links it instead.
            </p>
          </div>
        )}
        <div className="field inline">
          <input
            id="close-untouched"
            type="checkbox"
            checked={untouched}
            aria-describedby="close-untouched-hint"
            onChange={(e) => setUntouched(e.target.checked)}
          />
          <label htmlFor="close-untouched">Only close tickets nobody has worked</label>
          <span className="hint" id="close-untouched-hint">
            When the vendor's alert is resolved, a ticket a technician has already worked on stays open, with
            a note saying the alert was resolved.
          </span>
        </div>
      </fieldset>
      {problem && <Notice kind="error">{problem}</Notice>}
      {update.error && <ErrorNotice error={update.error} />}
      {update.isSuccess && <Notice kind="ok">Saved.</Notice>}
      <button type="submit" disabled={update.isPending}>
        {update.isPending ? 'Saving…' : 'Save settings'}
      </button>
    </form>
  )
}

export function IntegrationSettings() {
  const { id = '' } = useParams()
  const canEdit = useCanEdit()
  const integration = useIntegration(id)
  const update = useUpdateIntegration(id)
  return (
    <Page title="Integration settings">
      <QueryView query={integration} what="Loading the integration">
        {(i) => (
          <>
            <IntegrationHeader integration={i} current="Settings" />
            <div className="panel">
              {canEdit ? (
                <SettingsForm key={i.updatedAt} integration={i} update={update} />
              ) : (
                <SettingsFacts integration={i} />
              )}
            </div>
            {/* A viewer may not send a test alert: the panel is an admin's. */}
            {canEdit && (
              <div className="panel">
                <TestAlertPanel integrationId={i.integrationId} />
              </div>
            )}
            <div className="panel">
              <CatchAllPanel integration={i} />
            </div>
            <div className="panel">
              <StormPanel integration={i} />
            </div>
          </>
        )}
      </QueryView>
    </Page>
  )
}
