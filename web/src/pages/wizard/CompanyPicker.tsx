// The PSA's companies beside the accounts (step 2): search them (the search starts with the chosen
// account's telling word), the closest names first with why they match, and map the account to one.
import { useState } from 'react'
import type { Account, PsaEntity } from '../../api/types'
import { Pager, usePager } from '../../components/Pager'
import { QueryView } from '../../components/State'
import { useDebounced } from '../../hooks/debounced'
import { usePsaLookup } from '../../hooks/psa'
import { useCanEdit } from '../../hooks/session'
import { compare, type Match, normalise, searchWord } from '../../match'

export function CompanyPicker({
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
  const ranked = (list: PsaEntity[]): { c: PsaEntity; match: Match | null }[] => {
    if (!account) return list.map((c) => ({ c, match: null }))
    const name = normalise(account.name)
    return list
      .map((c) => ({ c, match: compare(name, normalise(c.name)) }))
      .sort((a, b) => (b.match?.score ?? 0) - (a.match?.score ?? 0))
  }
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
              {ranked(page.data).map(({ c, match }) => (
                <li key={c.id}>
                  <div className="body">
                    <strong>{c.name}</strong> <span className="mono small">#{c.id}</span>
                    {match && (
                      <div className="small">
                        <span className={`badge ${match.confidence === 'confident' ? 'on' : 'pending'}`}>
                          {match.confidence === 'confident' ? 'same name' : 'similar'}
                        </span>{' '}
                        {match.reason}
                      </div>
                    )}
                  </div>
                  {canEdit && (
                    <button type="button" disabled={!account || busy} onClick={() => onPick(c)}>
                      Map here
                      <span className="visually-hidden">
                        {` — ${account ? `${account.name} to ${c.name}` : c.name}`}
                      </span>
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
