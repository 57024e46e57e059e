// The tickets' filters: each applies as it changes and lives in the URL's query, so a filtered list can
// be linked to and survives a reload and the back button. Accounts, product groups and alert types are
// picked from what the integrations know (their accounts and product groups); the search applies once the
// user pauses typing. On a phone the filters fold behind a "Filters" disclosure, so the first ticket
// is on the first screen.
import { useEffect, useState } from 'react'
import { useSearchParams } from 'react-router'
import { useDebounced } from '../hooks/debounced'
import { useOverview } from '../hooks/integrations'
import { useKnownAccounts, useKnownProductGroups } from '../hooks/tickets'

export const ticketFilterNames = [
  'search',
  'status',
  'integrationId',
  'accountId',
  'productGroup',
  'alertType',
  'from',
  'to',
] as const
export type TicketFilterName = (typeof ticketFilterNames)[number]
export type TicketFilterValues = Record<TicketFilterName, string>

/** The filters the URL's query holds (empty strings for the others). */
export function ticketFiltersOf(params: URLSearchParams): TicketFilterValues {
  return Object.fromEntries(ticketFilterNames.map((n) => [n, params.get(n) ?? ''])) as TicketFilterValues
}

const narrowQuery = '(max-width: 760px)'
const isNarrow = () => typeof window !== 'undefined' && window.matchMedia(narrowQuery).matches

/** A select of known values that still shows a value from the URL it does not know. */
function Pick({
  id,
  label,
  value,
  any,
  options,
  onChange,
}: {
  id: string
  label: string
  value: string
  any: string
  options: readonly { value: string; label: string }[]
  onChange: (value: string) => void
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{any}</option>
        {value && !options.some((o) => o.value === value) && <option value={value}>{value}</option>}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  )
}

export function TicketFilters() {
  const [params, setParams] = useSearchParams()
  const f = ticketFiltersOf(params)
  const integrations = useOverview(null, 500)
  const all = (integrations.data?.data ?? []).map((i) => i.integrationId)
  const scope = f.integrationId ? [f.integrationId] : all
  const accounts = useKnownAccounts(scope)
  const catalogue = useKnownProductGroups(scope)
  const [open, setOpen] = useState(() => !isNarrow())

  /** Sets filters in the URL (empty ones removed), replacing the entry: back leaves the list. */
  const apply = (changes: Partial<TicketFilterValues>) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current)
        for (const [name, value] of Object.entries(changes)) {
          if (value?.trim()) next.set(name, value.trim())
          else next.delete(name)
        }
        return next
      },
      { replace: true },
    )

  // The search box applies once typing pauses, and follows the URL when a link changes it.
  const [search, setSearch] = useState(f.search)
  const settled = useDebounced(search, 300)
  useEffect(() => setSearch(f.search), [f.search])
  // biome-ignore lint/correctness/useExhaustiveDependencies: applies the settled text only
  useEffect(() => {
    if (settled.trim() !== f.search) apply({ search: settled })
  }, [settled])

  const active = ticketFilterNames.filter((n) => f[n]).length
  const names = new Map<string, number>()
  for (const a of accounts) names.set(a.name, (names.get(a.name) ?? 0) + 1)
  const alertTypes = f.productGroup
    ? (catalogue.get(f.productGroup) ?? [])
    : [...new Set([...catalogue.values()].flat())].sort((a, b) => a.localeCompare(b))
  const on = (name: TicketFilterName) => (value: string) =>
    apply(name === 'productGroup' && value ? { productGroup: value, alertType: '' } : { [name]: value })

  return (
    <details
      className="panel filters"
      open={open}
      onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}
    >
      <summary>
        Filters{active > 0 ? ` (${active} on)` : ''}
        <span className="visually-hidden">: they apply as you change them</span>
      </summary>
      <form className="row" aria-label="Filter tickets" onSubmit={(e) => e.preventDefault()}>
        <div className="field">
          <label htmlFor="t-search">Search</label>
          <input
            id="t-search"
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            placeholder="title or correlation id"
          />
        </div>
        <Pick
          id="t-status"
          label="Status"
          value={f.status}
          any="any"
          options={[
            { value: 'open', label: 'open' },
            { value: 'closed', label: 'closed' },
          ]}
          onChange={on('status')}
        />
        <Pick
          id="t-integration"
          label="Integration"
          value={f.integrationId}
          any="all"
          options={(integrations.data?.data ?? []).map((i) => ({
            value: i.integrationId,
            label: i.vendorName || i.integrationId,
          }))}
          onChange={on('integrationId')}
        />
        <Pick
          id="t-account"
          label="Account"
          value={f.accountId}
          any="all accounts"
          options={accounts.map((a) => ({
            value: a.id,
            // Two accounts of one name are told apart by their id.
            label: (names.get(a.name) ?? 0) > 1 ? `${a.name} (${a.id})` : a.name,
          }))}
          onChange={on('accountId')}
        />
        <Pick
          id="t-group"
          label="Product group"
          value={f.productGroup}
          any="all groups"
          options={[...catalogue.keys()].map((g) => ({ value: g, label: g }))}
          onChange={on('productGroup')}
        />
        <Pick
          id="t-type"
          label="Alert type"
          value={f.alertType}
          any="all types"
          options={alertTypes.map((t) => ({ value: t, label: t }))}
          onChange={on('alertType')}
        />
        <div className="field">
          <label htmlFor="t-from">From</label>
          <input id="t-from" type="date" value={f.from} onChange={(e) => on('from')(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="t-to">To</label>
          <input id="t-to" type="date" value={f.to} onChange={(e) => on('to')(e.target.value)} />
        </div>
        <div className="field">
          <button
            type="button"
            className="secondary"
            disabled={active === 0 && !search}
            onClick={() => {
              setSearch('')
              setParams({}, { replace: true })
            }}
          >
            Clear filters
          </button>
        </div>
      </form>
    </details>
  )
}
