// A picker for one of the PSA's look-ups (boards, priorities, types, statuses), with "the PSA
// connection's default" as the empty choice. A value the PSA no longer lists is still shown. Where the
// PSA lists statuses and types per board (ConnectWise), they are asked only with a board: the one
// given, or else the connection's saved default board; with neither, the picker waits for a board
// instead of sending a request the PSA must refuse.
import type { LookupKind } from '../api/types'
import { useLookupReady, usePsaLookup } from '../hooks/psa'

export function LookupSelect({
  id,
  what,
  label,
  value,
  onChange,
  board,
  savedBoard = true,
  disabled,
  emptyLabel = 'PSA default',
}: {
  id: string
  what: LookupKind
  label: string
  value: string | null
  onChange: (value: string | null) => void
  board?: string | null
  /** Whether the connection's saved default board stands in when `board` is empty (not while editing it). */
  savedBoard?: boolean
  disabled?: boolean
  /** What the empty choice reads (the PSA's default, where the setting has one). */
  emptyLabel?: string
}) {
  const { ready, needsBoard } = useLookupReady(what, board, savedBoard)
  const list = usePsaLookup(what, { limit: 1000, board: board ?? null }, ready)
  const options = ready ? (list.data?.data ?? []) : []
  // A setting may name its entry (as the API allows) instead of giving its id: shown as that entry.
  const selected = options.find((o) => o.id === value) ?? options.find((o) => o.name === value)
  const known = !value || !!selected
  const hint = needsBoard ? `${id}-board` : list.error ? `${id}-error` : undefined
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={selected?.id ?? value ?? ''}
        disabled={disabled}
        aria-describedby={hint}
        onChange={(e) => onChange(e.target.value || null)}
      >
        <option value="">{emptyLabel}</option>
        {!known && value && <option value={value}>{value}</option>}
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </select>
      {needsBoard && (
        <p className="hint" id={`${id}-board`}>
          Choose a board first: its own {what === 'types' ? 'ticket types' : 'statuses'} are listed then.
        </p>
      )}
      {ready && list.error && (
        <p className="hint" id={`${id}-error`}>
          The PSA's list could not be read: {list.error instanceof Error ? list.error.message : ''}
        </p>
      )}
    </div>
  )
}
