// Storm control (docs/partner-api.md#storm-control): a cap of new tickets per account (and optionally
// per integration) in a rolling window; past it, new alerts fold into one storm ticket per account,
// with batched notes at most once a minute.
import { type FormEvent, useState } from 'react'
import type { Integration } from '../api/types'
import { useUpdateIntegration } from '../hooks/integrations'
import { useCanEdit } from '../hooks/session'
import { Fact, Facts } from './Facts'
import { ErrorNotice, Notice } from './State'

const whole = (s: string, min: number, max: number) => {
  const n = Number(s)
  return s.trim() !== '' && Number.isInteger(n) && n >= min && n <= max ? n : null
}

function StormForm({
  integration,
  update,
}: {
  integration: Integration
  /** The panel's: a save remounts the form (its key), and the answer stays shown. */
  update: ReturnType<typeof useUpdateIntegration>
}) {
  const s = integration.storm
  const [enabled, setEnabled] = useState(s.enabled)
  const [perAccount, setPerAccount] = useState(String(s.maxTicketsPerAccount))
  const [perIntegration, setPerIntegration] = useState(s.maxTicketsPerIntegration?.toString() ?? '')
  const [windowMinutes, setWindowMinutes] = useState(String(s.windowMinutes))
  const [problem, setProblem] = useState<string | null>(null)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    const account = whole(perAccount, 1, 10000)
    const all = perIntegration.trim() ? whole(perIntegration, 1, 100000) : null
    const minutes = whole(windowMinutes, 1, 1440)
    if (account === null) return setProblem('Tickets per account: a whole number from 1 to 10000.')
    if (perIntegration.trim() && all === null)
      return setProblem('Tickets per integration: a whole number from 1 to 100000, or empty for no cap.')
    if (minutes === null) return setProblem('The window: a whole number of minutes from 1 to 1440.')
    setProblem(null)
    update.mutate({
      storm: {
        enabled,
        maxTicketsPerAccount: account,
        maxTicketsPerIntegration: all,
        windowMinutes: minutes,
      },
    })
  }
  return (
    <form onSubmit={submit} aria-label="Storm control">
      <div className="field inline">
        <input
          id="storm-enabled"
          type="checkbox"
          checked={enabled}
          aria-describedby="storm-enabled-hint"
          onChange={(e) => setEnabled(e.target.checked)}
        />
        <label htmlFor="storm-enabled">Fold alert storms into one ticket per account</label>
        <span className="hint" id="storm-enabled-hint">
          Past the cap, new alerts are listed in the account's storm ticket, in a note at most once a minute.
        </span>
      </div>
      <div className="field narrow">
        <label htmlFor="storm-per-account">New tickets per account</label>
        <input
          id="storm-per-account"
          type="number"
          inputMode="numeric"
          min={1}
          max={10000}
          value={perAccount}
          onChange={(e) => setPerAccount(e.target.value)}
        />
      </div>
      <div className="field narrow">
        <label htmlFor="storm-window">Within minutes</label>
        <input
          id="storm-window"
          type="number"
          inputMode="numeric"
          min={1}
          max={1440}
          value={windowMinutes}
          onChange={(e) => setWindowMinutes(e.target.value)}
        />
      </div>
      <div className="field narrow">
        <label htmlFor="storm-per-integration">New tickets per integration (optional)</label>
        <input
          id="storm-per-integration"
          type="number"
          inputMode="numeric"
          min={1}
          max={100000}
          value={perIntegration}
          aria-describedby="storm-per-integration-hint"
          onChange={(e) => setPerIntegration(e.target.value)}
        />
        <p className="hint" id="storm-per-integration-hint">
          Across all accounts; empty: no cap.
        </p>
      </div>
      {problem && <Notice kind="error">{problem}</Notice>}
      {update.error && <ErrorNotice error={update.error} />}
      {update.isSuccess && <Notice kind="ok">Storm control saved.</Notice>}
      <button type="submit" disabled={update.isPending}>
        Save storm control
      </button>
    </form>
  )
}

/** For a viewer: the settings as text. */
function StormFacts({ integration }: { integration: Integration }) {
  const s = integration.storm
  return (
    <Facts label="Storm control">
      <Fact term="Fold alert storms into one ticket per account">
        {s.enabled
          ? "On: past the cap, new alerts are listed in the account's storm ticket, in a note at most once a minute."
          : 'Off: every new alert opens its own ticket.'}
      </Fact>
      <Fact term="New tickets per account">
        {s.maxTicketsPerAccount} within {s.windowMinutes} minutes
      </Fact>
      <Fact term="New tickets per integration">
        {s.maxTicketsPerIntegration === null ? 'no cap' : s.maxTicketsPerIntegration}
      </Fact>
    </Facts>
  )
}

export function StormPanel({ integration }: { integration: Integration }) {
  const canEdit = useCanEdit()
  const update = useUpdateIntegration(integration.integrationId)
  return (
    <section aria-labelledby="storm-h">
      <h2 id="storm-h">Storm control</h2>
      {canEdit ? (
        <StormForm key={integration.updatedAt} integration={integration} update={update} />
      ) : (
        <StormFacts integration={integration} />
      )}
    </section>
  )
}
