// The integration's switches: alerting, ticket creation, self-healing, and de-duplication (which
// fields make two alerts the same incident, and for how long).
import { type FormEvent, useState } from 'react'
import { useParams } from 'react-router'
import type { Integration } from '../api/types'
import { IntegrationHeader } from '../components/IntegrationHeader'
import { Page } from '../components/Page'
import { ErrorNotice, Notice, QueryView } from '../components/State'
import { useIntegration, useUpdateIntegration } from '../hooks/integrations'
import { useCanEdit } from '../hooks/session'

const keyFields = [
  { id: 'accountId', label: 'Account' },
  { id: 'productGroup', label: 'Product group' },
  { id: 'alertType', label: 'Alert type' },
  { id: 'title', label: 'Title' },
] as const
type KeyField = (typeof keyFields)[number]['id']

const switches = [
  {
    id: 'alertsEnabled',
    label: 'Alerting',
    hint: 'Off: the vendor is told alerting is disabled and nothing is created.',
  },
  {
    id: 'ticketCreation',
    label: 'Ticket creation',
    hint: 'Off: new alerts are recorded as suppressed, no ticket.',
  },
  {
    id: 'selfHealing',
    label: 'Self-healing',
    hint: 'On: a resolved alert closes its ticket with a resolution note.',
  },
] as const

function SettingsForm({ integration }: { integration: Integration }) {
  const canEdit = useCanEdit()
  const update = useUpdateIntegration(integration.integrationId)
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
  const [problem, setProblem] = useState<string | null>(null)

  const submit = (e: FormEvent) => {
    e.preventDefault()
    const minutes = windowMinutes.trim() ? Number(windowMinutes) : null
    if (minutes !== null && (!Number.isInteger(minutes) || minutes < 1 || minutes > 525600))
      return setProblem('The window is a whole number of minutes from 1 to 525600, or empty for no limit.')
    if (dedup && fields.length === 0)
      return setProblem('Tick at least one field that makes two alerts the same.')
    setProblem(null)
    update.mutate({
      ...flags,
      deduplication: {
        enabled: dedup,
        ...(fields.length ? { keyFields: fields } : {}),
        windowMinutes: minutes,
      },
    })
  }
  return (
    <form onSubmit={submit}>
      <fieldset disabled={!canEdit}>
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
              {s.hint}
            </span>
          </div>
        ))}
      </fieldset>
      <fieldset disabled={!canEdit}>
        <legend>De-duplication</legend>
        <div className="field inline">
          <input id="dedup" type="checkbox" checked={dedup} onChange={(e) => setDedup(e.target.checked)} />
          <label htmlFor="dedup">
            Add a new alert to an open ticket of the same incident instead of opening another
          </label>
        </div>
        <fieldset disabled={!dedup || !canEdit}>
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
      {problem && <Notice kind="error">{problem}</Notice>}
      {update.error && <ErrorNotice error={update.error} />}
      {update.isSuccess && <Notice kind="ok">Saved.</Notice>}
      {canEdit && (
        <button type="submit" disabled={update.isPending}>
          {update.isPending ? 'Saving…' : 'Save settings'}
        </button>
      )}
    </form>
  )
}

export function IntegrationSettings() {
  const { id = '' } = useParams()
  const integration = useIntegration(id)
  return (
    <Page title="Integration settings">
      <QueryView query={integration} what="Loading the integration">
        {(i) => (
          <>
            <IntegrationHeader integration={i} current="Settings" />
            <div className="panel">
              <SettingsForm key={i.updatedAt} integration={i} />
            </div>
          </>
        )}
      </QueryView>
    </Page>
  )
}
