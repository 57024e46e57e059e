// Adding or changing a rule: product group and alert types from the partner's own catalogue, the
// action, the incident statuses it suppresses, and ticket settings picked from the PSA's look-ups.
import { type FormEvent, useId, useState } from 'react'
import type { Rule, RuleInput } from '../api/types'
import { useProductGroups } from '../hooks/integrations'
import { usePsa } from '../hooks/psa'
import { boardScoped } from '../pages/wizard/psaKinds'
import { LookupSelect } from './LookupSelect'
import { type Condition, ConditionsEditor, type Templates, TemplatesEditor } from './RuleConditions'
import { ErrorNotice, Loading } from './State'

const statuses = ['OPEN', 'UPDATE', 'RESOLVED'] as const
type Status = (typeof statuses)[number]
type TicketKey = 'board' | 'priority' | 'type' | 'status' | 'closedStatus'

export function RuleForm({
  integrationId,
  rule,
  onSave,
  onCancel,
  saving,
  error,
}: {
  integrationId: string
  rule?: Rule
  onSave: (input: RuleInput) => void
  onCancel: () => void
  saving: boolean
  error: unknown
}) {
  const uid = useId()
  const catalogue = useProductGroups(integrationId)
  const groups = catalogue.data?.productGroups ?? {}
  const [productGroup, setProductGroup] = useState(rule?.productGroup ?? '')
  const group = productGroup || Object.keys(groups)[0] || ''
  const [alertTypes, setAlertTypes] = useState<string[]>(rule?.alertTypes ?? [])
  const [action, setAction] = useState<'ticket' | 'suppress'>(rule?.action ?? 'ticket')
  const [suppress, setSuppress] = useState<Status[]>((rule?.suppressStatuses ?? []) as Status[])
  const [enabled, setEnabled] = useState(rule?.enabled ?? true)
  const [ticket, setTicket] = useState<Record<TicketKey, string | null>>({
    board: rule?.ticket.board ?? null,
    priority: rule?.ticket.priority ?? null,
    type: rule?.ticket.type ?? null,
    status: rule?.ticket.status ?? null,
    closedStatus: rule?.ticket.closedStatus ?? null,
  })
  const [conditions, setConditions] = useState<Condition[]>(rule?.conditions ?? [])
  const [templates, setTemplates] = useState<Templates>(rule?.templates ?? { title: null, description: null })
  const types = groups[group] ?? []
  const psaKind = usePsa().data?.kind
  const setT = (k: TicketKey) => (v: string | null) =>
    setTicket((t) => {
      if (k !== 'board' || v === t.board) return { ...t, [k]: v }
      // Where statuses and types belong to a board (ConnectWise), those of the old board go with it.
      const drop = (what: 'types' | 'statuses') => boardScoped(psaKind, what)
      return {
        ...t,
        board: v,
        ...(drop('types') ? { type: null } : {}),
        ...(drop('statuses') ? { status: null, closedStatus: null } : {}),
      }
    })
  const toggle = <T,>(list: T[], item: T, on: boolean) =>
    on ? [...list, item] : list.filter((x) => x !== item)

  const submit = (e: FormEvent) => {
    e.preventDefault()
    onSave({
      productGroup: group,
      alertTypes: alertTypes.filter((t) => types.includes(t) || rule?.alertTypes.includes(t)),
      action,
      suppressStatuses: suppress,
      enabled,
      ticket,
      conditions,
      templates,
    })
  }

  if (catalogue.isPending) return <Loading what="Loading your product groups" />
  return (
    <form onSubmit={submit} className="panel" aria-label={rule ? 'Change rule' : 'New rule'}>
      {catalogue.error ? <ErrorNotice error={catalogue.error} /> : null}
      <div className="grid-2">
        <div className="field">
          <label htmlFor={`${uid}-group`}>Product group</label>
          <select
            id={`${uid}-group`}
            value={group}
            onChange={(e) => {
              setProductGroup(e.target.value)
              setAlertTypes([])
            }}
          >
            {rule && !(rule.productGroup in groups) && (
              <option value={rule.productGroup}>{rule.productGroup}</option>
            )}
            {Object.keys(groups).map((g) => (
              <option key={g} value={g}>
                {g}
              </option>
            ))}
          </select>
          {Object.keys(groups).length === 0 && (
            <p className="hint">The vendor has not published product groups for you yet.</p>
          )}
        </div>
        <fieldset>
          <legend>Action</legend>
          <div className="checks">
            <label>
              <input
                type="radio"
                name={`${uid}-action`}
                checked={action === 'ticket'}
                onChange={() => setAction('ticket')}
              />
              Create tickets
            </label>
            <label>
              <input
                type="radio"
                name={`${uid}-action`}
                checked={action === 'suppress'}
                onChange={() => setAction('suppress')}
              />
              Suppress (no ticket)
            </label>
          </div>
        </fieldset>
      </div>
      <fieldset>
        <legend>Alert types (none ticked: every type of the group)</legend>
        <div className="checks">
          {types.length === 0 && <span className="muted small">This group lists no alert types.</span>}
          {types.map((t) => (
            <label key={t}>
              <input
                type="checkbox"
                checked={alertTypes.includes(t)}
                onChange={(e) => setAlertTypes((l) => toggle(l, t, e.target.checked))}
              />
              {t}
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset>
        <legend>Suppress these incident statuses</legend>
        <div className="checks">
          {statuses.map((s) => (
            <label key={s}>
              <input
                type="checkbox"
                checked={suppress.includes(s)}
                onChange={(e) => setSuppress((l) => toggle(l, s, e.target.checked))}
              />
              {s}
            </label>
          ))}
        </div>
        <p className="hint">E.g. tick UPDATE to keep follow-up alerts out of the ticket's notes.</p>
      </fieldset>
      <ConditionsEditor integrationId={integrationId} conditions={conditions} onChange={setConditions} />
      {action === 'ticket' && (
        <TemplatesEditor integrationId={integrationId} templates={templates} onChange={setTemplates} />
      )}
      {action === 'ticket' && (
        <fieldset>
          <legend>Ticket settings</legend>
          <div className="grid-2">
            <LookupSelect
              id={`${uid}-board`}
              what="boards"
              label="Board / queue"
              value={ticket.board}
              onChange={setT('board')}
            />
            <LookupSelect
              id={`${uid}-priority`}
              what="priorities"
              label="Priority"
              value={ticket.priority}
              onChange={setT('priority')}
            />
            <LookupSelect
              id={`${uid}-type`}
              what="types"
              label="Type"
              board={ticket.board}
              value={ticket.type}
              onChange={setT('type')}
            />
            <LookupSelect
              id={`${uid}-status`}
              what="statuses"
              label="New ticket status"
              board={ticket.board}
              value={ticket.status}
              onChange={setT('status')}
            />
            <LookupSelect
              id={`${uid}-closed`}
              what="statuses"
              label="Closed status"
              board={ticket.board}
              value={ticket.closedStatus}
              onChange={setT('closedStatus')}
            />
          </div>
        </fieldset>
      )}
      <div className="field inline">
        <input
          id={`${uid}-enabled`}
          type="checkbox"
          checked={enabled}
          onChange={(e) => setEnabled(e.target.checked)}
        />
        <label htmlFor={`${uid}-enabled`}>Enabled</label>
      </div>
      {error ? <ErrorNotice error={error} /> : null}
      <div className="row">
        <button type="submit" disabled={saving || !group}>
          {saving ? 'Saving…' : rule ? 'Save rule' : 'Add rule'}
        </button>
        <button type="button" className="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  )
}
