// Cursor paging: the service answers nextCursor; the pager keeps the cursors of earlier pages.
import { useCallback, useState } from 'react'

export function usePager(reset: unknown = null) {
  const [state, setState] = useState<{ key: unknown; stack: (string | null)[] }>({
    key: reset,
    stack: [null],
  })
  // A new filter starts again at the first page.
  const stack = state.key === reset ? state.stack : [null]
  const cursor = stack[stack.length - 1] ?? null
  const next = useCallback(
    (nextCursor: string) => setState({ key: reset, stack: [...stack, nextCursor] }),
    [reset, stack],
  )
  const previous = useCallback(() => setState({ key: reset, stack: stack.slice(0, -1) }), [reset, stack])
  return { cursor, page: stack.length, next, previous, hasPrevious: stack.length > 1 }
}

export function Pager({
  pager,
  nextCursor,
  label,
}: {
  pager: ReturnType<typeof usePager>
  nextCursor: string | null | undefined
  label: string
}) {
  if (!pager.hasPrevious && !nextCursor) return null
  return (
    <nav className="pager" aria-label={`${label} pages`}>
      <button type="button" className="secondary" disabled={!pager.hasPrevious} onClick={pager.previous}>
        Previous
      </button>
      {/* Announced when Previous or Next loads another page (the focus stays on the button). */}
      <span aria-live="polite">Page {pager.page}</span>
      <button
        type="button"
        className="secondary"
        disabled={!nextCursor}
        onClick={() => nextCursor && pager.next(nextCursor)}
      >
        Next
      </button>
    </nav>
  )
}
