// An integration's maintenance windows (docs/partner-api.md#maintenance-windows): the list with
// whether each is active now and when it next starts, a form to add a one-off or recurring window or
// edit one (the same form, filled in; PUT replaces the definition), and delete. Alerts during a
// window are suppressed, or held and released when it ends.
import { useState } from 'react'
import { useParams } from 'react-router'
import { IntegrationHeader } from '../components/IntegrationHeader'
import { WindowForm } from '../components/MaintenanceWindowForm'
import { Page } from '../components/Page'
import { ErrorNotice, Notice, QueryView } from '../components/State'
import { Time } from '../format'
import { useIntegration } from '../hooks/integrations'
import { useDeleteWindow, useWindows, type Window } from '../hooks/maintenance'
import { useCanEdit } from '../hooks/session'

function schedule(w: Window): string {
  if (w.recurrence) {
    const r = w.recurrence
    return `${r.rrule} at ${r.startTime} ${r.timeZone} for ${r.durationMinutes} min (from ${r.startDate})`
  }
  return 'one-off'
}

function scope(w: Window): string {
  const parts = [
    w.scope.accountIds.length ? `accounts ${w.scope.accountIds.join(', ')}` : '',
    w.scope.productGroups.length ? `groups ${w.scope.productGroups.join(', ')}` : '',
    w.scope.alertTypes.length ? `types ${w.scope.alertTypes.join(', ')}` : '',
  ].filter(Boolean)
  return parts.length ? parts.join(' · ') : 'every alert'
}

function WindowRow({ w, integrationId, onEdit }: { w: Window; integrationId: string; onEdit: () => void }) {
  const canEdit = useCanEdit()
  const remove = useDeleteWindow(integrationId)
  return (
    <tr aria-label={`window ${w.name}`}>
      <td data-label="Window">
        <strong>{w.name}</strong>
        <div className="small muted">
          {schedule(w)} · {scope(w)}
        </div>
      </td>
      <td data-label="Mode">{w.mode === 'hold' ? 'hold, release at the end' : 'suppress'}</td>
      <td data-label="Active now">
        {w.activeNow ? (
          <span className="badge on">
            active until <Time iso={w.activeUntil} />
          </span>
        ) : (
          <span className="badge off">not active</span>
        )}
        {w.held > 0 && <div className="small">{w.held} held</div>}
      </td>
      <td data-label="Next start">{w.nextStart ? <Time iso={w.nextStart} /> : 'none'}</td>
      <td data-label="Actions">
        {canEdit && (
          <button type="button" className="link" aria-label={`Edit ${w.name}`} onClick={onEdit}>
            Edit
          </button>
        )}{' '}
        {canEdit && (
          <button
            type="button"
            className="link"
            aria-label={`Delete ${w.name}`}
            disabled={remove.isPending}
            onClick={() => remove.mutate(w.id)}
          >
            Delete
          </button>
        )}
        {remove.error && <ErrorNotice error={remove.error} />}
      </td>
    </tr>
  )
}

export function MaintenancePage() {
  const { id = '' } = useParams()
  const integration = useIntegration(id)
  const windows = useWindows(id)
  const canEdit = useCanEdit()
  /** The form shown: a new window, a window being edited, or none. */
  const [form, setForm] = useState<{ editing: Window | null } | null>(null)
  return (
    <Page
      title="Maintenance"
      actions={
        canEdit && !form ? (
          <button type="button" onClick={() => setForm({ editing: null })}>
            Add a window
          </button>
        ) : undefined
      }
    >
      <QueryView query={integration} what="Loading the integration">
        {(i) => <IntegrationHeader integration={i} current="Maintenance" />}
      </QueryView>
      {form && (
        <WindowForm
          key={form.editing?.id ?? 'new'}
          integrationId={id}
          editing={form.editing}
          onDone={() => setForm(null)}
        />
      )}
      <QueryView query={windows} what="Loading the maintenance windows">
        {(w) =>
          w.data.length === 0 ? (
            <Notice kind="info">No maintenance windows: every alert goes through the rules.</Notice>
          ) : (
            <div className="table-wrap">
              <table className="responsive">
                <caption className="visually-hidden">Maintenance windows</caption>
                <thead>
                  <tr>
                    <th scope="col">Window</th>
                    <th scope="col">Mode</th>
                    <th scope="col">Active now</th>
                    <th scope="col">Next start</th>
                    <th scope="col">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {w.data.map((x) => (
                    <WindowRow key={x.id} w={x} integrationId={id} onEdit={() => setForm({ editing: x })} />
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </QueryView>
    </Page>
  )
}
