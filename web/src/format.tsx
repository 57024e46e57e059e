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

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' })
const steps: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 30],
  ['month', 12],
  ['year', Number.POSITIVE_INFINITY],
]

/** "3 minutes ago", "yesterday": how long ago, in the reader's language. */
export function ago(iso: string, now = Date.now()): string {
  const d = new Date(iso).getTime()
  if (Number.isNaN(d)) return iso
  let amount = Math.round((d - now) / 1000)
  if (Math.abs(amount) < 10) return relative.format(0, 'second')
  for (const [unit, size] of steps) {
    if (Math.abs(amount) < size) return relative.format(amount, unit)
    amount = Math.round(amount / size)
  }
  return when(iso)
}

/** How long ago, with the exact date and time on hover and in the <time> element. */
export function Ago({ iso, never = 'never' }: { iso: string | null | undefined; never?: string }) {
  return iso ? (
    <time dateTime={iso} title={when(iso)}>
      {ago(iso)}
    </time>
  ) : (
    <span>{never}</span>
  )
}
