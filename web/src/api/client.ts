// The one client of the partner API: typed by schema.d.ts (generated from the service's OpenAPI
// document), signed in by the session cookie, and sending the session's CSRF token on every write.
import createClient, { type Middleware } from 'openapi-fetch'
import type { paths } from './schema'

/** A refused or failed call, in the service's failure envelope (error code, detail, request id). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly requestId: string | null = null,
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(detail)
    this.name = 'ApiError'
  }
}

let csrfToken: string | null = null
/** Set from the session answer (sign-in, accept invite, GET session); cleared on sign-out. */
export function setCsrfToken(token: string | null): void {
  csrfToken = token
}

const expiredListeners = new Set<() => void>()
/** Called when a call answers 401 outside the session routes: the session ended (expired, signed out elsewhere). */
export function onSessionExpired(listener: () => void): () => void {
  expiredListeners.add(listener)
  return () => expiredListeners.delete(listener)
}

const forbiddenListeners = new Set<() => void>()
/**
 * Called when a change answers 403: the user may no longer make it (an admin made them a viewer, say),
 * so the session is read again and the screens drop the controls they may not use.
 */
export function onChangeForbidden(listener: () => void): () => void {
  forbiddenListeners.add(listener)
  return () => forbiddenListeners.delete(listener)
}

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS'])
const session: Middleware = {
  onRequest({ request }) {
    if (!safeMethods.has(request.method) && csrfToken) request.headers.set('x-csrf-token', csrfToken)
    return request
  },
  onResponse({ request, response }) {
    const path = new URL(request.url).pathname
    if (response.status === 401 && !path.startsWith('/api/partner/session')) {
      for (const listener of expiredListeners) listener()
    }
    if (response.status === 403 && !safeMethods.has(request.method)) {
      for (const listener of forbiddenListeners) listener()
    }
    return response
  },
}

export const api = createClient<paths>({ baseUrl: window.location.origin, credentials: 'same-origin' })
api.use(session)

interface Envelope {
  error?: unknown
  detail?: unknown
  requestId?: unknown
}

function failure(response: Response, body: unknown): ApiError {
  const env = (typeof body === 'object' && body !== null ? body : {}) as Envelope
  const retry = Number(response.headers.get('retry-after'))
  return new ApiError(
    response.status,
    typeof env.error === 'string' ? env.error : `HTTP_${response.status}`,
    typeof env.detail === 'string'
      ? env.detail
      : `The service answered ${response.status} ${response.statusText}.`.replace(' .', '.'),
    typeof env.requestId === 'string' ? env.requestId : response.headers.get('x-request-id'),
    Number.isFinite(retry) && retry > 0 ? retry : null,
  )
}

/** The body of a successful call, or an ApiError carrying the service's own explanation. */
export async function unwrap<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<NonNullable<T>> {
  let result: { data?: T; error?: unknown; response: Response }
  try {
    result = await call
  } catch {
    throw new ApiError(0, 'NETWORK', 'The service could not be reached. Check the connection and try again.')
  }
  if (!result.response.ok) throw failure(result.response, result.error)
  return result.data as NonNullable<T>
}
