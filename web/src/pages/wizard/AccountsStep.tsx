// Step 2: the vendor's accounts beside the PSA's companies. Pick an account, search the companies
// (the search starts with the account's telling word), and map; suggested matches by name can be
// taken one by one or for a whole page. Both lists page, for partners with thousands of accounts.
import { useState } from 'react'
import type { Account, PsaEntity } from '../../api/types'
import { Pager, usePager } from '../../components/Pager'
import { ErrorNotice, Notice, QueryView } from '../../components/State'
import { type MappedFilter, useAccounts, useMapAccount, useUnmapAccount } from '../../hooks/accounts'
import { useDebounced } from '../../hooks/debounced'
import { useCompanyName, useCompanySuggestions, usePsaLookup } from '../../hooks/psa'
import { useCanEdit } from '../../hooks/session'
import { searchWord, similarity, suggestThreshold } from '../../match'

function MappedTo({ companyId }: { companyId: string }) {
  const name = useCompanyName(companyId)
  return (
    <span>
      {name ?? 'company'} <span className="mono small">#{companyId}</span>
    </span>
  )
}

function CompanyPicker({
  account,
  onPick,
  busy,
}: {
  account: Account | null
  onPick: (company: PsaEntity) => void
  busy: boolean
}) {
  const canEdit = useCanEdit()
  const [search, setSearch] = useState('')
  const [forAccount, setForAccount] = useState<string | null>(null)
  // Choosing another account starts the search with its telling word.
  if (account && account.vendorAccountId !== forAccount) {
    setForAccount(account.vendorAccountId)
    setSearch(searchWord(account.name))
  }
  const searched = useDebounced(search)
  const pager = usePager(searched)
  const companies = usePsaLookup('companies', { search: searched, cursor: pager.cursor, limit: 20 })
  const ranked = (list: PsaEntity[]) =>
    account
      ? [...list]
          .map((c) => ({ c, score: similarity(account.name, c.name) }))
          .sort((a, b) => b.score - a.score)
      : list.map((c) => ({ c, score: 0 }))
  return (
    <section className="panel" aria-labelledby="companies-h">
      <h2 id="companies-h">PSA companies</h2>
      <p className="small" aria-live="polite">
        {account ? (
          <>
            Choose the company for <strong>{account.name}</strong>.
          </>
        ) : (
          'Choose an account on the left first.'
        )}
      </p>
      <div className="field">
        <label htmlFor="company-search">Search companies</label>
        <input
          id="company-search"
          type="search"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          placeholder="name or id"
        />
      </div>
      <QueryView query={companies} what="Loading companies">
        {(page) =>
          page.data.length === 0 ? (
            <p>No company matches “{searched}”.</p>
          ) : (
            <ul className="rules" aria-label="Companies">
              {ranked(page.data).map(({ c, score }) => (
                <li key={c.id}>
                  <div className="body">
                    <strong>{c.name}</strong> <span className="mono small">#{c.id}</span>
                    {score >= suggestThreshold && <span className="badge pending"> suggested</span>}
                  </div>
                  {canEdit && (
                    <button
                      type="button"
                      disabled={!account || busy}
                      onClick={() => onPick(c)}
                      aria-label={account ? `Map ${account.name} to ${c.name}` : `Map to ${c.name}`}
                    >
                      Map here
                    </button>
                  )}
                </li>
              ))}
            </ul>
          )
        }
      </QueryView>
      <Pager pager={pager} nextCursor={companies.data?.nextCursor} label="Companies" />
    </section>
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
  const [selected, setSelected] = useState<Account | null>(null)
  const [done, setDone] = useState<string | null>(null)
  const unmapped = (accounts.data?.data ?? []).filter((a) => !a.mapping)
  const suggestions = useCompanySuggestions(unmapped.map((a) => a.name))

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
  const takeAll = async () => {
    let n = 0
    for (const a of unmapped) {
      const company = suggestions.get(a.name)
      if (!company) continue
      await map.mutateAsync({ accountId: a.vendorAccountId, psaCompanyId: company.id })
      n++
    }
    setDone(`${n} suggested ${n === 1 ? 'match was' : 'matches were'} taken.`)
  }
  const suggestedCount = unmapped.filter((a) => suggestions.get(a.name)).length

  return (
    <>
      <p className="muted">
        Each vendor account becomes tickets in one PSA company. Alerts of an account that is not mapped fail
        and the vendor is told, so map every account you serve.
      </p>
      {done && <Notice kind="ok">{done}</Notice>}
      {(map.error || unmap.error) && <ErrorNotice error={map.error ?? unmap.error} />}
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
            {canEdit && suggestedCount > 0 && (
              <div className="field">
                <button
                  type="button"
                  className="secondary"
                  disabled={map.isPending}
                  onClick={() => void takeAll()}
                >
                  Take {suggestedCount} suggested {suggestedCount === 1 ? 'match' : 'matches'} on this page
                </button>
              </div>
            )}
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
                        const suggestion = a.mapping ? null : suggestions.get(a.name)
                        const isSelected = selected?.vendorAccountId === a.vendorAccountId
                        return (
                          <tr key={a.vendorAccountId} className={isSelected ? 'selected' : ''}>
                            <td data-label="Account">
                              <strong>{a.name}</strong>
                              <div className="mono small">{a.vendorAccountId}</div>
                            </td>
                            <td data-label="PSA company">
                              {a.mapping ? (
                                <MappedTo companyId={a.mapping.psaCompanyId} />
                              ) : (
                                <span className="muted">not mapped</span>
                              )}
                              {suggestion && (
                                <div className="suggestion">
                                  Suggested: <strong>{suggestion.name}</strong>
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
                                      onClick={() => mapTo(a, suggestion)}
                                      aria-label={`Map ${a.name} to the suggested ${suggestion.name}`}
                                    >
                                      Use suggestion
                                    </button>
                                  )}
                                  <button
                                    type="button"
                                    className="secondary"
                                    aria-pressed={isSelected}
                                    onClick={() => setSelected(isSelected ? null : a)}
                                    aria-label={`Choose a company for ${a.name}`}
                                  >
                                    {a.mapping ? 'Change' : 'Choose'}
                                  </button>
                                  {a.mapping && (
                                    <button
                                      type="button"
                                      className="link"
                                      disabled={unmap.isPending}
                                      onClick={() => unmap.mutate(a.vendorAccountId)}
                                      aria-label={`Unmap ${a.name}`}
                                    >
                                      Unmap
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
