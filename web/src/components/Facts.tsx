// What a viewer sees in place of a form it may not use (docs/partner-api.md#the-portal): the settings as
// text, a term and its value each, so that no control is shown that would only be refused.
import type { ReactNode } from 'react'
import type { LookupKind } from '../api/types'
import { useLookupReady, usePsaLookup } from '../hooks/psa'

export function Facts({ label, children }: { label: string; children: ReactNode }) {
  return (
    <dl className="facts" aria-label={label}>
      {children}
    </dl>
  )
}

export function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </>
  )
}

/** A setting that names an entry of one of the PSA's lists: by its name where the PSA lists it. */
export function LookupFact({
  what,
  term,
  value,
  board,
  empty = 'PSA default',
}: {
  what: LookupKind
  term: string
  value: string | null
  board?: string | null
  /** What an empty setting reads. */
  empty?: string
}) {
  const { ready } = useLookupReady(what, board)
  const list = usePsaLookup(what, { limit: 1000, board: board ?? null }, ready && !!value)
  const entry = list.data?.data.find((o) => o.id === value || o.name === value)
  return <Fact term={term}>{value ? (entry?.name ?? value) : empty}</Fact>
}
