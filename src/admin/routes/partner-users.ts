// The operator invites a partner's portal users (docs/partner-api.md): the first admin of a new partner, or a
// new admin for a partner whose admins are gone. The same body and answer as the partner's own invite.
import type { App } from '../../platform/http/app-types.js'
import { orRefuse } from '../../platform/http/errors.js'
import { callers, operation } from '../../platform/http/openapi/operation-doc.js'
import { failures, IdParams } from '../../platform/http/schemas.js'
import type { PortalUsers } from '../../tenants/index.js'
import { type AuthHooks, actorOf, InviteBody, Invited, partnerUserView } from '../../tenants/index.js'

export interface AdminPartnerUserRoutesDeps {
  auth: Pick<AuthHooks, 'admin'>
  portalUsers: Pick<PortalUsers, 'invite'>
}

export function registerAdminPartnerUsers(app: App, s: AdminPartnerUserRoutesDeps): void {
  app.post(
    '/api/admin/partners/:id/users',
    {
      onRequest: s.auth.admin,
      schema: {
        tags: ['admin'],
        security: [{ adminToken: [] }],
        summary: 'Invite a portal user into a partner: the invite token is shown once',
        ...operation({
          id: 'invitePartnerUser',
          description: `The partner's first portal admin, typically. ${callers.operatorChange}`,
          body: { email: 'tech@bestmsp.example', name: 'Jo Tech', role: 'admin' },
        }),
        params: IdParams,
        body: InviteBody,
        response: { 201: Invited, ...failures(400, 401, 404, 409) },
      },
    },
    async (request, reply) => {
      const invited = orRefuse(await s.portalUsers.invite(request.params.id, request.body, actorOf(request)))
      return reply.code(201).send({ ...invited, user: partnerUserView(invited.user) })
    },
  )
}
