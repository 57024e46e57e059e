// Retries of one call: 429, 408 and 5xx answers and network errors, waiting what the service's
// Retry-After says, else the backoff the vendor guide recommends (docs/vendors.md): 1 s, 2 s, 4 s, …
// doubling up to 60 s, each spread by ±20 % jitter, for at most 10 attempts. A write carries one
// Idempotency-Key for all its attempts, so a retry never doubles its effect.

export interface RetryOptions {
  /** Attempts in all, the first included (default 10; 1 turns retries off). */
  maxAttempts?: number
  /** The first backoff in ms, doubled for each further retry (default 1000). */
  baseDelayMs?: number
  /** The most one backoff waits before its jitter, in ms (default 60 000). */
  maxDelayMs?: number
  /** A Retry-After longer than this (ms) is not waited for: that answer is returned (default 120 000). */
  maxRetryAfterMs?: number
  /** Called before each wait (for logging). */
  onRetry?: (info: RetryInfo) => void
  /** How to wait (tests replace it). */
  sleep?: (ms: number, signal?: AbortSignal | null) => Promise<void>
  /** A number in [0, 1) for the jitter (tests replace it). */
  random?: () => number
}

export interface RetryInfo {
  method: string
  url: string
  /** The attempt that just failed (1 = the first). */
  attempt: number
  delayMs: number
  /** The answer's status, or undefined after a network error. */
  status?: number
  error?: unknown
  /** Whether the delay is the service's Retry-After. */
  retryAfter: boolean
}

export const retryDefaults = {
  maxAttempts: 10,
  baseDelayMs: 1000,
  maxDelayMs: 60_000,
  maxRetryAfterMs: 120_000,
} as const

/** The wait before retry number `retry` (1 = the first retry): min(cap, base·2^(retry−1)), ±20 %. */
export function backoffDelay(
  retry: number,
  o: RetryOptions = {},
  random: () => number = Math.random,
): number {
  const base = o.baseDelayMs ?? retryDefaults.baseDelayMs
  const cap = o.maxDelayMs ?? retryDefaults.maxDelayMs
  const delay = Math.min(cap, base * 2 ** Math.max(0, retry - 1))
  return Math.round(delay * (0.8 + 0.4 * random()))
}

/** A Retry-After header (seconds, or an HTTP date) in ms from `now`; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined
  const trimmed = value.trim()
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000)
  const at = Date.parse(trimmed)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}

/**
 * Whether an answer may be retried: 408, 429, 5xx other than 501, and 409 IDEMPOTENCY_KEY_IN_USE
 * (the first attempt of the same call is still running).
 */
export async function isRetryable(response: Response): Promise<boolean> {
  const { status } = response
  if (status === 408 || status === 429) return true
  if (status >= 500 && status !== 501 && status !== 505) return true
  if (status === 409) {
    try {
      const body = (await response.clone().json()) as { error?: unknown }
      return body?.error === 'IDEMPOTENCY_KEY_IN_USE'
    } catch {
      return false
    }
  }
  return false
}

const defaultSleep = (ms: number, signal?: AbortSignal | null) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal?.reason)
    }
    signal?.addEventListener('abort', onAbort, { once: true })
  })

/**
 * Sends `request` (a fresh clone per attempt) until an answer that is not retryable, the last
 * attempt, or a Retry-After longer than allowed. `send` makes one attempt (it may add to the request,
 * such as the current bearer token).
 */
export async function withRetries(
  request: Request,
  send: (request: Request) => Promise<Response>,
  o: RetryOptions = {},
): Promise<Response> {
  const maxAttempts = Math.max(1, o.maxAttempts ?? retryDefaults.maxAttempts)
  const maxRetryAfter = o.maxRetryAfterMs ?? retryDefaults.maxRetryAfterMs
  const sleep = o.sleep ?? defaultSleep
  const random = o.random ?? Math.random
  for (let attempt = 1; ; attempt++) {
    let response: Response | undefined
    let error: unknown
    try {
      response = await send(request.clone())
    } catch (err) {
      // Only a network failure (fetch's TypeError) is retried; an abort is the caller's decision, and
      // any other error (a refused token request, say) is final.
      if (request.signal?.aborted || !(err instanceof TypeError)) throw err
      error = err
    }
    const last = attempt >= maxAttempts
    if (response && (last || !(await isRetryable(response)))) return response
    if (!response && last) throw error
    const retryAfter = response ? parseRetryAfter(response.headers.get('retry-after')) : undefined
    if (response && retryAfter !== undefined && retryAfter > maxRetryAfter) return response
    const delayMs = retryAfter ?? backoffDelay(attempt, o, random)
    o.onRetry?.({
      method: request.method,
      url: request.url,
      attempt,
      delayMs,
      status: response?.status,
      error,
      retryAfter: retryAfter !== undefined,
    })
    // The answer is dropped: free its connection.
    await response?.body?.cancel().catch(() => {})
    await sleep(delayMs, request.signal)
  }
}
