// Tickets with filters and search. The filters (components/TicketFilters.tsx) apply as they change and
// live in the URL, so a filtered list can be linked to and survives a reload.
import { Link, useSearchParams } from 'react-router'
import type { TicketQuery } from '../api/types'
import { Badge } from '../components/Badge'
import { Named } from '../components/Named'
import { Page } from '../components/Page'
import { Pager, usePager } from '../components/Pager'
import { QueryView } from '../components/State'
import { TicketFilters, type TicketFilterValues, ticketFiltersOf } from '../components/TicketFilters'
import { Time } from '../format'
import { useTickets } from '../hooks/tickets'

const dayStart = (d: string) => (d ? new Date(`${d}T00:00:00`).toISOString() : undefined)
const dayEnd = (d: string) =>
  d ? new Date(new Date(`${d}T00:00:00`).getTime() + 86_400_000).toISOString() : undefined

function toQuery(f: TicketFilterValues, cursor: string | null): TicketQuery {
  const q: Record<string, unknown> = { limit: 25 }
  for (const name of ['search', 'status', 'integrationId', 'accountId', 'productGroup', 'alertType'] as const)
    if (f[name]) q[name] = f[name]
  if (f.from) q.from = dayStart(f.from)
  if (f.to) q.to = dayEnd(f.to)
  if (cursor) q.cursor = cursor
  return q as TicketQuery
}

export function Tickets() {
  const [params] = useSearchParams()
  const applied = ticketFiltersOf(params)
  const pager = usePager(params.toString())
  const tickets = useTickets(toQuery(applied, pager.cursor))
  return (
    <Page title="Tickets">
      <TicketFilters />
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
                        <div className="small">
                          {t.vendorName && <span className="muted">{t.vendorName} · </span>}
                          <span className="mono">{t.correlationId}</span>
                        </div>
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
                      <td data-label="Account">
                        <Named name={t.accountName} id={t.accountId} />
                      </td>
                      <td data-label="Group / type">
                        {t.productGroup} / {t.alertType}
                      </td>
                      <td data-label="PSA ticket">
                        <span className="mono">{t.psaTicketId ?? '—'}</span>
                        {t.psaCompanyId && (
                          <div className="small muted">
                            in {t.psaCompanyName ?? `company ${t.psaCompanyId}`}
                          </div>
                        )}
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
