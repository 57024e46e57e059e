// The partner portal's sign-in (docs/partner-api.md, "Portal users and sessions"): email and password
// (or an accepted invite) give an httpOnly, SameSite=Strict session cookie and the CSRF token that every
// change made with it carries. The session can be read back and ended.
import type { FastifyReply, FastifyRequest } from 'fastify'
import Type from 'typebox'
import type { App } from '../../http/app-types.js'
import { portalSessionOf } from '../../http/auth.js'
import { clearedSessionCookie, sessionCookie } from '../../http/cookies.js'
import { orRefuse } from '../../http/errors.js'
import { failures } from '../../http/schemas.js'
import type { StartedSession } from '../portal-sessions.js'
import { AcceptInviteBody, SessionView, SignInBody, sessionUser } from '../portal-views.js'
import type { PartnerRoutesDeps } from './deps.js'

/** The session's answer: the user, the CSRF token, and the cookie; never cached. */
function started(request: FastifyRequest, reply: FastifyReply, s: StartedSession): SessionView {
  reply
    .header('set-cookie', sessionCookie(s.cookieValue, s.maxAgeSeconds, request))
    .header('cache-control', 'no-store')
  return { user: sessionUser(s.user), csrfToken: s.csrfToken }
}

export function registerPartnerSession(app: App, s: PartnerRoutesDeps): void {
  const meta = { tags: ['partner'] }
  const withSession = { ...meta, security: [{ partnerSession: [] }] }

  app.post(
    '/api/partner/session',
    {
      schema: {
        ...meta,
        summary:
          'Sign in to the portal: sets the session cookie and answers the CSRF token; repeated failures are refused for a while (429)',
        body: SignInBody,
        response: { 200: SessionView, ...failures(400, 401, 403, 429) },
      },
    },
    async (request, reply) =>
      started(
        request,
        reply,
        orRefuse(await s.portalSessions.signIn(request.body.email, request.body.password, request.ip)),
      ),
  )

  app.post(
    '/api/partner/session/invite',
    {
      schema: {
        ...meta,
        summary: 'Accept an invite: set your password (and name) and sign in',
        body: AcceptInviteBody,
        response: { 200: SessionView, ...failures(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const { inviteToken, password, name } = request.body
      const user = orRefuse(
        await s.portalUsers.accept(inviteToken, password, name, (u) => s.portalSessions.mayStart(u)),
      )
      return started(request, reply, await s.portalSessions.start(user))
    },
  )

  app.get(
    '/api/partner/session',
    {
      onRequest: s.auth.partner,
      schema: {
        ...withSession,
        summary: 'The signed-in user and the session’s CSRF token (401 when the session has ended)',
        response: { 200: SessionView, ...failures(401, 403) },
      },
    },
    async (request, reply) => {
      const session = portalSessionOf(request)
      reply.header('cache-control', 'no-store')
      return { user: sessionUser(session.user), csrfToken: session.csrfToken }
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
        response: { 204: Type.Null(), ...failures(401, 403) },
      },
    },
    async (request, reply) => {
      await s.portalSessions.signOut(portalSessionOf(request).sessionId)
      return reply.header('set-cookie', clearedSessionCookie(request)).code(204).send(null)
    },
  )
}
