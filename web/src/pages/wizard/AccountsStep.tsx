// Step 2: the vendor's accounts beside the PSA's companies. Suggested matches by name (web/src/match.ts)
// come with their reason and confidence: every confident one can be taken in one action, the rest
// one by one; or pick an account, search the companies (CompanyPicker.tsx) and map. Both lists page,
// for partners with thousands of accounts.
import { useState } from 'react'
import type { Account, PsaEntity } from '../../api/types'
import { Pager, usePager } from '../../components/Pager'
import { ErrorNotice, QueryView } from '../../components/State'
import { type MappedFilter, useAccounts, useMapAccount, useUnmapAccount } from '../../hooks/accounts'
import { useDebounced } from '../../hooks/debounced'
import { useCompanyName } from '../../hooks/psa'
import { useCanEdit } from '../../hooks/session'
import { useSuggestions } from '../../hooks/suggestions'
import { CompanyPicker } from './CompanyPicker'
import { SuggestionSummary } from './SuggestionSummary'

/** A company not among those read for the suggestions: its name looked up by id. */
function LookedUpCompany({ companyId }: { companyId: string }) {
  const name = useCompanyName(companyId)
  return <>{name ?? 'company'}</>
}

/** The mapped company's name from the companies read for the suggestions (no request per row). */
function MappedTo({
  companyId,
  suggestions,
}: {
  companyId: string
  suggestions: ReturnType<typeof useSuggestions>
}) {
  const known = suggestions.index.get(companyId)
  return (
    <span>
      {known ? (
        known.name
      ) : suggestions.companiesPartial ? (
        <LookedUpCompany companyId={companyId} />
      ) : suggestions.ready ? (
        'a company the PSA no longer lists'
      ) : (
        'company'
      )}{' '}
      <span className="mono small">#{companyId}</span>
    </span>
  )
}

export function AccountsStep({ integrationId }: { integrationId: string }) {
  const canEdit = useCanEdit()
  const [filter, setFilter] = useState<MappedFilter>('all')
  const [search, setSearch] = useState('')
  const searched = useDebounced(search)
  const pager = usePager(`${filter}/${searched}`)
  const accounts = useAccounts(integrationId, filter, pager.cursor, 25, searched)
  const map = useMapAccount(integrationId)
  const unmap = useUnmapAccount(integrationId)
  const suggestions = useSuggestions(integrationId)
  const [selected, setSelected] = useState<Account | null>(null)
  const [done, setDone] = useState<string | null>(null)

  const mapTo = (account: Account, company: PsaEntity) =>
    map.mutate(
      { accountId: account.vendorAccountId, psaCompanyId: company.id },
      {
        onSuccess: () => {
          setDone(`${account.name} is mapped to ${company.name}.`)
          setSelected(null)
        },
      },
    )

  return (
    <>
      <p className="muted">
        Each vendor account becomes tickets in one PSA company. Alerts of an account that is not mapped fail
        and the vendor is told, so map every account you serve.
      </p>
      <div aria-live="polite">{done && <div className="notice ok">{done}</div>}</div>
      {(map.error || unmap.error) && <ErrorNotice error={map.error ?? unmap.error} />}
      <SuggestionSummary
        integrationId={integrationId}
        suggestions={suggestions}
        onMapped={(message) => {
          setDone(message)
          // The rest, to review.
          setFilter('unmapped')
        }}
      />
      <div className="side-by-side">
        <section className="panel" aria-labelledby="accounts-h">
          <h2 id="accounts-h">Vendor accounts</h2>
          <div className="row">
            <div className="field">
              <label htmlFor="account-search">Search accounts</label>
              <input
                id="account-search"
                type="search"
                value={search}
                placeholder="name or id"
                onChange={(e) => setSearch(e.target.value)}
              />
            </div>
            <div className="field">
              <label htmlFor="mapped-filter">Show</label>
              <select
                id="mapped-filter"
                value={filter}
                onChange={(e) => setFilter(e.target.value as MappedFilter)}
              >
                <option value="all">All accounts</option>
                <option value="unmapped">Not mapped yet</option>
                <option value="mapped">Mapped</option>
              </select>
            </div>
          </div>
          <QueryView query={accounts} what="Loading accounts">
            {(page) =>
              page.data.length === 0 ? (
                <p>
                  {searched.trim()
                    ? `No account matches “${searched.trim()}”.`
                    : filter === 'unmapped'
                      ? 'Every account is mapped.'
                      : 'The vendor has not sent any accounts yet.'}
                </p>
              ) : (
                <div className="table-wrap">
                  <table className="responsive">
                    <caption className="visually-hidden">Vendor accounts and their PSA company</caption>
                    <thead>
                      <tr>
                        <th scope="col">Account</th>
                        <th scope="col">PSA company</th>
                        <th scope="col">
                          <span className="visually-hidden">Actions</span>
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {page.data.map((a) => {
                        const suggestion = a.mapping
                          ? undefined
                          : suggestions.byAccount.get(a.vendorAccountId)
                        const isSelected = selected?.vendorAccountId === a.vendorAccountId
                        return (
                          <tr key={a.vendorAccountId} className={isSelected ? 'selected' : ''}>
                            <td data-label="Account">
                              <strong>{a.name}</strong>
                              <div className="mono small">{a.vendorAccountId}</div>
                            </td>
                            <td data-label="PSA company">
                              {a.mapping ? (
                                <MappedTo companyId={a.mapping.psaCompanyId} suggestions={suggestions} />
                              ) : (
                                <span className="muted">not mapped</span>
                              )}
                              {suggestion && (
                                <div className="suggestion">
                                  Suggested: <strong>{suggestion.item.name}</strong>{' '}
                                  <span
                                    className={`badge ${suggestion.confidence === 'confident' ? 'on' : 'pending'}`}
                                  >
                                    {suggestion.confidence}
                                  </span>
                                  <div className="small">{suggestion.reason}</div>
                                </div>
                              )}
                            </td>
                            <td data-label="Actions">
                              {canEdit && (
                                <div className="row">
                                  {suggestion && (
                                    <button
                                      type="button"
                                      disabled={map.isPending}
                                      onClick={() => mapTo(a, suggestion.item)}
                                    >
                                      Use suggestion
                                      <span className="visually-hidden">
                                        {` to map ${a.name} to ${suggestion.item.name}`}
                                      </span>
                                    </button>
                                  )}
                                  <button
                                    type="button"
                                    className="secondary"
                                    aria-pressed={isSelected}
                                    onClick={() => setSelected(isSelected ? null : a)}
                                  >
                                    {a.mapping ? 'Change' : 'Choose'}
                                    <span className="visually-hidden">
                                      {a.mapping ? ` the company of ${a.name}` : ` a company for ${a.name}`}
                                    </span>
                                  </button>
                                  {a.mapping && (
                                    <button
                                      type="button"
                                      className="link"
                                      disabled={unmap.isPending}
                                      onClick={() => unmap.mutate(a.vendorAccountId)}
                                    >
                                      Unmap<span className="visually-hidden">{` ${a.name}`}</span>
                                    </button>
                                  )}
                                </div>
                              )}
                            </td>
                          </tr>
                        )
                      })}
                    </tbody>
                  </table>
                </div>
              )
            }
          </QueryView>
          <Pager pager={pager} nextCursor={accounts.data?.nextCursor} label="Accounts" />
        </section>
        <CompanyPicker
          account={selected}
          busy={map.isPending}
          onPick={(c) => selected && mapTo(selected, c)}
        />
      </div>
    </>
  )
}
