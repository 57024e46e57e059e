// The rule tester's alert as fields: the account (the integration's, by name, searchable), product
// group and alert type (the catalogue's), the status and, for an update or resolution, its ticket (the
// integration's recent ones, by title), the title and summary, and the vendor's extra fields.
import { useId, useState } from 'react'
import { useAccounts } from '../hooks/accounts'
import { useDebounced } from '../hooks/debounced'
import { useExtraFields } from '../hooks/rule-templates'
import { useTickets } from '../hooks/tickets'
import { type AlertFields, type Status, statuses } from '../tester-alert'

const statusWords: Record<Status, string> = {
  OPEN: 'OPEN: a new alert',
  UPDATE: 'UPDATE: news about an alert',
  RESOLVED: 'RESOLVED: the alert is over',
}

function AccountPicker({
  integrationId,
  value,
  onChange,
}: {
  integrationId: string
  value: string
  onChange: (accountId: string) => void
}) {
  const uid = useId()
  const [search, setSearch] = useState('')
  const settled = useDebounced(search)
  const accounts = useAccounts(integrationId, 'all', null, 100, settled)
  const list = accounts.data?.data ?? []
  const many = Boolean(accounts.data?.nextCursor) || settled.trim() !== ''
  const chosen = list.find((a) => a.vendorAccountId === value)
  return (
    <div className="field">
      <label htmlFor={`${uid}-account`}>Account</label>
      {many && (
        <input
          type="search"
          aria-label="Find an account"
          placeholder="Find an account by name or id"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
      )}
      <select
        id={`${uid}-account`}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-describedby={`${uid}-account-hint`}
      >
        {value && !chosen && <option value={value}>{value}</option>}
        {list.map((a) => (
          <option key={a.vendorAccountId} value={a.vendorAccountId}>
            {a.name}
          </option>
        ))}
      </select>
      <p className="hint" id={`${uid}-account-hint`}>
        {value ? `Account id ${value}` : 'The vendor has declared no account yet.'}
        {chosen && !chosen.mapping ? ' · not mapped to a PSA company' : ''}
      </p>
    </div>
  )
}

function TicketPicker({
  integrationId,
  value,
  onChange,
}: {
  integrationId: string
  value: string
  onChange: (correlationId: string) => void
}) {
  const uid = useId()
  const tickets = useTickets({ integrationId, limit: 50 })
  const list = tickets.data?.data ?? []
  return (
    <div className="field">
      <label htmlFor={`${uid}-ticket`}>Ticket it is about</label>
      <select id={`${uid}-ticket`} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">None (test an alert that names no ticket)</option>
        {value && !list.some((t) => t.correlationId === value) && <option value={value}>{value}</option>}
        {list.map((t) => (
          <option key={t.correlationId} value={t.correlationId}>
            {`${t.title} (${t.psaTicketId ? `ticket ${t.psaTicketId}` : t.correlationId}, ${t.status})`}
          </option>
        ))}
      </select>
    </div>
  )
}

export function TesterFields({
  integrationId,
  groups,
  fields,
  onChange,
}: {
  integrationId: string
  groups: Record<string, string[]>
  fields: AlertFields
  onChange: (f: AlertFields) => void
}) {
  const uid = useId()
  const known = useExtraFields(integrationId)
  const set = (patch: Partial<AlertFields>) => onChange({ ...fields, ...patch })
  const types = groups[fields.productGroup] ?? []
  const setExtra = (i: number, patch: Partial<AlertFields['extras'][number]>) =>
    set({ extras: fields.extras.map((x, j) => (j === i ? { ...x, ...patch } : x)) })
  return (
    <>
      <div className="grid-2">
        <AccountPicker
          integrationId={integrationId}
          value={fields.accountId}
          onChange={(accountId) => set({ accountId })}
        />
        <div className="field">
          <label htmlFor={`${uid}-status`}>Status</label>
          <select
            id={`${uid}-status`}
            value={fields.incidentStatus}
            onChange={(e) => set({ incidentStatus: e.target.value as Status })}
          >
            {statuses.map((s) => (
              <option key={s} value={s}>
                {statusWords[s]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${uid}-group`}>Product group</label>
          <select
            id={`${uid}-group`}
            value={fields.productGroup}
            onChange={(e) =>
              set({ productGroup: e.target.value, alertType: groups[e.target.value]?.[0] ?? '' })
            }
          >
            {fields.productGroup && !(fields.productGroup in groups) && (
              <option value={fields.productGroup}>{fields.productGroup} (not in the catalogue)</option>
            )}
            {Object.keys(groups).map((g) => (
              <option key={g} value={g}>
                {g}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${uid}-type`}>Alert type</label>
          <select
            id={`${uid}-type`}
            value={fields.alertType}
            onChange={(e) => set({ alertType: e.target.value })}
          >
            {fields.alertType && !types.includes(fields.alertType) && (
              <option value={fields.alertType}>{fields.alertType} (not in the catalogue)</option>
            )}
            {types.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </div>
      </div>
      {fields.incidentStatus !== 'OPEN' && (
        <TicketPicker
          integrationId={integrationId}
          value={fields.correlationId}
          onChange={(correlationId) => set({ correlationId })}
        />
      )}
      <div className="field">
        <label htmlFor={`${uid}-title`}>Title</label>
        <input
          id={`${uid}-title`}
          value={fields.title}
          required
          onChange={(e) => set({ title: e.target.value })}
        />
      </div>
      <div className="field">
        <label htmlFor={`${uid}-summary`}>Summary (optional)</label>
        <textarea
          id={`${uid}-summary`}
          rows={2}
          value={fields.summary}
          onChange={(e) => set({ summary: e.target.value })}
        />
      </div>
      <fieldset>
        <legend>Extra fields (optional)</legend>
        <p className="hint">
          Fields the vendor sends beside the usual ones, e.g. severity; rule conditions can test them.
        </p>
        <datalist id={`${uid}-known`}>
          {(known.data?.data ?? []).map((f) => (
            <option key={f.field} value={f.field} />
          ))}
        </datalist>
        {fields.extras.map((x, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their place
          <div className="row" key={i}>
            <input
              aria-label={`Name of extra field ${i + 1}`}
              placeholder="Name, e.g. severity"
              list={`${uid}-known`}
              value={x.name}
              onChange={(e) => setExtra(i, { name: e.target.value })}
            />
            <input
              aria-label={`Value of extra field ${i + 1}`}
              placeholder={x.json ? 'JSON value' : 'Value'}
              className={x.json ? 'mono' : undefined}
              value={x.value}
              onChange={(e) => setExtra(i, { value: e.target.value })}
            />
            <button
              type="button"
              className="secondary"
              onClick={() => set({ extras: fields.extras.filter((_, j) => j !== i) })}
            >
              Remove extra field {i + 1}
            </button>
          </div>
        ))}
        <button
          type="button"
          className="secondary"
          onClick={() => set({ extras: [...fields.extras, { name: '', value: '' }] })}
        >
          Add an extra field
        </button>
      </fieldset>
    </>
  )
}
