// The partner's portal users (docs/partner-api.md, "Portal users and sessions"): admins invite,
// change, reset and remove them; viewers read the list. The API key has an admin's rights.
import Type from 'typebox'
import type { App } from '../../platform/http/app-types.js'
import { orRefuse } from '../../platform/http/errors.js'
import { callers, operation } from '../../platform/http/openapi/operation-doc.js'
import { decodeKeyCursor, pageByKey } from '../../platform/http/pagination.js'
import { failures, IdParams, KeyCursor, Limit, Page } from '../../platform/http/schemas.js'
import type { PortalUsers } from '../../tenants/index.js'
import {
  type AuthHooks,
  actorOf,
  InviteBody,
  Invited,
  PartnerUserView,
  PatchUserBody,
  partnerId,
  partnerUserView,
} from '../../tenants/index.js'

export interface PartnerUserRoutesDeps {
  auth: Pick<AuthHooks, 'partner'>
  portalUsers: Pick<PortalUsers, 'invite' | 'list' | 'update' | 'reset' | 'remove'>
}

export function registerPartnerUsers(app: App, s: PartnerUserRoutesDeps): void {
  const base = { onRequest: s.auth.partner }
  const meta = { tags: ['partner'], security: [{ partnerKey: [] }] }

  app.get(
    '/api/partner/users',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'Your portal users, in the order they were invited, 50 a page unless `limit` says otherwise',
        ...operation({ id: 'listPortalUsers', description: `Paged with \`cursor\`. ${callers.partner}` }),
        querystring: Type.Object({ limit: Type.Optional(Limit), cursor: Type.Optional(KeyCursor) }),
        response: { 200: Page(PartnerUserView), ...failures(400, 401) },
      },
    },
    async (request) => {
      const { limit = 50, cursor } = request.query
      const rows = await s.portalUsers.list(partnerId(request), {
        after: decodeKeyCursor(cursor, 2),
        limit: limit + 1,
      })
      const { data, nextCursor } = pageByKey(rows, limit, (u) => [u.createdAt, u.id])
      return { data: data.map(partnerUserView), nextCursor }
    },
  )

  app.post(
    '/api/partner/users',
    {
      ...base,
      schema: {
        ...meta,
        summary:
          'Invite a portal user (admin): the invite token is shown once and accepted with POST /api/partner/session/invite within 7 days',
        ...operation({
          id: 'invitePortalUser',
          description: callers.portalAdmin,
          body: { email: 'tech@bestmsp.example', name: 'Jo Tech', role: 'viewer' },
        }),
        body: InviteBody,
        response: { 201: Invited, ...failures(400, 401, 409) },
      },
    },
    async (request, reply) => {
      const invited = orRefuse(await s.portalUsers.invite(partnerId(request), request.body, actorOf(request)))
      return reply.code(201).send({ ...invited, user: partnerUserView(invited.user) })
    },
  )

  app.patch(
    '/api/partner/users/:id',
    {
      ...base,
      schema: {
        ...meta,
        summary:
          'Change a user’s role, name or disabled state (admin); disabling ends its sessions; the last admin cannot be demoted or disabled',
        ...operation({
          id: 'updatePortalUser',
          description: callers.portalAdmin,
          body: { role: 'admin' },
        }),
        params: IdParams,
        body: PatchUserBody,
        response: { 200: PartnerUserView, ...failures(400, 401, 404, 409) },
      },
    },
    async (request) =>
      partnerUserView(
        orRefuse(
          await s.portalUsers.update(partnerId(request), request.params.id, request.body, actorOf(request)),
        ),
      ),
  )

  app.post(
    '/api/partner/users/:id/reset',
    {
      ...base,
      schema: {
        ...meta,
        summary:
          'Reset a user’s password (admin): its sessions end and a new invite token (shown once) sets a new password',
        ...operation({ id: 'resetPortalUserPassword', description: callers.portalAdmin }),
        params: IdParams,
        response: { 200: Invited, ...failures(401, 404) },
      },
    },
    async (request) => {
      const invited = orRefuse(
        await s.portalUsers.reset(partnerId(request), request.params.id, actorOf(request)),
      )
      return { ...invited, user: partnerUserView(invited.user) }
    },
  )

  app.delete(
    '/api/partner/users/:id',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'Remove a user (admin): its sessions end; the last admin cannot be removed',
        ...operation({ id: 'removePortalUser', description: callers.portalAdmin }),
        params: IdParams,
        response: { 204: Type.Null(), ...failures(401, 404, 409) },
      },
    },
    async (request, reply) => {
      orRefuse(await s.portalUsers.remove(partnerId(request), request.params.id, actorOf(request)))
      return reply.code(204).send(null)
    },
  )
}
