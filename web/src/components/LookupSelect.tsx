// A picker for one of the PSA's look-ups (boards, priorities, types, statuses), with "the PSA
// connection's default" as the empty choice. A value the PSA no longer lists is still shown.
import type { LookupKind } from '../api/types'
import { usePsaLookup } from '../hooks/psa'

export function LookupSelect({
  id,
  what,
  label,
  value,
  onChange,
  board,
  disabled,
}: {
  id: string
  what: LookupKind
  label: string
  value: string | null
  onChange: (value: string | null) => void
  board?: string | null
  disabled?: boolean
}) {
  const list = usePsaLookup(what, { limit: 1000, board: board ?? null })
  const options = list.data?.data ?? []
  const known = !value || options.some((o) => o.id === value || o.name === value)
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={value ?? ''}
        disabled={disabled}
        aria-describedby={list.error ? `${id}-error` : undefined}
        onChange={(e) => onChange(e.target.value || null)}
      >
        <option value="">PSA default</option>
        {!known && value && <option value={value}>{value}</option>}
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </select>
      {list.error && (
        <p className="hint" id={`${id}-error`}>
          The PSA's list could not be read: {list.error instanceof Error ? list.error.message : ''}
        </p>
      )}
    </div>
  )
}
