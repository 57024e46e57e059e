// Every integration: its vendor, state, alerting and what happened in the last 24 hours.
import { Link } from 'react-router'
import type { OverviewItem } from '../api/types'
import { OnOff, StateBadge } from '../components/Badge'
import { Page } from '../components/Page'
import { Pager, usePager } from '../components/Pager'
import { QueryView } from '../components/State'
import { useOverview } from '../hooks/integrations'

function Counts({ c }: { c: OverviewItem['last24h'] }) {
  return (
    <span className="counts">
      <span>{c.created} created</span>
      <span>{c.appended} appended</span>
      <span>{c.closed} closed</span>
      <span>{c.suppressed} suppressed</span>
      <span className={c.failed > 0 ? 'failed' : ''}>{c.failed} failed</span>
      {c.tests > 0 && <span className="tests">{c.tests} test</span>}
    </span>
  )
}

function nextStep(i: OverviewItem): { to: string; label: string } {
  const setup = `/integrations/${encodeURIComponent(i.integrationId)}/setup`
  if (i.state === 'mapping') return { to: `${setup}/connect`, label: 'Continue setup' }
  if (i.state === 'created') return { to: `${setup}/connect`, label: 'Prepare setup' }
  return { to: `${setup}/review`, label: 'Setup' }
}

export function Integrations() {
  const pager = usePager()
  const list = useOverview(pager.cursor)
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
                    const vendor = i.vendorName || i.vendorId
                    const id = encodeURIComponent(i.integrationId)
                    return (
                      <tr key={i.integrationId}>
                        <td data-label="Vendor">
                          <strong>{vendor}</strong>
                          <div className="small muted mono">{i.integrationId}</div>
                        </td>
                        <td data-label="State">
                          <StateBadge state={i.state} />
                        </td>
                        <td data-label="Alerting">
                          <OnOff on={i.alertsEnabled} label="alerting" />
                        </td>
                        <td data-label="Last 24 hours">
                          <Counts c={i.last24h} />
                        </td>
                        <td data-label="Open">
                          <div className="row">
                            <Link to={step.to} aria-label={`${step.label}: ${vendor}`}>
                              {step.label}
                            </Link>
                            <Link to={`/integrations/${id}/rules`} aria-label={`Rules: ${vendor}`}>
                              Rules
                            </Link>
                            <Link to={`/integrations/${id}/settings`} aria-label={`Settings: ${vendor}`}>
                              Settings
                            </Link>
                            <Link to={`/tickets?integrationId=${id}`} aria-label={`Tickets: ${vendor}`}>
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
