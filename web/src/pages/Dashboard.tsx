// The dashboard: outcomes over time by event name, the top failure causes with examples, and the
// health of webhook deliveries to the vendor.
import { useMemo, useState } from 'react'
import { Link } from 'react-router'
import type { Metrics } from '../api/types'
import { BarChart, type Series } from '../components/BarChart'
import { Deliveries } from '../components/Deliveries'
import { Page } from '../components/Page'
import { QueryView } from '../components/State'
import { useMetrics } from '../hooks/activity'

const ranges = {
  '24h': { label: 'Last 24 hours', hours: 24, bucket: 'hour' },
  '7d': { label: 'Last 7 days', hours: 24 * 7, bucket: 'day' },
  '30d': { label: 'Last 30 days', hours: 24 * 30, bucket: 'day' },
} as const
type Range = keyof typeof ranges

const colors = { success: '#15803d', suppressed: '#6b7280', failed: '#b91c1c' } as const

function bucketLabel(start: string, bucket: 'hour' | 'day'): string {
  const d = new Date(start)
  return bucket === 'hour'
    ? d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })
    : d.toLocaleDateString(undefined, { month: 'short', day: 'numeric' })
}

function chartOf(m: Metrics): { labels: string[]; series: Series[] } {
  const labels = m.series.map((b) => bucketLabel(b.start, m.bucket))
  const series = (['success', 'suppressed', 'failed'] as const).map((s) => ({
    label: s,
    color: colors[s],
    values: m.series.map((b) => b[s]),
  }))
  return { labels, series }
}

function Overview({ metrics }: { metrics: Metrics }) {
  const chart = useMemo(() => chartOf(metrics), [metrics])
  const failures = metrics.byEvent.filter((e) => e.status === 'failed').slice(0, 5)
  return (
    <>
      <p className="counts">
        <span>{metrics.totals.total} alerts</span>
        <span>{metrics.totals.success} succeeded</span>
        <span>{metrics.totals.suppressed} suppressed</span>
        <span className={metrics.totals.failed ? 'failed' : ''}>{metrics.totals.failed} failed</span>
      </p>
      <BarChart title="Outcomes over time" labels={chart.labels} series={chart.series} />
      <div className="grid-2">
        <section className="panel" aria-labelledby="events-h">
          <h2 id="events-h">By event</h2>
          {metrics.byEvent.length === 0 ? (
            <p>No events in this period.</p>
          ) : (
            <table>
              <thead>
                <tr>
                  <th scope="col">Event</th>
                  <th scope="col">Outcome</th>
                  <th scope="col">Count</th>
                </tr>
              </thead>
              <tbody>
                {metrics.byEvent.map((e) => (
                  <tr key={`${e.event}/${e.status}`}>
                    <td>
                      <Link to={`/activity?event=${encodeURIComponent(e.event)}&status=${e.status}`}>
                        {e.event}
                      </Link>
                    </td>
                    <td>{e.status}</td>
                    <td>{e.count}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
        <section className="panel" aria-labelledby="causes-h">
          <h2 id="causes-h">Top failure causes</h2>
          {failures.length === 0 ? (
            <p>No failures in this period.</p>
          ) : (
            <ol>
              {failures.map((f) => (
                <li key={f.event}>
                  <strong>{f.event}</strong>: {f.count}{' '}
                  <Link to={`/activity?status=failed&event=${encodeURIComponent(f.event)}`}>
                    see examples
                  </Link>
                </li>
              ))}
            </ol>
          )}
        </section>
      </div>
    </>
  )
}

export function Dashboard() {
  const [range, setRange] = useState<Range>('24h')
  // The period ends now; it is fixed when the range is chosen so the query key stays stable.
  const since = useMemo(() => new Date(Date.now() - ranges[range].hours * 3600_000).toISOString(), [range])
  const metrics = useMetrics({ since, bucket: ranges[range].bucket })
  return (
    <Page title="Dashboard">
      <div className="row">
        <div className="field">
          <label htmlFor="range">Period</label>
          <select id="range" value={range} onChange={(e) => setRange(e.target.value as Range)}>
            {Object.entries(ranges).map(([k, r]) => (
              <option key={k} value={k}>
                {r.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      <QueryView query={metrics} what="Loading metrics">
        {(m) => <Overview metrics={m} />}
      </QueryView>
      <Deliveries />
    </Page>
  )
}
