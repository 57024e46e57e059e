// The portal's users and sessions in the OpenAPI document (see operations-partner.ts, which lists
// them among the partner's operations): sign-in, the session, a user's own sessions and password, and
// the partner's portal users.
import type { OperationDoc } from '../../platform/http/openapi/operation-doc.js'

const key = 'Partner API key, or the portal session (a change also sends x-csrf-token).'
const admin = 'Portal admins only (a viewer gets 403); or the partner API key.'

export const portalUserOperations: Record<string, OperationDoc> = {
  'POST /api/partner/session': {
    id: 'signIn',
    description: 'The portal’s sign-in; API clients use the API key instead.',
    body: { email: 'tech@bestmsp.example', password: 'correct horse battery staple' },
  },
  'GET /api/partner/session': { id: 'getSession', description: 'The session, or 401 when it has ended.' },
  'GET /api/partner/session/status': {
    id: 'getSessionStatus',
    description: 'The portal asks on load: the session, or `session: null` when signed out (200 either way).',
  },
  'DELETE /api/partner/session': { id: 'signOut', description: 'Needs x-csrf-token.' },
  'POST /api/partner/session/invite': {
    id: 'acceptInvite',
    description: 'The invite token comes from the admin who invited you; it works once, for 7 days.',
    body: { inviteToken: 'inv_redacted-example', password: 'correct horse battery staple', name: 'Jo Tech' },
  },
  'POST /api/partner/session/password': {
    id: 'changePassword',
    description:
      'Portal session only (the API key has no password). A wrong current password counts as a failed sign-in. Needs x-csrf-token.',
    body: { currentPassword: 'correct horse battery staple', newPassword: 'staple battery horse correct' },
  },
  'GET /api/partner/sessions': {
    id: 'listOwnSessions',
    description: 'Portal session only: the signed-in user’s own sessions, never another user’s.',
  },
  'DELETE /api/partner/sessions/{id}': {
    id: 'endOwnSession',
    description: 'Portal session only; `id` from GET /api/partner/sessions. Needs x-csrf-token.',
  },
  'POST /api/partner/sessions/end-others': {
    id: 'endOtherSessions',
    description: 'Portal session only: “Sign out everywhere else”. Needs x-csrf-token.',
  },
  'GET /api/partner/users': { id: 'listPortalUsers', description: `Paged with \`cursor\`. ${key}` },
  'POST /api/partner/users': {
    id: 'invitePortalUser',
    description: admin,
    body: { email: 'tech@bestmsp.example', name: 'Jo Tech', role: 'viewer' },
  },
  'PATCH /api/partner/users/{id}': {
    id: 'updatePortalUser',
    description: admin,
    body: { role: 'admin' },
  },
  'DELETE /api/partner/users/{id}': { id: 'removePortalUser', description: admin },
  'POST /api/partner/users/{id}/reset': { id: 'resetPortalUserPassword', description: admin },
}
