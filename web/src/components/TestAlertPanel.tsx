// "Send a test alert" (docs/partner-api.md#test-alerts): a real alert through the rules to the PSA for
// one account, the ticket's title starting "[TEST] ", shown with its link in the PSA; it closes by
// itself after the minutes chosen, or at once with "Close now". The vendor gets no webhook for it.
import { type FormEvent, useState } from 'react'
import { Link } from 'react-router'
import { useAccounts } from '../hooks/accounts'
import { useCanEdit } from '../hooks/session'
import { type TestAlertResult, useCloseTestAlert, useSendTestAlert } from '../hooks/test-alerts'
import { ErrorNotice, Notice } from './State'

function Result({ result }: { result: TestAlertResult }) {
  const t = result.ticket
  return (
    <div className="test-alert-result" aria-live="polite">
      <p>
        {result.status === 'created' ? 'Test ticket created' : `Test alert ${result.status}`}
        {t ? (
          <>
            : <Link to={`/tickets/${encodeURIComponent(t.correlationId)}`}>{t.title}</Link> ({t.status})
          </>
        ) : (
          result.detail && `: ${result.detail}`
        )}
      </p>
      {t?.psaTicketUrl ? (
        <p>
          <a href={t.psaTicketUrl} target="_blank" rel="noreferrer">
            Open ticket {t.psaTicketId} in the PSA
          </a>
        </p>
      ) : (
        t?.psaTicketId && <p>PSA ticket {t.psaTicketId} (this PSA has no ticket links).</p>
      )}
      {result.closesAt && t?.status !== 'closed' && (
        <p className="hint">Closes by itself at {new Date(result.closesAt).toLocaleTimeString()}.</p>
      )}
    </div>
  )
}

export function TestAlertPanel({ integrationId }: { integrationId: string }) {
  const canEdit = useCanEdit()
  const accounts = useAccounts(integrationId, 'mapped', null, 50)
  const send = useSendTestAlert(integrationId)
  const close = useCloseTestAlert(integrationId)
  const [accountId, setAccountId] = useState('')
  const [minutes, setMinutes] = useState('5')
  const [problem, setProblem] = useState<string | null>(null)
  const result = close.data ?? send.data

  const submit = (e: FormEvent) => {
    e.preventDefault()
    const closeAfterMinutes = Number(minutes)
    if (!minutes.trim() || !(closeAfterMinutes >= 0 && closeAfterMinutes <= 1440))
      return setProblem('Close after 0 to 1440 minutes (0: keep it open until you close it).')
    setProblem(null)
    close.reset()
    send.mutate({ closeAfterMinutes, ...(accountId ? { accountId } : {}) })
  }
  const cid = result?.ticket?.status === 'open' ? result.ticket.correlationId : null
  return (
    <form onSubmit={submit} aria-labelledby="test-alert-title">
      <h2 id="test-alert-title">Send a test alert</h2>
      <p className="hint">
        A real alert through your rules to your PSA, its ticket's title starting [TEST]. The vendor is not
        told, and the dashboard counts it apart.
      </p>
      <fieldset disabled={!canEdit || send.isPending}>
        <legend>Test alert</legend>
        <div className="field">
          <label htmlFor="test-account">Account</label>
          <select id="test-account" value={accountId} onChange={(e) => setAccountId(e.target.value)}>
            <option value="">The first mapped account</option>
            {accounts.data?.data.map((a) => (
              <option key={a.vendorAccountId} value={a.vendorAccountId}>
                {a.name} ({a.vendorAccountId})
              </option>
            ))}
          </select>
        </div>
        <div className="field narrow">
          <label htmlFor="test-minutes">Close after minutes</label>
          <input
            id="test-minutes"
            type="number"
            inputMode="decimal"
            min={0}
            max={1440}
            step="any"
            value={minutes}
            aria-describedby="test-minutes-hint"
            onChange={(e) => setMinutes(e.target.value)}
          />
          <p className="hint" id="test-minutes-hint">
            0: the ticket stays open until you close it.
          </p>
        </div>
      </fieldset>
      {problem && <Notice kind="error">{problem}</Notice>}
      {send.error && <ErrorNotice error={send.error} />}
      {close.error && <ErrorNotice error={close.error} />}
      {result && <Result result={result} />}
      {close.data && <Notice kind="ok">Closed.</Notice>}
      {canEdit && (
        <div className="actions">
          <button type="submit" disabled={send.isPending}>
            {send.isPending ? 'Sending…' : 'Send a test alert'}
          </button>
          {cid && (
            <button type="button" disabled={close.isPending} onClick={() => close.mutate(cid)}>
              {close.isPending ? 'Closing…' : 'Close now'}
            </button>
          )}
        </div>
      )}
    </form>
  )
}
