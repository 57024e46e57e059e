// Partner API: how the partner's PSA is heard (two-way sync, docs/psa/sync.md) — push or poll, when
// it was last heard — and registering the push again. The push's secret is shown only to an admin
// (or an API key), for the PSAs whose push an administrator sets up by hand.
import Type from 'typebox'
import type { App } from '../../platform/http/app-types.js'
import { notFound } from '../../platform/http/errors.js'
import { callers, operation } from '../../platform/http/openapi/operation-doc.js'
import { failures, Nullable } from '../../platform/http/schemas.js'
import { type AuthHooks, partnerPrincipal } from '../../tenants/index.js'
import type { PsaSync } from '../service.js'

const Time = Nullable(Type.String({ format: 'date-time' }))

export const PsaSyncStatusView = Type.Object({
  mechanism: Type.Enum(['push', 'manual', 'poll'], {
    description:
      'push: the PSA pushes changes (registered by alertbridge); manual: an administrator sets the push up in the PSA; poll: alertbridge reads tickets back',
  }),
  detail: Nullable(Type.String()),
  instructions: Nullable(Type.Array(Type.String(), { description: 'manual: the steps in the PSA' })),
  pushUrl: Nullable(Type.String({ description: 'manual: the URL the PSA pushes to' })),
  pushSecret: Nullable(
    Type.String({ description: 'manual: the password the push authenticates with (admins only)' }),
  ),
  registeredAt: Time,
  lastPushAt: Time,
  lastPollAt: Time,
  lastHeardAt: Nullable(Type.String({ format: 'date-time', description: 'the last push or poll answer' })),
  heldUntil: Nullable(
    Type.String({
      format: 'date-time',
      description:
        'the poll is held back by the PSA connection’s request budget (two-way sync spends only what alerts leave): when its next round comes; null when it is not held',
    }),
  ),
  heldReason: Nullable(
    Type.String({ description: 'why the poll is held back, e.g. which budget and how full it is' }),
  ),
  pushesRefused: Type.Integer({ description: 'pushes refused (bad signature, wrong secret, stale)' }),
  pollIntervalMs: Type.Integer(),
})

export interface PartnerPsaSyncRoutesDeps {
  auth: Pick<AuthHooks, 'partner'>
  psaSync: Pick<PsaSync, 'status' | 'registerAgain'>
}

export function registerPartnerPsaSync(app: App, s: PartnerPsaSyncRoutesDeps): void {
  const base = { onRequest: s.auth.partner }
  const meta = { tags: ['partner'], security: [{ partnerKey: [] }] }

  app.get(
    '/api/partner/psa/sync',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'How your PSA’s changes reach alertbridge (push or poll) and when it was last heard',
        ...operation({
          id: 'getPsaSync',
          description: `Two-way sync: how ticket changes made in the PSA come back (docs/psa/sync.md). ${callers.partner}`,
        }),
        response: { 200: PsaSyncStatusView, ...failures(401, 404) },
      },
    },
    async (request) => {
      const p = partnerPrincipal(request)
      const status = await s.psaSync.status(p.partnerId)
      if (!status)
        throw notFound('Two-way sync for this PSA connection (it is set up a moment after saving it)')
      const admin = p.session === null || p.session.user.role === 'admin'
      return admin ? status : { ...status, pushSecret: null }
    },
  )

  app.post(
    '/api/partner/psa/sync/register',
    {
      ...base,
      schema: {
        ...meta,
        summary:
          'Register the PSA’s push again (after fixing a permission, say); answers at once, it runs in the background',
        ...operation({
          id: 'registerPsaPush',
          description: `Read GET /api/partner/psa/sync for the outcome. ${callers.partner}`,
        }),
        response: { 202: Type.Object({ queued: Type.Boolean() }), ...failures(401) },
      },
    },
    async (request, reply) => {
      await s.psaSync.registerAgain(partnerPrincipal(request).partnerId)
      return reply.code(202).send({ queued: true })
    },
  )
}
