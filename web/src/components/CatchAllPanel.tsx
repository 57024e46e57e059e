// The catch-all account (docs/partner-api.md#catch-all-account): turn it on with a fallback PSA company
// (and board), see the accounts seen unmapped with their alert counts, and map one in a click; its open
// catch-all tickets are then moved to the company where the PSA can, else noted.
import { type FormEvent, useState } from 'react'
import type { Integration } from '../api/types'
import { useUpdateIntegration } from '../hooks/integrations'
import { usePsaLookup } from '../hooks/psa'
import { useCanEdit } from '../hooks/session'
import { useMapUnmapped, useUnmappedAccounts } from '../hooks/unmapped-accounts'
import { Fact, Facts, LookupFact } from './Facts'
import { LookupSelect } from './LookupSelect'
import { ErrorNotice, Notice, QueryView } from './State'

function CatchAllForm({
  integration,
  update,
}: {
  integration: Integration
  /** The panel's: a save remounts the form (its key), and the answer stays shown. */
  update: ReturnType<typeof useUpdateIntegration>
}) {
  const c = integration.catchAll
  const [enabled, setEnabled] = useState(c.enabled)
  const [company, setCompany] = useState(c.psaCompanyId ?? '')
  const [board, setBoard] = useState(c.board ?? '')
  const [problem, setProblem] = useState<string | null>(null)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (enabled && !company.trim()) return setProblem('Give the PSA company the catch-all tickets go to.')
    setProblem(null)
    update.mutate({
      catchAll: { enabled, psaCompanyId: company.trim() || null, board: board.trim() || null },
    })
  }
  return (
    <form onSubmit={submit} aria-label="Catch-all account">
      <div className="field">
        <label>
          <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} /> Send
          alerts of unmapped accounts to a catch-all company
        </label>
        <p className="hint">
          <strong>{enabled ? 'On:' : 'Off:'}</strong>{' '}
          {enabled
            ? "an unmapped account's alert opens its ticket in the catch-all company, the account named at its top."
            : 'alerts of unmapped accounts are refused as not mapped (ACCOUNT_NOT_MAPPED).'}
        </p>
      </div>
      <LookupSelect
        id="catch-all-company"
        what="companies"
        label="Catch-all PSA company"
        emptyLabel="Choose a company"
        value={company || null}
        onChange={(v) => setCompany(v ?? '')}
      />
      <LookupSelect
        id="catch-all-board"
        what="boards"
        label="Catch-all board (optional)"
        value={board || null}
        onChange={(v) => setBoard(v ?? '')}
      />
      {problem && <Notice kind="error">{problem}</Notice>}
      {update.error && <ErrorNotice error={update.error} />}
      {update.isSuccess && <Notice kind="ok">Catch-all saved.</Notice>}
      <button type="submit" disabled={update.isPending}>
        Save catch-all
      </button>
    </form>
  )
}

function UnmappedList({ integrationId }: { integrationId: string }) {
  const canEdit = useCanEdit()
  const list = useUnmappedAccounts(integrationId)
  const map = useMapUnmapped(integrationId)
  const [companies, setCompanies] = useState<Record<string, string>>({})
  const moved = map.data?.catchAllTickets
  const psaCompanies = usePsaLookup('companies', { limit: 1000, board: null }, canEdit || map.isSuccess)
  const companyName = (id: string) => psaCompanies.data?.data.find((c) => c.id === id)?.name ?? id
  // The account leaves the list once mapped: its name is kept from the click.
  const [mappedName, setMappedName] = useState<string | null>(null)
  return (
    <section aria-labelledby="unmapped-h">
      <h3 id="unmapped-h">Unmapped accounts</h3>
      {map.error && <ErrorNotice error={map.error} />}
      {map.isSuccess && (
        <Notice kind="ok">
          Mapped {mappedName ?? map.data.accountId} to {companyName(map.data.psaCompanyId)}
          {moved
            ? `: ${moved.moved} catch-all ticket(s) moved, ${moved.noted} noted${moved.failed ? `, ${moved.failed} failed` : ''}.`
            : '.'}
        </Notice>
      )}
      <QueryView query={list} what="Loading the unmapped accounts">
        {(page) =>
          page.data.length === 0 ? (
            <p>No alert has come for an unmapped account.</p>
          ) : (
            <div className="table-wrap">
              <table aria-label="Unmapped accounts" className="responsive">
                <thead>
                  <tr>
                    <th>Account</th>
                    <th>Alerts</th>
                    <th>Open catch-all tickets</th>
                    <th>Last seen</th>
                    {canEdit && <th>Map to PSA company</th>}
                  </tr>
                </thead>
                <tbody>
                  {page.data.map((a) => (
                    <tr key={a.accountId}>
                      <td data-label="Account">
                        {a.name ?? <em>not declared</em>} <span className="mono small">{a.accountId}</span>
                      </td>
                      <td data-label="Alerts">{a.alertCount}</td>
                      <td data-label="Open catch-all tickets">{a.openCatchAllTickets}</td>
                      <td data-label="Last seen">{new Date(a.lastSeenAt).toLocaleString()}</td>
                      {canEdit && (
                        <td data-label="Map to">
                          {a.declared ? (
                            <>
                              <LookupSelect
                                id={`unmapped-${a.accountId}`}
                                what="companies"
                                label={`PSA company for ${a.name ?? a.accountId}`}
                                emptyLabel="Choose a company"
                                value={companies[a.accountId] ?? null}
                                onChange={(v) => setCompanies({ ...companies, [a.accountId]: v ?? '' })}
                              />
                              <button
                                type="button"
                                disabled={map.isPending || !(companies[a.accountId] ?? '').trim()}
                                onClick={() => {
                                  setMappedName(a.name ?? a.accountId)
                                  map.mutate({
                                    accountId: a.accountId,
                                    psaCompanyId: (companies[a.accountId] ?? '').trim(),
                                  })
                                }}
                              >
                                Map {a.name ?? a.accountId}
                              </button>
                            </>
                          ) : (
                            <span className="hint">The vendor has to declare it first.</span>
                          )}
                        </td>
                      )}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </QueryView>
    </section>
  )
}

/** For a viewer: the catch-all as text, the company and board by their PSA names. */
function CatchAllFacts({ integration }: { integration: Integration }) {
  const c = integration.catchAll
  return (
    <Facts label="Catch-all account">
      <Fact term="Alerts of unmapped accounts">
        {c.enabled
          ? "On: an unmapped account's alert opens its ticket in the catch-all company, the account named at its top."
          : 'Off: alerts of unmapped accounts are refused as not mapped (ACCOUNT_NOT_MAPPED).'}
      </Fact>
      <LookupFact what="companies" term="Catch-all PSA company" value={c.psaCompanyId} empty="none" />
      <LookupFact what="boards" term="Catch-all board" value={c.board} />
    </Facts>
  )
}

export function CatchAllPanel({ integration }: { integration: Integration }) {
  const canEdit = useCanEdit()
  const update = useUpdateIntegration(integration.integrationId)
  return (
    <section aria-labelledby="catch-all-h">
      <h2 id="catch-all-h">Catch-all account</h2>
      {canEdit ? (
        <CatchAllForm key={integration.updatedAt} integration={integration} update={update} />
      ) : (
        <CatchAllFacts integration={integration} />
      )}
      <UnmappedList integrationId={integration.integrationId} />
    </section>
  )
}
