// Partner API: "Connect NinjaOne" (docs/psa/ninjaone.md#connecting-the-consent-flow). The authorize
// route starts an authorization-code flow with PKCE bound to the partner (its state and verifier kept
// server-side, expiring) and answers NinjaOne's consent URL; NinjaOne sends the browser to the
// callback, which takes the state once, exchanges the code and keeps the user's refresh token in the
// partner's NinjaOne settings (sealed with them), then sends the partner back to the portal with a
// plain message. The callback is the browser's redirect, so it carries no credentials of ours: the
// state is what binds it to the partner.
import Type from 'typebox'
import type { Store } from '../../platform/db/store.js'
import type { App } from '../../platform/http/app-types.js'
import { ApiError, notFound, orRefuse } from '../../platform/http/errors.js'
import { callers, operation } from '../../platform/http/openapi/operation-doc.js'
import { failures } from '../../platform/http/schemas.js'
import { callbackPath, consentUrl, exchangeCode, type PsaModule } from '../../psa/index.js'
import type { Provisioning } from '../../tenants/index.js'
import { type AuthHooks, partnerId } from '../../tenants/index.js'

export interface PsaConsentRoutesDeps {
  auth: Pick<AuthHooks, 'partner'>
  store: Store
  provisioning: Pick<Provisioning, 'updatePartner'>
  consent: PsaModule['consent']
  /** The service's public address (PUBLIC_URL, else where it listens). */
  publicUrl(): string | null
  timeoutMs: number
}

const Started = Type.Object({
  url: Type.String({ description: "NinjaOne's consent page: send the partner's browser there" }),
  redirectUri: Type.String({ description: "the redirect URI to register in NinjaOne's API application" }),
})

const portalPath = /^\/(?!\/)[A-Za-z0-9\-._~/]*$/

const text = (v: unknown) => (typeof v === 'string' ? v.slice(0, 200) : '')

export function registerPsaConsent(app: App, s: PsaConsentRoutesDeps): void {
  const redirectUri = () => {
    const root = s.publicUrl()
    if (!root)
      throw new ApiError('INVALID_STATE', 'Set PUBLIC_URL: NinjaOne must send the browser back to it.')
    return `${root.replace(/\/+$/, '')}${callbackPath}`
  }

  app.post(
    '/api/partner/psa/ninjaone/authorize',
    {
      onRequest: s.auth.partner,
      schema: {
        tags: ['partner'],
        security: [{ partnerKey: [] }],
        summary: "Start connecting NinjaOne as a user: answers NinjaOne's consent URL (valid ten minutes)",
        ...operation({
          id: 'startNinjaOneConsent',
          description: `The saved NinjaOne connection's baseUrl, clientId and clientSecret are used. ${callers.portalAdmin}`,
        }),
        body: Type.Object(
          {
            returnTo: Type.Optional(
              Type.String({ maxLength: 300, description: 'the portal page to come back to (a path)' }),
            ),
          },
          { additionalProperties: false },
        ),
        response: { 200: Started, ...failures(400, 401, 409) },
      },
    },
    async (request) => {
      const partner = await s.store.partners.findById(partnerId(request))
      if (!partner) throw notFound('Partner')
      const settings = consentSettings(partner.psa)
      if (!settings)
        throw new ApiError(
          'INVALID_STATE',
          'Save the NinjaOne connection (baseUrl, clientId, clientSecret) before connecting NinjaOne.',
        )
      const returnTo = request.body.returnTo ?? '/integrations'
      if (!portalPath.test(returnTo))
        throw new ApiError('VALIDATION_FAILED', 'returnTo must be a portal path.')
      const uri = redirectUri()
      const { state, verifier } = await s.consent.states.start(partner.id, 'ninjaone', returnTo)
      return { url: consentUrl(settings, uri, state, verifier), redirectUri: uri }
    },
  )

  app.get(
    callbackPath,
    {
      schema: {
        // A browser's redirect from NinjaOne, not an API operation (docs/psa/ninjaone.md documents it).
        hide: true,
        querystring: Type.Object(
          {
            code: Type.Optional(Type.String({ maxLength: 2048 })),
            state: Type.Optional(Type.String({ maxLength: 512 })),
            error: Type.Optional(Type.String({ maxLength: 512 })),
            error_description: Type.Optional(Type.String({ maxLength: 2048 })),
          },
          { additionalProperties: true },
        ),
      },
    },
    async (request, reply) => {
      const q = request.query
      const flow = q.state ? await s.consent.states.take(q.state) : null
      if (!flow)
        return reply
          .code(400)
          .type('text/plain')
          .send('This NinjaOne connection link is unknown, used or expired: start again from the portal.')
      const back = (outcome: 'connected' | 'failed', reason?: string) => {
        const params = new URLSearchParams({ ninjaone: outcome, ...(reason ? { reason } : {}) })
        return reply.code(302).header('location', `${flow.returnTo}?${params}`).send(null)
      }
      if (q.error || !q.code) return back('failed', text(q.error_description ?? q.error ?? 'no code'))
      const partner = await s.store.partners.findById(flow.partnerId)
      const settings = partner ? consentSettings(partner.psa) : null
      if (!partner || !settings) return back('failed', 'the NinjaOne connection changed meanwhile')
      const got = await exchangeCode(s.consent.http, settings, {
        code: q.code,
        verifier: flow.verifier,
        redirectUri: redirectUri(),
        timeoutMs: s.timeoutMs,
      })
      if (!got.ok) return back('failed', text(got.failure.message))
      orRefuse(
        await s.provisioning.updatePartner(partner.id, {
          psa: { kind: 'ninjaone', ...partner.psa.settings, refreshToken: got.value.refreshToken },
        }),
      )
      return back('connected')
    },
  )
}

/** The saved settings the consent needs, where the partner's PSA is NinjaOne. */
function consentSettings(psa: { kind: string; settings: Record<string, unknown> }) {
  const { baseUrl, clientId, clientSecret } = psa.settings
  if (psa.kind !== 'ninjaone') return null
  if (typeof baseUrl !== 'string' || typeof clientId !== 'string' || typeof clientSecret !== 'string')
    return null
  return { baseUrl, clientId, clientSecret }
}
