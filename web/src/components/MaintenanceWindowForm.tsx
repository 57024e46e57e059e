// The form that adds a maintenance window or edits one (filled in with the window's own fields; saving
// replaces its definition): one-off or recurring, mode and scope (docs/partner-api.md#maintenance-windows).
import { type FormEvent, useEffect, useId, useRef, useState } from 'react'
import { useSaveWindow, type Window, type WindowInput } from '../hooks/maintenance'
import { ErrorNotice } from './State'

const list = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)

/** An <input type="datetime-local"> value read in the browser's zone. */
const instant = (local: string) => (local ? new Date(local).toISOString() : undefined)

/** An instant as an <input type="datetime-local"> value in the browser's zone. */
function localInput(iso: string | null): string {
  if (!iso) return ''
  const d = new Date(iso)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`
}

/** The form's fields: empty for a new window, the window's own when editing. */
function fieldsOf(w: Window | null) {
  const r = w?.recurrence
  return {
    name: w?.name ?? '',
    mode: w?.mode ?? ('suppress' as 'suppress' | 'hold'),
    startsAt: localInput(w?.startsAt ?? null),
    endsAt: localInput(w?.endsAt ?? null),
    rrule: r?.rrule ?? 'FREQ=WEEKLY;BYDAY=SU',
    timeZone: r?.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
    startTime: r?.startTime ?? '01:00',
    durationMinutes: String(r?.durationMinutes ?? 240),
    startDate: r?.startDate ?? '',
    accountIds: w?.scope.accountIds.join(', ') ?? '',
    productGroups: w?.scope.productGroups.join(', ') ?? '',
    alertTypes: w?.scope.alertTypes.join(', ') ?? '',
  }
}

export function WindowForm({
  integrationId,
  editing,
  onDone,
}: {
  integrationId: string
  /** The window to edit; null: a new one. */
  editing: Window | null
  onDone: () => void
}) {
  const uid = useId()
  const save = useSaveWindow(integrationId)
  const [kind, setKind] = useState<'once' | 'recurring'>(editing?.kind ?? 'recurring')
  const [initial] = useState(() => fieldsOf(editing))
  const [f, setF] = useState(initial)
  const form = useRef<HTMLFormElement>(null)
  useEffect(() => {
    if (!editing) return
    form.current?.scrollIntoView({ block: 'nearest' })
    form.current?.querySelector('input')?.focus()
  }, [editing])
  /** A one-off's instant as it was when the field is untouched (the input holds no seconds). */
  const keep = (k: 'startsAt' | 'endsAt') =>
    editing?.[k] && f[k] === initial[k] ? editing[k] : instant(f[k])
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
        ? { startsAt: keep('startsAt'), endsAt: keep('endsAt') }
        : {
            recurrence: {
              rrule: f.rrule,
              timeZone: f.timeZone,
              startTime: f.startTime,
              durationMinutes: Number(f.durationMinutes),
              ...(f.startDate ? { startDate: f.startDate } : {}),
            },
          }),
    }
    save.mutate({ windowId: editing?.id ?? null, body }, { onSuccess: onDone })
  }
  const field = (k: keyof typeof f, label: string, type = 'text', hint?: string) => (
    <div className="field">
      <label htmlFor={`${uid}-${k}`}>{label}</label>
      <input id={`${uid}-${k}`} type={type} value={f[k]} onChange={set(k)} />
      {hint && <div className="small muted">{hint}</div>}
    </div>
  )
  return (
    <form
      ref={form}
      onSubmit={submit}
      className="panel"
      aria-label={editing ? `Edit maintenance window ${editing.name}` : 'New maintenance window'}
    >
      {editing && <h2>Edit {editing.name}</h2>}
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
          {field(
            'startDate',
            'First day (optional)',
            'date',
            'the day the recurrence counts from; empty: today',
          )}
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
      {save.error && <ErrorNotice error={save.error} />}
      <div className="row">
        <button type="submit" disabled={save.isPending}>
          {editing ? 'Save window' : 'Add window'}
        </button>
        <button type="button" className="secondary" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  )
}
