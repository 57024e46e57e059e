// Loading, error and message states every screen shows the same way.
import type { ReactNode } from 'react'
import { ApiError } from '../api/client'

export function Loading({ what = 'Loading' }: { what?: string }) {
  return (
    <p className="loading" role="status">
      {what}…
    </p>
  )
}

/** The service's own explanation of a failure, with its request id for support, and a retry. */
export function ErrorNotice({ error, retry }: { error: unknown; retry?: () => void }) {
  const api = error instanceof ApiError ? error : null
  const text =
    api?.status === 403
      ? `You can't do this: ${api.detail}`
      : (api?.detail ?? (error instanceof Error ? error.message : 'Something went wrong.'))
  return (
    <div className="notice error" role="alert">
      <p>{text}</p>
      {api?.requestId && <p className="small">Request id: {api.requestId}</p>}
      {retry && (
        <button type="button" className="secondary" onClick={retry}>
          Try again
        </button>
      )}
    </div>
  )
}

export function Notice({ kind, children }: { kind: 'ok' | 'warn' | 'info' | 'error'; children: ReactNode }) {
  return (
    <div className={`notice ${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  )
}

/** A query's three states: loading, failed (with retry), or its data. */
export function QueryView<T>({
  query,
  what,
  children,
}: {
  query: { data: T | undefined; error: unknown; isPending: boolean; refetch: () => unknown }
  what?: string
  children: (data: T) => ReactNode
}) {
  if (query.error && query.data === undefined)
    return <ErrorNotice error={query.error} retry={() => void query.refetch()} />
  if (query.isPending || query.data === undefined) return <Loading what={what} />
  return <>{children(query.data)}</>
}
