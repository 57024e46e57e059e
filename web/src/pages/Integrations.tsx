// Every integration: its vendor, state, alerting and what happened in the last 24 hours.
import { Link } from 'react-router'
import type { Integration } from '../api/types'
import { OnOff, StateBadge } from '../components/Badge'
import { Page } from '../components/Page'
import { Pager, usePager } from '../components/Pager'
import { QueryView } from '../components/State'
import { useIntegrationCounts, useIntegrations } from '../hooks/integrations'

/** The vendor's name where the service gives it, else its id. */
export function vendorOf(i: Integration): string {
  const named = i as Integration & { vendorName?: string | null }
  return named.vendorName ?? i.vendorId
}

function Counts({ id }: { id: string }) {
  const counts = useIntegrationCounts(id)
  if (counts.error) return <span className="muted">unavailable</span>
  if (!counts.data) return <span className="muted">…</span>
  const c = counts.data
  return (
    <span className="counts">
      <span>{c.success} ok</span>
      <span>{c.suppressed} suppressed</span>
      <span className={c.failed > 0 ? 'failed' : ''}>{c.failed} failed</span>
    </span>
  )
}

function nextStep(i: Integration): { to: string; label: string } {
  if (i.state === 'mapping')
    return { to: `/integrations/${i.integrationId}/setup/connect`, label: 'Continue setup' }
  if (i.state === 'created')
    return { to: `/integrations/${i.integrationId}/setup/connect`, label: 'Prepare setup' }
  return { to: `/integrations/${i.integrationId}/setup/review`, label: 'Setup' }
}

export function Integrations() {
  const pager = usePager()
  const list = useIntegrations(pager.cursor)
  return (
    <Page title="Integrations">
      <p className="muted">
        Each vendor that sends you alerts is one integration. Set it up once, then watch its tickets.
      </p>
      <QueryView query={list} what="Loading integrations">
        {(page) =>
          page.data.length === 0 ? (
            <p>No integrations yet: a vendor connects to you first, then the integration appears here.</p>
          ) : (
            <div className="table-wrap">
              <table className="responsive">
                <caption className="visually-hidden">Your integrations</caption>
                <thead>
                  <tr>
                    <th scope="col">Vendor</th>
                    <th scope="col">State</th>
                    <th scope="col">Alerting</th>
                    <th scope="col">Last 24 hours</th>
                    <th scope="col">Open</th>
                  </tr>
                </thead>
                <tbody>
                  {page.data.map((i) => {
                    const step = nextStep(i)
                    return (
                      <tr key={i.integrationId}>
                        <td data-label="Vendor">
                          <strong>{vendorOf(i)}</strong>
                          <div className="small muted mono">{i.integrationId}</div>
                        </td>
                        <td data-label="State">
                          <StateBadge state={i.state} />
                        </td>
                        <td data-label="Alerting">
                          <OnOff on={i.alertsEnabled} label="alerting" />
                        </td>
                        <td data-label="Last 24 hours">
                          <Counts id={i.integrationId} />
                        </td>
                        <td data-label="Open">
                          <div className="row">
                            <Link to={step.to} aria-label={`${step.label}: ${vendorOf(i)}`}>
                              {step.label}
                            </Link>
                            <Link
                              to={`/integrations/${i.integrationId}/rules`}
                              aria-label={`Rules: ${vendorOf(i)}`}
                            >
                              Rules
                            </Link>
                            <Link
                              to={`/integrations/${i.integrationId}/settings`}
                              aria-label={`Settings: ${vendorOf(i)}`}
                            >
                              Settings
                            </Link>
                            <Link to={`/tickets?integrationId=${encodeURIComponent(i.integrationId)}`}>
                              Tickets
                            </Link>
                          </div>
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
      <Pager pager={pager} nextCursor={list.data?.nextCursor} label="Integrations" />
    </Page>
  )
}
