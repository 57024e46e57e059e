// An integration's maintenance windows (docs/partner-api.md#maintenance-windows): the list with
// whether each is active now and when it next starts, a form to add a one-off or recurring window,
// and delete. Alerts during a window are suppressed, or held and released when it ends.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useId, useState } from 'react'
import { useParams } from 'react-router'
import { api, unwrap } from '../api/client'
import type { Body, Ok } from '../api/types'
import { IntegrationHeader } from '../components/IntegrationHeader'
import { Page } from '../components/Page'
import { ErrorNotice, Notice, QueryView } from '../components/State'
import { Time } from '../format'
import { useIntegration } from '../hooks/integrations'
import { useCanEdit } from '../hooks/session'

const path = '/api/partner/integrations/{id}/maintenance-windows' as const
type Window = Ok<typeof path, 'get'>['data'][number]
type WindowInput = Body<typeof path, 'post'>

const keys = (id: string) => ['maintenance-windows', id] as const

function useWindows(id: string) {
  return useQuery({
    queryKey: keys(id),
    queryFn: () => unwrap(api.GET(path, { params: { path: { id } } })),
    refetchInterval: 30_000,
  })
}

function useCreateWindow(id: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: WindowInput) => unwrap(api.POST(path, { params: { path: { id } }, body })),
    onSuccess: () => client.invalidateQueries({ queryKey: keys(id) }),
  })
}

function useDeleteWindow(id: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (windowId: string) =>
      unwrap(api.DELETE(`${path}/{windowId}`, { params: { path: { id, windowId } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: keys(id) }),
  })
}

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

function WindowRow({ w, integrationId }: { w: Window; integrationId: string }) {
  const canEdit = useCanEdit()
  const remove = useDeleteWindow(integrationId)
  return (
    <tr aria-label={`window ${w.name}`}>
      <td>
        <strong>{w.name}</strong>
        <div className="small muted">
          {schedule(w)} · {scope(w)}
        </div>
      </td>
      <td>{w.mode === 'hold' ? 'hold, release at the end' : 'suppress'}</td>
      <td>
        {w.activeNow ? (
          <span className="badge on">
            active until <Time iso={w.activeUntil} />
          </span>
        ) : (
          <span className="badge off">not active</span>
        )}
        {w.held > 0 && <div className="small">{w.held} held</div>}
      </td>
      <td>{w.nextStart ? <Time iso={w.nextStart} /> : 'none'}</td>
      <td>
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

const list = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)

/** An <input type="datetime-local"> value read in the browser's zone. */
const instant = (local: string) => (local ? new Date(local).toISOString() : undefined)

function WindowForm({ integrationId, onDone }: { integrationId: string; onDone: () => void }) {
  const uid = useId()
  const create = useCreateWindow(integrationId)
  const [kind, setKind] = useState<'once' | 'recurring'>('recurring')
  const [f, setF] = useState({
    name: '',
    mode: 'suppress' as 'suppress' | 'hold',
    startsAt: '',
    endsAt: '',
    rrule: 'FREQ=WEEKLY;BYDAY=SU',
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    startTime: '01:00',
    durationMinutes: '240',
    accountIds: '',
    productGroups: '',
    alertTypes: '',
  })
  const set = (k: keyof typeof f) => (e: { target: { value: string } }) => setF({ ...f, [k]: e.target.value })
  const submit = (e: FormEvent) => {
    e.preventDefault()
    const body: WindowInput = {
      name: f.name,
      mode: f.mode,
      scope: {
        accountIds: list(f.accountIds),
        productGroups: list(f.productGroups),
        alertTypes: list(f.alertTypes),
      },
      ...(kind === 'once'
        ? { startsAt: instant(f.startsAt), endsAt: instant(f.endsAt) }
        : {
            recurrence: {
              rrule: f.rrule,
              timeZone: f.timeZone,
              startTime: f.startTime,
              durationMinutes: Number(f.durationMinutes),
            },
          }),
    }
    create.mutate(body, { onSuccess: onDone })
  }
  const field = (k: keyof typeof f, label: string, type = 'text', hint?: string) => (
    <div className="field">
      <label htmlFor={`${uid}-${k}`}>{label}</label>
      <input id={`${uid}-${k}`} type={type} value={f[k]} onChange={set(k)} />
      {hint && <div className="small muted">{hint}</div>}
    </div>
  )
  return (
    <form onSubmit={submit} className="panel" aria-label="New maintenance window">
      {field('name', 'Name')}
      <div className="field">
        <label htmlFor={`${uid}-kind`}>Schedule</label>
        <select
          id={`${uid}-kind`}
          value={kind}
          onChange={(e) => setKind(e.target.value as 'once' | 'recurring')}
        >
          <option value="recurring">Recurring</option>
          <option value="once">One-off</option>
        </select>
      </div>
      {kind === 'once' ? (
        <>
          {field('startsAt', 'Starts', 'datetime-local')}
          {field('endsAt', 'Ends', 'datetime-local')}
        </>
      ) : (
        <>
          {field(
            'rrule',
            'Recurrence (RRULE)',
            'text',
            'e.g. FREQ=WEEKLY;BYDAY=SU or FREQ=MONTHLY;BYDAY=1SA',
          )}
          {field('timeZone', 'Time zone', 'text', 'IANA, e.g. Europe/Berlin')}
          {field('startTime', 'Start time', 'time')}
          {field('durationMinutes', 'Duration (minutes)', 'number')}
        </>
      )}
      <div className="field">
        <label htmlFor={`${uid}-mode`}>During the window</label>
        <select id={`${uid}-mode`} value={f.mode} onChange={set('mode')}>
          <option value="suppress">Suppress new alerts</option>
          <option value="hold">Hold new alerts, release them at the end</option>
        </select>
      </div>
      {field('accountIds', 'Accounts (optional)', 'text', 'comma-separated account ids; empty: all')}
      {field('productGroups', 'Product groups (optional)', 'text', 'comma-separated; empty: all')}
      {field('alertTypes', 'Alert types (optional)', 'text', 'comma-separated; empty: all')}
      {create.error && <ErrorNotice error={create.error} />}
      <div className="row">
        <button type="submit" disabled={create.isPending}>
          Add window
        </button>
        <button type="button" className="secondary" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  )
}

export function MaintenancePage() {
  const { id = '' } = useParams()
  const integration = useIntegration(id)
  const windows = useWindows(id)
  const canEdit = useCanEdit()
  const [adding, setAdding] = useState(false)
  return (
    <Page
      title="Maintenance"
      actions={
        canEdit && !adding ? (
          <button type="button" onClick={() => setAdding(true)}>
            Add a window
          </button>
        ) : undefined
      }
    >
      <QueryView query={integration} what="Loading the integration">
        {(i) => <IntegrationHeader integration={i} current="Maintenance" />}
      </QueryView>
      {adding && <WindowForm integrationId={id} onDone={() => setAdding(false)} />}
      <QueryView query={windows} what="Loading the maintenance windows">
        {(w) =>
          w.data.length === 0 ? (
            <Notice kind="info">No maintenance windows: every alert goes through the rules.</Notice>
          ) : (
            <table>
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
                  <WindowRow key={x.id} w={x} integrationId={id} />
                ))}
              </tbody>
            </table>
          )
        }
      </QueryView>
    </Page>
  )
}
