// The dashboard: outcomes over time by event name (every period of the range, those in a maintenance
// window shaded and listed under the chart), the top failure causes with examples, and the health of
// webhook deliveries to the vendor.
import { useMemo, useState } from 'react'
import { Link } from 'react-router'
import type { FailureCause, MaintenanceOccurrence, Metrics } from '../api/types'
import { BarChart, type Series, type Shading } from '../components/BarChart'
import { Deliveries } from '../components/Deliveries'
import { MaintenanceOccurrences } from '../components/MaintenanceOccurrences'
import { Page } from '../components/Page'
import { QueryView } from '../components/State'
import { Time } from '../format'
import { useFailureCauses, useMetrics } from '../hooks/activity'
import { useOverview } from '../hooks/integrations'
import { useMaintenanceOccurrences } from '../hooks/maintenance'

const ranges = {
  '24h': { label: 'Last 24 hours', hours: 24, bucket: 'hour' },
  '7d': { label: 'Last 7 days', hours: 24 * 7, bucket: 'day' },
  '30d': { label: 'Last 30 days', hours: 24 * 30, bucket: 'day' },
} as const
type Range = keyof typeof ranges

// Shades with at least 3:1 contrast against white, by outcome: greens and blues for success, greys for
// suppressed, reds for failures.
const palette = {
  success: ['#15803d', '#1d4ed8', '#0f766e', '#4338ca', '#166534'],
  suppressed: ['#6b7280', '#4b5563', '#9ca3af'],
  failed: ['#b91c1c', '#c2410c', '#9f1239', '#7f1d1d', '#be123c'],
} as const

function bucketLabel(start: string, bucket: 'hour' | 'day'): string {
  const d = new Date(start)
  return bucket === 'hour'
    ? d.toLocaleString(undefined, { day: 'numeric', hour: '2-digit', minute: '2-digit' })
    : d.toLocaleDateString(undefined, { month: 'short', day: 'numeric' })
}

const bucketMs = { hour: 3600_000, day: 24 * 3600_000 } as const

/** The start of every bucket of the period (UTC hours or days, as the service counts them). */
function bucketStarts(m: Metrics): number[] {
  const step = bucketMs[m.bucket]
  const until = Date.parse(m.until)
  const starts: number[] = []
  for (let t = Math.floor(Date.parse(m.since) / step) * step; t < until && starts.length < 1000; t += step)
    starts.push(t)
  return starts
}

/** Each bucket's maintenance windows by name ('' for none): the chart's shading. */
function shadingOf(
  starts: number[],
  step: number,
  occurrences: MaintenanceOccurrence[],
): Shading | undefined {
  if (occurrences.length === 0) return undefined
  const names = starts.map((t) => {
    const covering = occurrences.filter((o) => Date.parse(o.start) < t + step && Date.parse(o.end) > t)
    return [...new Set(covering.map((o) => o.name))].join(', ')
  })
  return { label: 'Maintenance window', fill: 'rgba(217, 119, 6, 0.2)', border: '#b45309', names }
}

/** One series per event name, coloured by the outcome it mostly has, over every bucket of the period. */
function chartOf(
  m: Metrics,
  occurrences: MaintenanceOccurrence[],
): { labels: string[]; series: Series[]; shading: Shading | undefined } {
  const outcome = new Map<string, { status: keyof typeof palette; count: number }>()
  for (const e of m.byEvent) {
    const seen = outcome.get(e.event)
    if (!seen || e.count > seen.count) outcome.set(e.event, { status: e.status, count: e.count })
  }
  const totals = new Map<string, number>()
  for (const e of m.byEvent) totals.set(e.event, (totals.get(e.event) ?? 0) + e.count)
  const starts = bucketStarts(m)
  const buckets = new Map(m.series.map((b) => [Date.parse(b.start), b.events]))
  const used = { success: 0, suppressed: 0, failed: 0 }
  const series = [...totals.keys()]
    .sort((a, b) => (totals.get(b) ?? 0) - (totals.get(a) ?? 0))
    .map((event) => {
      const status = outcome.get(event)?.status ?? 'success'
      const shades = palette[status]
      const color = shades[used[status]++ % shades.length] ?? shades[0]
      return { label: event, color, values: starts.map((t) => buckets.get(t)?.[event] ?? 0) }
    })
  return {
    labels: starts.map((t) => bucketLabel(new Date(t).toISOString(), m.bucket)),
    series,
    shading: shadingOf(starts, bucketMs[m.bucket], occurrences),
  }
}

function Causes({ causes }: { causes: FailureCause[] }) {
  // With several integrations, each example names its vendor (one request for all: the overview).
  const overview = useOverview(null, 500)
  const integrations = overview.data?.data ?? []
  const vendorOf = (id: string) =>
    integrations.length > 1 ? integrations.find((i) => i.integrationId === id)?.vendorName || null : null
  if (causes.length === 0) return <p>No failures in this period.</p>
  return (
    <ol className="causes">
      {causes.map((c) => (
        <li key={`${c.event}/${c.error}`}>
          <strong>{c.event}</strong>
          {c.error && <code className="small"> {c.error}</code>}: {c.count}, last <Time iso={c.lastSeenAt} />
          {c.detail && <p className="small">{c.detail}</p>}
          <p className="small">
            Examples:{' '}
            {c.examples.map((e, i) => (
              <span key={e.messageId}>
                {i > 0 && ', '}
                {e.correlationId ? (
                  <Link
                    to={`/tickets/${encodeURIComponent(e.correlationId)}?integrationId=${encodeURIComponent(e.integrationId)}`}
                  >
                    ticket {e.correlationId.slice(-8)}
                    {vendorOf(e.integrationId) && ` (${vendorOf(e.integrationId)})`}
                  </Link>
                ) : (
                  <span className="mono">{e.messageId.slice(-8)}</span>
                )}
              </span>
            ))}{' '}
            · <Link to={`/activity?status=failed&event=${encodeURIComponent(c.event)}`}>all such events</Link>
          </p>
        </li>
      ))}
    </ol>
  )
}

function Overview({
  metrics,
  occurrences,
  truncated,
  error,
}: {
  metrics: Metrics
  occurrences: MaintenanceOccurrence[]
  truncated: boolean
  error: unknown
}) {
  const chart = useMemo(() => chartOf(metrics, occurrences), [metrics, occurrences])
  return (
    <>
      <p className="counts">
        <span>{metrics.totals.total} events</span>
        <span>{metrics.totals.success} succeeded</span>
        <span>{metrics.totals.suppressed} suppressed</span>
        <span className={metrics.totals.failed ? 'failed' : ''}>{metrics.totals.failed} failed</span>
        <span className="tests" title="Test alerts' events, in none of the other counts">
          {metrics.totals.tests} test alert events (apart)
        </span>
      </p>
      <BarChart
        title="Events over time, by event"
        labels={chart.labels}
        series={chart.series}
        shading={chart.shading}
      />
      <MaintenanceOccurrences occurrences={occurrences} truncated={truncated} error={error} />
      <section className="panel" aria-labelledby="events-h">
        <h2 id="events-h">By event and outcome</h2>
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
    </>
  )
}

const noOccurrences: MaintenanceOccurrence[] = []

export function Dashboard() {
  const [range, setRange] = useState<Range>('24h')
  const [integrationId, setIntegrationId] = useState('')
  const integrations = useOverview(null, 500)
  // The period ends now; it is fixed when the range is chosen so the query key stays stable.
  const since = useMemo(() => new Date(Date.now() - ranges[range].hours * 3600_000).toISOString(), [range])
  const q = { since, bucket: ranges[range].bucket, ...(integrationId ? { integrationId } : {}) }
  const metrics = useMetrics(q)
  const causes = useFailureCauses(q)
  const maintenance = useMaintenanceOccurrences(q)
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
        <div className="field">
          <label htmlFor="dash-integration">Integration</label>
          <select
            id="dash-integration"
            value={integrationId}
            onChange={(e) => setIntegrationId(e.target.value)}
          >
            <option value="">all</option>
            {(integrations.data?.data ?? []).map((i) => (
              <option key={i.integrationId} value={i.integrationId}>
                {i.vendorName || i.integrationId}
              </option>
            ))}
          </select>
        </div>
      </div>
      <QueryView query={metrics} what="Loading metrics">
        {(m) => (
          <Overview
            metrics={m}
            occurrences={maintenance.data?.data ?? noOccurrences}
            truncated={maintenance.data?.truncated ?? false}
            error={maintenance.error}
          />
        )}
      </QueryView>
      <section className="panel" aria-labelledby="causes-h">
        <h2 id="causes-h">Top failure causes</h2>
        <QueryView query={causes} what="Loading failure causes">
          {(c) => <Causes causes={c.data} />}
        </QueryView>
      </section>
      <Deliveries />
    </Page>
  )
}
