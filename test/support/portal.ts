// The partner portal's users as a browser would be one: invited through the API, the invite accepted,
// then requests made with the session cookie and, for changes, the x-csrf-token header.
import assert from 'node:assert/strict'
import type { Setup } from './fixtures.js'
import type { Response, TestService } from './service.js'

export const goodPassword = 'correct horse battery staple'

export interface PortalSession {
  userId: string
  email: string
  /** `alertbridge_session=<value>`, as a Cookie header carries it. */
  cookie: string
  csrfToken: string
  /** A request with the cookie; changes carry the CSRF token unless `csrf` says otherwise (null: none). */
  request<T = any>(
    method: string,
    path: string,
    body?: unknown,
    options?: { csrf?: string | null; headers?: Record<string, string> },
  ): Promise<Response<T>>
}

/** The `name=value` of the session cookie a response set. */
export function sessionCookieOf(res: Response): string {
  const header = res.headers.get('set-cookie')
  assert.ok(header, `a Set-Cookie header: ${res.text}`)
  const pair = header.split(';')[0]!
  assert.match(pair, /^alertbridge_session=abw_[A-Za-z0-9_-]{43}$/)
  return pair
}

export function portalSession(
  svc: Pick<TestService, 'request'>,
  answer: Response,
  email: string,
): PortalSession {
  assert.equal(answer.status, 200, answer.text)
  const cookie = sessionCookieOf(answer)
  const csrfToken: string = answer.body.csrfToken
  return {
    userId: answer.body.user.id,
    email,
    cookie,
    csrfToken,
    request: (method, path, body, options = {}) => {
      const csrf = options.csrf === undefined ? csrfToken : options.csrf
      const unsafe = !['GET', 'HEAD'].includes(method)
      return svc.request(method, path, {
        body,
        headers: {
          cookie,
          ...(unsafe && csrf !== null ? { 'x-csrf-token': csrf } : {}),
          ...options.headers,
        },
      })
    },
  }
}

export async function signIn(
  svc: Pick<TestService, 'request'>,
  email: string,
  password = goodPassword,
): Promise<PortalSession> {
  const res = await svc.request('POST', '/api/partner/session', { body: { email, password } })
  return portalSession(svc, res, email)
}

/** Invites a user into the setup's partner (with its API key), accepts the invite and answers the session. */
export async function newPortalUser(
  svc: Pick<TestService, 'request'>,
  s: Setup,
  role: 'admin' | 'viewer',
  email = `${role}-${Math.random().toString(36).slice(2, 10)}@msp.example`,
): Promise<PortalSession> {
  const invited = await s.partner('POST', '/api/partner/users', { email, role })
  assert.equal(invited.status, 201, invited.text)
  const accepted = await svc.request('POST', '/api/partner/session/invite', {
    body: { inviteToken: invited.body.inviteToken, password: goodPassword },
  })
  return portalSession(svc, accepted, email)
}
