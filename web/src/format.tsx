// Dates as the reader's locale shows them; the ISO value stays in a <time> element.
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' })

export function when(iso: string | null | undefined): string {
  if (!iso) return '—'
  const d = new Date(iso)
  return Number.isNaN(d.getTime()) ? iso : dateTime.format(d)
}

export function Time({ iso }: { iso: string | null | undefined }) {
  return iso ? <time dateTime={iso}>{when(iso)}</time> : <span>—</span>
}
