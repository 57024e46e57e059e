// The maintenance windows of the dashboard's period, under its chart: the text equivalent of the chart's
// shading, one line per occurrence ("Nightly patching · Sun 01:00–05:00 Europe/Berlin"). A recurring
// window is shown in its own time zone, a one-off in the reader's.
import type { MaintenanceOccurrence } from '../api/types'
import { ErrorNotice } from './State'

const readerZone = Intl.DateTimeFormat().resolvedOptions().timeZone

function local(iso: string, timeZone: string) {
  const parts = new Intl.DateTimeFormat(undefined, {
    timeZone,
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(iso))
  const p = (type: Intl.DateTimeFormatPartTypes) => parts.find((x) => x.type === type)?.value ?? ''
  const date = new Intl.DateTimeFormat(undefined, { timeZone, month: 'short', day: 'numeric' }).format(
    new Date(iso),
  )
  return { weekday: p('weekday'), date, time: `${p('hour')}:${p('minute')}` }
}

/** "Sun 01:00–05:00 Europe/Berlin", or "Sat 22:00 – Sun 02:00 Europe/Berlin" across midnight. */
export function occurrenceSpan(o: Pick<MaintenanceOccurrence, 'start' | 'end' | 'timeZone'>): {
  span: string
  date: string
} {
  const zone = o.timeZone ?? readerZone
  const a = local(o.start, zone)
  const b = local(o.end, zone)
  const span =
    a.date === b.date ? `${a.weekday} ${a.time}–${b.time}` : `${a.weekday} ${a.time} – ${b.weekday} ${b.time}`
  return { span: `${span} ${zone}`, date: a.date === b.date ? a.date : `${a.date} – ${b.date}` }
}

export function MaintenanceOccurrences({
  occurrences,
  truncated,
  error,
}: {
  occurrences: MaintenanceOccurrence[]
  truncated: boolean
  error?: unknown
}) {
  return (
    <section className="panel" aria-labelledby="maintenance-h">
      <h2 id="maintenance-h">Maintenance windows in this period</h2>
      {error ? (
        <ErrorNotice error={error} />
      ) : occurrences.length === 0 ? (
        <p>No maintenance window in this period.</p>
      ) : (
        <ul className="occurrences">
          {occurrences.map((o) => {
            const { span, date } = occurrenceSpan(o)
            return (
              <li key={`${o.windowId}/${o.start}`}>
                <strong>{o.name}</strong> · <time dateTime={o.start}>{span}</time>
                <span className="small muted">
                  {' '}
                  · {date} · {o.vendorName || o.integrationId} · {o.mode === 'hold' ? 'held' : 'suppressed'}
                </span>
              </li>
            )
          })}
        </ul>
      )}
      {truncated && <p className="small muted">Only the first {occurrences.length} occurrences are shown.</p>}
    </section>
  )
}
