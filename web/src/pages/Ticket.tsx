// One ticket: its PSA ticket (a link into the PSA where the PSA has ticket URLs) and the timeline
// of everything that happened to it, failures in red with the PSA's or the service's explanation, and
// what technicians did in the PSA (closed, reopened, merged or deleted it: two-way sync) marked as such.
import { Link, useParams, useSearchParams } from 'react-router'
import type { AuditEvent, TicketWithHistory } from '../api/types'
import { Badge } from '../components/Badge'
import { Named } from '../components/Named'
import { Page } from '../components/Page'
import { QueryView } from '../components/State'
import { Time } from '../format'
import { useTicket } from '../hooks/tickets'

function PsaTicket({ t }: { t: TicketWithHistory }) {
  const url = t.psaTicketUrl
  if (!t.psaTicketId) return <span className="muted">none yet</span>
  return url && /^https?:\/\//.test(url) ? (
    <a href={url} target="_blank" rel="noreferrer noopener">
      {t.psaTicketId} <span className="visually-hidden">(opens the PSA in a new tab)</span>
    </a>
  ) : (
    <span className="mono">{t.psaTicketId}</span>
  )
}

/** Who closed it, or what became of it in the PSA, in words. */
function closedHow(t: TicketWithHistory): string | null {
  if (t.psaDeleted) return 'Deleted in the PSA'
  if (t.status !== 'closed') return null
  if (t.closedBy === 'psa') return `Closed in the PSA${t.psaStatus ? ` (status '${t.psaStatus}')` : ''}`
  if (t.closedBy === 'alertbridge') return "Closed by the vendor's alert"
  return null
}

function EventItem({ e }: { e: AuditEvent }) {
  const fromPsa = e.strategy === 'psa'
  return (
    <li className={fromPsa && e.status === 'success' ? 'psa' : e.status}>
      <div>
        {fromPsa && (
          <>
            <span className="badge psa" title="A change made in the PSA">
              PSA
            </span>{' '}
          </>
        )}
        {e.test && (
          <>
            <span className="badge" title="A vendor's test alert: its ticket's title starts with [TEST]">
              TEST
            </span>{' '}
          </>
        )}
        <span className="what">{e.event}</span>{' '}
        <Badge kind={e.status}>{e.status === 'failed' ? 'failed' : e.status}</Badge>{' '}
        <span className="small">
          <Time iso={e.createdAt} /> ·{' '}
          {fromPsa
            ? 'changed in the PSA'
            : `${e.incidentStatus ?? '—'} · HTTP ${e.httpStatus} · ${e.strategy}`}
        </span>
      </div>
      {e.detail && <p className="detail">{e.detail}</p>}
      <div className="small mono">message {e.messageId}</div>
    </li>
  )
}

export function TicketPage() {
  const { correlationId = '' } = useParams()
  const [params] = useSearchParams()
  const integrationId = params.get('integrationId')
  const ticket = useTicket(correlationId, integrationId)
  return (
    <Page title="Ticket">
      <p>
        <Link to="/tickets">All tickets</Link>
      </p>
      <QueryView query={ticket} what="Loading the ticket">
        {(t) => (
          <>
            <div className="panel">
              <h2>{t.title}</h2>
              <dl className="facts">
                <dt>Status</dt>
                <dd data-testid="ticket-status">
                  <Badge kind={t.status}>{t.status}</Badge>
                  {closedHow(t) && <> {closedHow(t)}</>}
                </dd>
                {t.mergedFrom && (
                  <>
                    <dt>Merged</dt>
                    <dd>Merged from ticket {t.mergedFrom} in the PSA</dd>
                  </>
                )}
                <dt>PSA ticket</dt>
                <dd>
                  <PsaTicket t={t} /> <span className="small muted">({t.psaKind})</span>
                </dd>
                <dt>Correlation id</dt>
                <dd className="mono">{t.correlationId}</dd>
                <dt>Account</dt>
                <dd>
                  <Named name={t.accountName} id={t.accountId} />
                </dd>
                <dt>PSA company</dt>
                <dd>
                  {t.psaCompanyId ? (
                    <Named name={t.psaCompanyName} id={t.psaCompanyId} />
                  ) : (
                    <span className="muted">the account is not mapped</span>
                  )}
                </dd>
                <dt>Product group / type</dt>
                <dd>
                  {t.productGroup} / {t.alertType}
                </dd>
                <dt>Alerts folded in</dt>
                <dd>{t.occurrenceCount}</dd>
                <dt>Created</dt>
                <dd>
                  <Time iso={t.createdAt} />
                </dd>
                <dt>Closed</dt>
                <dd>
                  <Time iso={t.closedAt} />
                </dd>
                <dt>Integration</dt>
                <dd>
                  <Link
                    to={`/integrations/${encodeURIComponent(t.integrationId)}/rules`}
                    className={t.vendorName ? undefined : 'mono'}
                  >
                    {t.vendorName ?? t.integrationId}
                  </Link>
                </dd>
              </dl>
            </div>
            <section aria-labelledby="timeline-h">
              <h2 id="timeline-h">Timeline</h2>
              {t.eventCount > t.events.length && (
                <p className="small">
                  The newest {t.events.length} of {t.eventCount} events.{' '}
                  <Link to={`/activity?correlationId=${encodeURIComponent(t.correlationId)}`}>
                    All of them
                  </Link>
                </p>
              )}
              <ol className="timeline" aria-label="Events, oldest first">
                {t.events.map((e) => (
                  <EventItem key={e.messageId} e={e} />
                ))}
              </ol>
            </section>
          </>
        )}
      </QueryView>
    </Page>
  )
}
