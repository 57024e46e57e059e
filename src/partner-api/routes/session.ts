// The partner portal's sign-in (docs/partner-api.md, "Portal users and sessions"): email and password
// (or an accepted invite) give an httpOnly, SameSite=Strict session cookie and the CSRF token that every
// change made with it carries. The session can be read back and ended; its user sees all their sessions,
// ends one or every other, and changes their password (which ends every other session).
import type { FastifyReply, FastifyRequest } from 'fastify'
import Type from 'typebox'
import type { App } from '../../platform/http/app-types.js'
import { ApiError, orRefuse } from '../../platform/http/errors.js'
import { operation } from '../../platform/http/openapi/operation-doc.js'
import { failures, Nullable } from '../../platform/http/schemas.js'
import type { PortalSessions, PortalUsers, SignInFrom, StartedSession } from '../../tenants/index.js'
import {
  AcceptInviteBody,
  type AuthHooks,
  ChangePasswordBody,
  clearedSessionCookie,
  EndedSessions,
  PasswordChanged,
  portalSessionOf,
  readCookie,
  SessionHandleParams,
  SessionList,
  SessionView,
  SignInBody,
  sessionCookie,
  sessionCookieName,
  sessionUser,
} from '../../tenants/index.js'

/** Where this request comes from: the client address (through a trusted proxy only) and browser. */
const fromOf = (request: FastifyRequest): SignInFrom => ({
  address: request.ip,
  userAgent: request.headers['user-agent'],
})

/** The session's answer: the user, the CSRF token, and the cookie; never cached. */
function started(request: FastifyRequest, reply: FastifyReply, s: StartedSession): SessionView {
  reply
    .header('set-cookie', sessionCookie(s.cookieValue, s.maxAgeSeconds, request))
    .header('cache-control', 'no-store')
  return { user: sessionUser(s.user), csrfToken: s.csrfToken }
}

/** The portal's first question: the signed-in session, or null. */
const SessionStatus = Type.Object({ session: Nullable(SessionView) })

export interface PartnerSessionRoutesDeps {
  auth: Pick<AuthHooks, 'partner'>
  portalSessions: PortalSessions
  portalUsers: Pick<PortalUsers, 'accept'>
}

export function registerPartnerSession(app: App, s: PartnerSessionRoutesDeps): void {
  const meta = { tags: ['partner'] }
  const withSession = { ...meta, security: [{ partnerSession: [] }] }

  app.post(
    '/api/partner/session',
    {
      schema: {
        ...meta,
        summary:
          'Sign in to the portal: sets the session cookie and answers the CSRF token; failures make the same email from the same address wait longer each time (429)',
        ...operation({
          id: 'signIn',
          description: 'The portal’s sign-in; API clients use the API key instead.',
          body: { email: 'tech@bestmsp.example', password: 'correct horse battery staple' },
        }),
        body: SignInBody,
        response: { 200: SessionView, ...failures(400, 401, 403, 429) },
      },
    },
    async (request, reply) =>
      started(
        request,
        reply,
        orRefuse(await s.portalSessions.signIn(request.body.email, request.body.password, fromOf(request))),
      ),
  )

  app.post(
    '/api/partner/session/invite',
    {
      schema: {
        ...meta,
        summary:
          'Accept an invite: set your password (and name) and sign in; a password easy to guess is refused (400) with the reason',
        ...operation({
          id: 'acceptInvite',
          description: 'The invite token comes from the admin who invited you; it works once, for 7 days.',
          body: {
            inviteToken: 'inv_redacted-example',
            password: 'correct horse battery staple',
            name: 'Jo Tech',
          },
        }),
        body: AcceptInviteBody,
        response: { 200: SessionView, ...failures(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const { inviteToken, password, name } = request.body
      const user = orRefuse(
        await s.portalUsers.accept(inviteToken, password, name, (u) => s.portalSessions.mayStart(u)),
      )
      return started(request, reply, await s.portalSessions.start(user, null, fromOf(request)))
    },
  )

  app.get(
    '/api/partner/session',
    {
      onRequest: s.auth.partner,
      schema: {
        ...withSession,
        summary: 'The signed-in user and the session’s CSRF token (401 when the session has ended)',
        ...operation({ id: 'getSession', description: 'The session, or 401 when it has ended.' }),
        response: { 200: SessionView, ...failures(401, 403) },
      },
    },
    async (request, reply) => {
      const session = portalSessionOf(request)
      reply.header('cache-control', 'no-store')
      return { user: sessionUser(session.user), csrfToken: session.csrfToken }
    },
  )

  // What the portal asks when it opens: whether a session is signed in, answered 200 either way (a
  // browser logs every 401 as an error; docs/partner-api.md, "Portal users and sessions"). A cookie
  // whose session has ended is cleared, as any request made with it would.
  app.get(
    '/api/partner/session/status',
    {
      onRequest: async (request) => {
        const cookie = readCookie(request.headers.cookie, sessionCookieName)
        if (cookie === undefined || request.headers.authorization !== undefined) return
        try {
          await s.auth.partner(request)
        } catch (err) {
          if (!(err instanceof ApiError) || err.code !== 'UNAUTHENTICATED') throw err
        }
      },
      config: { viewerAllowed: true },
      schema: {
        ...meta,
        summary: 'Whether the portal is signed in: the session (user and CSRF token), or null; never 401',
        ...operation({
          id: 'getSessionStatus',
          description:
            'The portal asks on load: the session, or `session: null` when signed out (200 either way).',
        }),
        response: { 200: SessionStatus, ...failures(403) },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store')
      const p = request.principal
      if (p?.kind === 'partner' && p.session)
        return { session: { user: sessionUser(p.session.user), csrfToken: p.session.csrfToken } }
      if (readCookie(request.headers.cookie, sessionCookieName) !== undefined)
        reply.header('set-cookie', clearedSessionCookie(request))
      return { session: null }
    },
  )

  app.delete(
    '/api/partner/session',
    {
      onRequest: s.auth.partner,
      config: { viewerAllowed: true },
      schema: {
        ...withSession,
        summary: 'Sign out: the session ends and its cookie is cleared',
        ...operation({ id: 'signOut', description: 'Needs x-csrf-token.' }),
        response: { 204: Type.Null(), ...failures(401, 403) },
      },
    },
    async (request, reply) => {
      await s.portalSessions.signOut(portalSessionOf(request).sessionId)
      return reply.header('set-cookie', clearedSessionCookie(request)).code(204).send(null)
    },
  )

  registerOwnSessions(app, s)
}

/** The signed-in user's own sessions and password: a portal session's, never the API key's. */
function registerOwnSessions(app: App, s: PartnerSessionRoutesDeps): void {
  const withSession = { tags: ['partner'], security: [{ partnerSession: [] }] }

  app.get(
    '/api/partner/sessions',
    {
      onRequest: s.auth.partner,
      schema: {
        ...withSession,
        summary: 'Your sessions: browser, address, signed in and last seen; the one you use is `current`',
        ...operation({
          id: 'listOwnSessions',
          description: 'Portal session only: the signed-in user’s own sessions, never another user’s.',
        }),
        response: { 200: SessionList, ...failures(401, 403) },
      },
    },
    async (request, reply) => {
      const session = portalSessionOf(request)
      reply.header('cache-control', 'no-store')
      return { data: await s.portalSessions.list(session.user.id, session.sessionId) }
    },
  )

  app.delete(
    '/api/partner/sessions/:id',
    {
      onRequest: s.auth.partner,
      config: { viewerAllowed: true },
      schema: {
        ...withSession,
        summary: 'End one of your sessions (ending the current one signs you out)',
        ...operation({
          id: 'endOwnSession',
          description: 'Portal session only; `id` from GET /api/partner/sessions. Needs x-csrf-token.',
        }),
        params: SessionHandleParams,
        response: { 204: Type.Null(), ...failures(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const session = portalSessionOf(request)
      const ended = orRefuse(
        await s.portalSessions.end(session.user.id, request.params.id, session.sessionId),
      )
      if (ended.current) reply.header('set-cookie', clearedSessionCookie(request))
      return reply.code(204).send(null)
    },
  )

  app.post(
    '/api/partner/sessions/end-others',
    {
      onRequest: s.auth.partner,
      config: { viewerAllowed: true },
      schema: {
        ...withSession,
        summary: 'Sign out everywhere else: every session of yours but this one ends',
        ...operation({
          id: 'endOtherSessions',
          description: 'Portal session only: “Sign out everywhere else”. Needs x-csrf-token.',
        }),
        response: { 200: EndedSessions, ...failures(401, 403) },
      },
    },
    async (request) => {
      const session = portalSessionOf(request)
      return { ended: await s.portalSessions.endOthers(session.user.id, session.sessionId) }
    },
  )

  app.post(
    '/api/partner/session/password',
    {
      onRequest: s.auth.partner,
      config: { viewerAllowed: true },
      schema: {
        ...withSession,
        summary:
          'Change your password: the current one must be right; a new one easy to guess is refused (400) with the reason; every other session ends',
        ...operation({
          id: 'changePassword',
          description:
            'Portal session only (the API key has no password). A wrong current password counts as a failed sign-in. Needs x-csrf-token.',
          body: {
            currentPassword: 'correct horse battery staple',
            newPassword: 'staple battery horse correct',
          },
        }),
        body: ChangePasswordBody,
        response: { 200: PasswordChanged, ...failures(400, 401, 403, 429) },
      },
    },
    async (request) =>
      orRefuse(
        await s.portalSessions.changePassword(portalSessionOf(request), request.body, fromOf(request)),
      ),
  )
}
