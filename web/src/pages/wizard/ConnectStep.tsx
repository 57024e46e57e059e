// Step 1: the partner's PSA connection (one for all integrations) and a test that changes nothing
// and answers, in the PSA's own words, what is wrong.
import { type FormEvent, useEffect, useState } from 'react'
import type { PsaInput, PsaView } from '../../api/types'
import { LookupSelect } from '../../components/LookupSelect'
import { PsaSyncPanel } from '../../components/PsaSyncPanel'
import { ErrorNotice, Notice, QueryView } from '../../components/State'
import { usePsa, useSavePsa, useTestPsa } from '../../hooks/psa'
import { useCanEdit } from '../../hooks/session'
import { ConnectionFacts } from './ConnectionFacts'
import { NinjaOneConnect } from './NinjaOneConnect'
import { boardScoped, defaultFields, psaKinds } from './psaKinds'

type Values = Record<string, string>

/** The settings that say where the PSA's secret is sent (as the service checks them). */
const hostFields = ['baseUrl', 'site', 'subdomain'] as const
const hostOf = (v: unknown) => (typeof v === 'string' ? v.trim().toLowerCase().replace(/\/+$/, '') : '')

function initial(view: PsaView): { kind: string; values: Values; defaults: Values } {
  const values: Values = {}
  const defaults: Values = {}
  for (const [k, v] of Object.entries(view))
    if (typeof v === 'string' && k !== 'kind' && v !== '********') values[k] = v
  const d = (view as { defaults?: Record<string, unknown> }).defaults ?? {}
  for (const [k, v] of Object.entries(d)) if (typeof v === 'string') defaults[k] = v
  return { kind: view.kind, values, defaults }
}

function ConnectionForm({ view }: { view: PsaView }) {
  const save = useSavePsa()
  const [state, setState] = useState(() => initial(view))
  const [problem, setProblem] = useState<string | null>(null)
  useEffect(() => setState(initial(view)), [view])
  const kind = psaKinds.find((k) => k.kind === state.kind) ?? psaKinds[0]!
  // The PSA's lists can be read once a connection of this kind is saved: until then, ids are typed.
  const lists = view.kind === state.kind
  const connectionFields = kind.fields.filter((f) => !f.list)
  const listFields = kind.fields.filter((f) => f.list)
  const set = (name: string, value: string) =>
    setState((s) => ({ ...s, values: { ...s.values, [name]: value } }))
  // Another board has other statuses and types (ConnectWise): those picked for the old one are dropped.
  const setDefault = (name: string, value: string) =>
    setState((s) => {
      const defaults = { ...s.defaults, [name]: value }
      if (name === 'board' && value !== s.defaults.board)
        for (const f of defaultFields) if (boardScoped(view.kind, f.list)) delete defaults[f.name]
      return { ...s, defaults }
    })
  /** A secret the service holds for this kind: an empty field keeps it, unless the address changed. */
  const savedSecret = (name: string) => view.kind === state.kind && view[name] === '********'
  const moved = hostFields.some((f) => hostOf(view[f]) !== hostOf(state.values[f]))
  const secretHint = (name: string, label: string) =>
    !savedSecret(name)
      ? 'Stored encrypted and never shown again.'
      : moved && !state.values[name]?.trim()
        ? "The PSA's address changed: enter it again (the saved one is only sent to the address it was given for)."
        : `Saved and never shown again: leave empty to keep the saved ${label.toLowerCase()}, or type a new one to replace it.`

  const submit = (e: FormEvent) => {
    e.preventDefault()
    // The service would refuse it: the saved secret is not sent to a new address.
    const retype = kind.fields.filter(
      (f) => f.secret && savedSecret(f.name) && moved && !state.values[f.name]?.trim(),
    )
    if (retype.length > 0) {
      save.reset()
      setProblem(
        `The PSA's address changed: enter the ${retype.map((f) => f.label.toLowerCase()).join(' and ')} again to save.`,
      )
      return
    }
    setProblem(null)
    const settings: Record<string, unknown> = { kind: state.kind }
    for (const f of kind.fields) {
      const v = state.values[f.name]?.trim()
      if (v) settings[f.name] = v
    }
    const defaults = Object.fromEntries(Object.entries(state.defaults).filter(([, v]) => v.trim()))
    if (Object.keys(defaults).length > 0) settings.defaults = defaults
    save.mutate(settings as PsaInput)
  }

  return (
    <form onSubmit={submit} className="panel" aria-labelledby="psa-form">
      <h2 id="psa-form">Your PSA connection</h2>
      <p className="small muted">
        One connection serves all your integrations. Use a dedicated API user with only the permissions
        tickets need.
      </p>
      <fieldset>
        <legend>Connection</legend>
        <div className="field">
          <label htmlFor="psa-kind">PSA</label>
          <select
            id="psa-kind"
            value={state.kind}
            onChange={(e) => setState((s) => ({ ...s, kind: e.target.value }))}
          >
            {psaKinds.map((k) => (
              <option key={k.kind} value={k.kind}>
                {k.label}
              </option>
            ))}
          </select>
        </div>
        {connectionFields.length === 0 && (
          <p className="small">The sandbox keeps tickets inside alertbridge: nothing to fill in.</p>
        )}
        <div className="grid-2">
          {connectionFields.map((f) => (
            <div className="field" key={f.name}>
              <label htmlFor={`psa-${f.name}`}>
                {f.label}
                {f.optional ? ' (optional)' : ''}
              </label>
              <input
                id={`psa-${f.name}`}
                type={f.secret ? 'password' : 'text'}
                autoComplete="off"
                value={state.values[f.name] ?? ''}
                placeholder={f.secret && savedSecret(f.name) ? 'saved (leave empty to keep)' : undefined}
                aria-describedby={f.hint || f.secret ? `psa-${f.name}-hint` : undefined}
                onChange={(e) => set(f.name, e.target.value)}
              />
              {(f.hint || f.secret) && (
                <p className="hint" id={`psa-${f.name}-hint`}>
                  {f.secret ? secretHint(f.name, f.label) : f.hint}
                </p>
              )}
            </div>
          ))}
        </div>
      </fieldset>
      <fieldset>
        <legend>Ticket defaults (for what a rule leaves empty)</legend>
        {!lists && (
          <p className="small muted">
            Save the connection first: then these are picked from your PSA's own lists.
          </p>
        )}
        <div className="grid-2">
          {[
            ...defaultFields.map((f) => ({ ...f, isDefault: true })),
            ...listFields.map((f) => ({ ...f, isDefault: false })),
          ].map((f) => {
            const value = (f.isDefault ? state.defaults[f.name] : state.values[f.name]) ?? ''
            const change = (v: string) => (f.isDefault ? setDefault(f.name, v) : set(f.name, v))
            const id = `${f.isDefault ? 'default' : 'psa'}-${f.name}`
            return lists && f.list ? (
              <LookupSelect
                key={id}
                id={id}
                what={f.list}
                label={f.label}
                value={value || null}
                board={state.defaults.board || null}
                savedBoard={false}
                onChange={(v) => change(v ?? '')}
              />
            ) : (
              <div className="field" key={id}>
                <label htmlFor={id}>{f.label}</label>
                <input
                  id={id}
                  value={value}
                  placeholder="the PSA's own default"
                  onChange={(e) => change(e.target.value)}
                />
              </div>
            )
          })}
        </div>
      </fieldset>
      <button type="submit" disabled={save.isPending}>
        {save.isPending ? 'Saving and testing…' : 'Save connection'}
      </button>
      {problem && <Notice kind="error">{problem}</Notice>}
      {save.error && <ErrorNotice error={save.error} />}
      {save.data &&
        (typeof save.data.warning === 'string' ? (
          <Notice kind="warn">
            <p>Saved, but the PSA refused the test: {save.data.warning}</p>
          </Notice>
        ) : (
          <Notice kind="ok">
            <p>Saved. The PSA answered the test.</p>
          </Notice>
        ))}
    </form>
  )
}

export function ConnectStep() {
  const canEdit = useCanEdit()
  const psa = usePsa()
  const test = useTestPsa()
  return (
    <section aria-labelledby="connect-step">
      <h2 id="connect-step" className="visually-hidden">
        Connect your PSA
      </h2>
      <QueryView query={psa} what="Loading your PSA connection">
        {(view) => (canEdit ? <ConnectionForm view={view} /> : <ConnectionFacts view={view} />)}
      </QueryView>
      {canEdit && psa.data && psaKinds.find((k) => k.kind === psa.data.kind)?.consent && (
        <NinjaOneConnect connected={psa.data.refreshToken === '********'} />
      )}
      <div className="panel">
        <h2>Test the connection</h2>
        <p className="small muted">Signs in to the PSA and reads a little; creates nothing.</p>
        <button type="button" className="secondary" disabled={test.isPending} onClick={() => test.mutate()}>
          {test.isPending ? 'Testing…' : 'Test connection'}
        </button>
        {test.error && <ErrorNotice error={test.error} />}
        {test.data && (
          <Notice kind={test.data.ok ? 'ok' : 'error'}>
            <p>
              <strong>{test.data.ok ? 'Connected.' : 'The connection does not work.'}</strong>{' '}
              {test.data.detail}
            </p>
          </Notice>
        )}
      </div>
      {psa.data && <PsaSyncPanel />}
    </section>
  )
}
