// The audit trail: every alert's outcome, newest first, filtered by status, event name,
// integration or ticket. The dashboard's failure causes link here for examples.
import { Link, useSearchParams } from 'react-router'
import type { EventQuery } from '../api/types'
import { Badge } from '../components/Badge'
import { Page } from '../components/Page'
import { Pager, usePager } from '../components/Pager'
import { QueryView } from '../components/State'
import { Time } from '../format'
import { useEvents } from '../hooks/activity'
import { useOverview } from '../hooks/integrations'

export function Activity() {
  const [params, setParams] = useSearchParams()
  const status = params.get('status') ?? ''
  const event = params.get('event') ?? ''
  const correlationId = params.get('correlationId') ?? ''
  const integrationId = params.get('integrationId') ?? ''
  const pager = usePager(params.toString())
  const q: Record<string, unknown> = { limit: 25 }
  if (status) q.status = status
  if (event) q.event = event
  if (correlationId) q.correlationId = correlationId
  if (integrationId) q.integrationId = integrationId
  if (pager.cursor) q.cursor = pager.cursor
  const events = useEvents(q as EventQuery)
  // The vendors' names of the partner's integrations: one request for every row (up to 500 integrations).
  const overview = useOverview(null, 500)
  const vendorOf = (id: string) => overview.data?.data.find((i) => i.integrationId === id)?.vendorName || null
  const setFilter = (name: string, value: string) => {
    const next = new URLSearchParams(params)
    if (value) next.set(name, value)
    else next.delete(name)
    setParams(next)
  }
  return (
    <Page title="Activity">
      <div className="panel row">
        <div className="field">
          <label htmlFor="a-status">Outcome</label>
          <select id="a-status" value={status} onChange={(e) => setFilter('status', e.target.value)}>
            <option value="">any</option>
            <option value="success">success</option>
            <option value="suppressed">suppressed</option>
            <option value="failed">failed</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="a-event">Event</label>
          <select id="a-event" value={event} onChange={(e) => setFilter('event', e.target.value)}>
            <option value="">any</option>
            {[
              'Ticket Created',
              'Ticket Updated',
              'Ticket Closed',
              'Failed To Create Ticket',
              'Failed To Update Ticket',
              'Failed To Close Ticket',
              'Ticket Not Found',
              'Ticket Already Closed',
              'Alerting Disabled',
              'Invalid Alert',
              'Self-Healing Disabled',
              'Internal Error',
            ].map((n) => (
              <option key={n}>{n}</option>
            ))}
            {event && <option>{event}</option>}
          </select>
        </div>
        {(correlationId || integrationId) && (
          <p className="small">
            {correlationId && (
              <>
                Ticket <span className="mono">{correlationId}</span>.{' '}
              </>
            )}
            {integrationId && (
              <>Integration {vendorOf(integrationId) ?? <span className="mono">{integrationId}</span>}. </>
            )}
            <button type="button" className="link" onClick={() => setParams({})}>
              Show everything
            </button>
          </p>
        )}
      </div>
      <QueryView query={events} what="Loading events">
        {(page) =>
          page.data.length === 0 ? (
            <p>No events match.</p>
          ) : (
            <div className="table-wrap">
              <table className="responsive">
                <caption className="visually-hidden">Events, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    <th scope="col">Event</th>
                    <th scope="col">Outcome</th>
                    <th scope="col">Detail</th>
                    <th scope="col">Ticket</th>
                  </tr>
                </thead>
                <tbody>
                  {page.data.map((e) => (
                    <tr key={e.messageId}>
                      <td data-label="When">
                        <Time iso={e.createdAt} />
                      </td>
                      <td data-label="Event">
                        {e.strategy === 'psa' && (
                          <>
                            <span className="badge psa" title="A change made in the PSA">
                              PSA
                            </span>{' '}
                          </>
                        )}
                        {e.test && (
                          <>
                            <span
                              className="badge"
                              title="A vendor's test alert: its ticket's title starts with [TEST]"
                            >
                              TEST
                            </span>{' '}
                          </>
                        )}
                        {e.event}
                      </td>
                      <td data-label="Outcome">
                        <Badge kind={e.status}>{e.status}</Badge>{' '}
                        {e.strategy !== 'psa' && <span className="small">HTTP {e.httpStatus}</span>}
                      </td>
                      <td data-label="Detail">{e.detail ?? '—'}</td>
                      <td data-label="Ticket">
                        {e.correlationId ? (
                          <Link
                            to={`/tickets/${encodeURIComponent(e.correlationId)}?integrationId=${encodeURIComponent(e.integrationId)}`}
                            className="mono"
                          >
                            {e.correlationId}
                          </Link>
                        ) : (
                          '—'
                        )}
                        {vendorOf(e.integrationId) && (
                          <div className="small muted">{vendorOf(e.integrationId)}</div>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </QueryView>
      <Pager pager={pager} nextCursor={events.data?.nextCursor} label="Events" />
    </Page>
  )
}
