// Operator API for a vendor's access tokens: a vendor may hold several at once (each POST /api/oauth/token
// issues one); the operator lists them and revokes one or all. A revoked token answers 401 at once; the
// vendor asks POST /api/oauth/token for a new one
// (docs/decisions/vendor-api/several-tokens-and-revocation.md).
import Type from 'typebox'
import type { Clock } from '../../platform/clock.js'
import type { Store } from '../../platform/db/store.js'
import type { App } from '../../platform/http/app-types.js'
import { notFound } from '../../platform/http/errors.js'
import { callers, operation } from '../../platform/http/openapi/operation-doc.js'
import { decodeCursor, page } from '../../platform/http/pagination.js'
import { Cursor, failures, IdParams, Limit, Nullable, Page } from '../../platform/http/schemas.js'
import type { AccessToken } from '../../tenants/index.js'
import { type AuthHooks, actorOf } from '../../tenants/index.js'

const TokenView = Type.Object({
  id: Type.String(),
  integrationId: Nullable(Type.String({ description: 'the integration the token is bound to, if any' })),
  state: Type.Enum(['active', 'expired', 'revoked']),
  createdAt: Type.String(),
  expiresAt: Type.String(),
  revokedAt: Nullable(Type.String()),
})

const TokenParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64 }),
  tokenId: Type.String({ minLength: 1, maxLength: 64 }),
})

function tokenView(t: AccessToken, now: string) {
  return {
    id: t.id,
    integrationId: t.integrationId,
    state: t.revokedAt ? 'revoked' : t.expiresAt <= now ? 'expired' : 'active',
    createdAt: t.createdAt,
    expiresAt: t.expiresAt,
    revokedAt: t.revokedAt,
  } as const
}

export interface AdminTokenRoutesDeps {
  auth: Pick<AuthHooks, 'admin'>
  store: Store
  clock: Clock
}

export function registerAdminTokens(app: App, s: AdminTokenRoutesDeps): void {
  const base = { onRequest: s.auth.admin }
  const meta = { tags: ['admin'], security: [{ adminToken: [] }] }
  const vendorOr404 = async (id: string) => {
    const vendor = await s.store.vendors.findById(id)
    if (!vendor) throw notFound(`Vendor '${id}'`)
    return vendor
  }

  app.get(
    '/api/admin/vendors/:id/tokens',
    {
      ...base,
      schema: {
        ...meta,
        summary: "A vendor's access tokens, newest first",
        ...operation({
          id: 'listVendorTokens',
          description: `Their ids and times, never the tokens. ${callers.operator}`,
        }),
        params: IdParams,
        querystring: Type.Object({
          limit: Type.Optional(Limit),
          cursor: Type.Optional(Cursor),
          active: Type.Optional(Type.Boolean({ description: 'true: only tokens that still work' })),
        }),
        response: { 200: Page(TokenView), ...failures(400, 401, 404) },
      },
    },
    async (request) => {
      const vendor = await vendorOr404(request.params.id)
      const { limit = 50, cursor, active } = request.query
      const now = s.clock().toISOString()
      const rows = await s.store.tokens.listForVendor(vendor.id, {
        limit: limit + 1,
        before: decodeCursor(cursor),
        live: active ? { at: now } : undefined,
      })
      const { data, nextCursor } = page(rows, limit, (t) => t.id)
      return { data: data.map((t) => tokenView(t, now)), nextCursor }
    },
  )

  app.post(
    '/api/admin/vendors/:id/tokens/:tokenId/revoke',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'Revoke one access token (revoking twice keeps the first time)',
        ...operation({
          id: 'revokeVendorToken',
          description: `It answers 401 at once. ${callers.operatorChange}`,
        }),
        params: TokenParams,
        response: { 200: TokenView, ...failures(401, 404) },
      },
    },
    async (request) => {
      const vendor = await vendorOr404(request.params.id)
      const now = s.clock().toISOString()
      const { tokenId } = request.params
      const token = await s.store.transaction(async (tx) => {
        const token = await tx.tokens.revoke(vendor.id, tokenId, now)
        if (!token) return null
        const note = { action: 'vendor.token.revoke', targetType: 'vendor', targetId: vendor.id } as const
        await tx.audit.record(actorOf(request), { ...note, summary: { tokenId } }, now)
        return token
      })
      if (!token) throw notFound(`Token '${tokenId}' of vendor '${vendor.id}'`)
      return tokenView(token, now)
    },
  )

  app.post(
    '/api/admin/vendors/:id/tokens/revoke',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'Revoke every access token of a vendor that still works',
        ...operation({
          id: 'revokeVendorTokens',
          description: `After a leak; the vendor requests new ones. ${callers.operatorChange}`,
        }),
        params: IdParams,
        response: {
          200: Type.Object({ revoked: Type.Integer({ description: 'how many tokens were revoked' }) }),
          ...failures(401, 404),
        },
      },
    },
    async (request) => {
      const vendor = await vendorOr404(request.params.id)
      const now = s.clock().toISOString()
      const revoked = await s.store.transaction(async (tx) => {
        const revoked = await tx.tokens.revokeAll(vendor.id, now)
        const note = {
          action: 'vendor.tokens.revoke_all',
          targetType: 'vendor',
          targetId: vendor.id,
        } as const
        await tx.audit.record(actorOf(request), { ...note, summary: { revoked } }, now)
        return revoked
      })
      return { revoked }
    },
  )
}
