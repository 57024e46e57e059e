// Tickets with filters and search. The filters live in the URL, so a filtered list can be linked to
// and survives a reload.
import { type FormEvent, useEffect, useState } from 'react'
import { Link, useSearchParams } from 'react-router'
import type { TicketQuery } from '../api/types'
import { Badge } from '../components/Badge'
import { Page } from '../components/Page'
import { Pager, usePager } from '../components/Pager'
import { QueryView } from '../components/State'
import { Time } from '../format'
import { useOverview } from '../hooks/integrations'
import { useTickets } from '../hooks/tickets'

const filterNames = [
  'search',
  'status',
  'integrationId',
  'accountId',
  'productGroup',
  'alertType',
  'from',
  'to',
] as const
type Filters = Record<(typeof filterNames)[number], string>

const dayStart = (d: string) => (d ? new Date(`${d}T00:00:00`).toISOString() : undefined)
const dayEnd = (d: string) =>
  d ? new Date(new Date(`${d}T00:00:00`).getTime() + 86_400_000).toISOString() : undefined

function toQuery(f: Filters, cursor: string | null): TicketQuery {
  const q: Record<string, unknown> = { limit: 25 }
  for (const name of ['search', 'status', 'integrationId', 'accountId', 'productGroup', 'alertType'] as const)
    if (f[name]) q[name] = f[name]
  if (f.from) q.from = dayStart(f.from)
  if (f.to) q.to = dayEnd(f.to)
  if (cursor) q.cursor = cursor
  return q as TicketQuery
}

export function Tickets() {
  const [params, setParams] = useSearchParams()
  const applied = Object.fromEntries(filterNames.map((n) => [n, params.get(n) ?? ''])) as Filters
  const [draft, setDraft] = useState<Filters>(applied)
  // A link to other filters (e.g. an integration's tickets) replaces what the form shows.
  const appliedKey = params.toString()
  // biome-ignore lint/correctness/useExhaustiveDependencies: follows the URL, not each render's copy of it
  useEffect(() => setDraft(applied), [appliedKey])
  const pager = usePager(params.toString())
  const tickets = useTickets(toQuery(applied, pager.cursor))
  const integrations = useOverview(null, 500)
  const set = (name: keyof Filters) => (e: { target: { value: string } }) =>
    setDraft((d) => ({ ...d, [name]: e.target.value }))

  const submit = (e: FormEvent) => {
    e.preventDefault()
    setParams(Object.fromEntries(Object.entries(draft).filter(([, v]) => v.trim())))
  }
  const clear = () => {
    setDraft(Object.fromEntries(filterNames.map((n) => [n, ''])) as Filters)
    setParams({})
  }
  return (
    <Page title="Tickets">
      <form className="panel" onSubmit={submit} aria-label="Filter tickets">
        <div className="row">
          <div className="field">
            <label htmlFor="t-search">Search</label>
            <input
              id="t-search"
              type="search"
              value={draft.search}
              onChange={set('search')}
              placeholder="title or correlation id"
            />
          </div>
          <div className="field">
            <label htmlFor="t-status">Status</label>
            <select id="t-status" value={draft.status} onChange={set('status')}>
              <option value="">any</option>
              <option value="open">open</option>
              <option value="closed">closed</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor="t-integration">Integration</label>
            <select id="t-integration" value={draft.integrationId} onChange={set('integrationId')}>
              <option value="">all</option>
              {draft.integrationId &&
                !integrations.data?.data.some((i) => i.integrationId === draft.integrationId) && (
                  <option value={draft.integrationId}>{draft.integrationId}</option>
                )}
              {(integrations.data?.data ?? []).map((i) => (
                <option key={i.integrationId} value={i.integrationId}>
                  {i.vendorName || i.integrationId}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="t-account">Account</label>
            <input id="t-account" value={draft.accountId} onChange={set('accountId')} />
          </div>
          <div className="field">
            <label htmlFor="t-group">Product group</label>
            <input id="t-group" value={draft.productGroup} onChange={set('productGroup')} />
          </div>
          <div className="field">
            <label htmlFor="t-type">Alert type</label>
            <input id="t-type" value={draft.alertType} onChange={set('alertType')} />
          </div>
          <div className="field">
            <label htmlFor="t-from">From</label>
            <input id="t-from" type="date" value={draft.from} onChange={set('from')} />
          </div>
          <div className="field">
            <label htmlFor="t-to">To</label>
            <input id="t-to" type="date" value={draft.to} onChange={set('to')} />
          </div>
          <div className="field">
            <button type="submit">Apply filters</button>
          </div>
          <div className="field">
            <button type="button" className="secondary" onClick={clear}>
              Clear
            </button>
          </div>
        </div>
      </form>
      <QueryView query={tickets} what="Loading tickets">
        {(page) =>
          page.data.length === 0 ? (
            <p>No tickets{params.toString() ? ' match these filters' : ' yet'}.</p>
          ) : (
            <div className="table-wrap">
              <table className="responsive">
                <caption className="visually-hidden">Tickets, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">Ticket</th>
                    <th scope="col">Status</th>
                    <th scope="col">Account</th>
                    <th scope="col">Product group / type</th>
                    <th scope="col">PSA ticket</th>
                    <th scope="col">Alerts</th>
                    <th scope="col">Updated</th>
                  </tr>
                </thead>
                <tbody>
                  {page.data.map((t) => (
                    <tr key={`${t.integrationId}/${t.correlationId}`}>
                      <td data-label="Ticket">
                        <Link
                          to={`/tickets/${encodeURIComponent(t.correlationId)}?integrationId=${encodeURIComponent(t.integrationId)}`}
                        >
                          {t.title}
                        </Link>
                        <div className="mono small">{t.correlationId}</div>
                      </td>
                      <td data-label="Status">
                        <Badge kind={t.status}>{t.status}</Badge>
                        {t.psaDeleted ? (
                          <div className="small muted">deleted in the PSA</div>
                        ) : (
                          t.status === 'closed' &&
                          t.closedBy === 'psa' && <div className="small muted">in the PSA</div>
                        )}
                      </td>
                      <td data-label="Account">{t.accountId}</td>
                      <td data-label="Group / type">
                        {t.productGroup} / {t.alertType}
                      </td>
                      <td data-label="PSA ticket" className="mono">
                        {t.psaTicketId ?? '—'}
                      </td>
                      <td data-label="Alerts">{t.occurrenceCount}</td>
                      <td data-label="Updated">
                        <Time iso={t.updatedAt} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </QueryView>
      <Pager pager={pager} nextCursor={tickets.data?.nextCursor} label="Tickets" />
    </Page>
  )
}
