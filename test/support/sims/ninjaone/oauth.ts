// The simulated NinjaOne's OAuth2 (docs/psa/ninjaone.md#tokens): POST /ws/oauth/token (also
// /oauth/token) takes a form with grant_type client_credentials (a machine token: ticket writes are
// refused with 403 user_context_required), authorization_code (with the PKCE verifier of the
// challenge the consent carried, S256) or refresh_token (rotated: the token spent is refused ever
// after with invalid_grant). GET /ws/oauth/authorize serves a consent page whose Approve button sends
// the browser to the redirect_uri with the code and the state.
import { createHash, randomUUID } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import type { NinjaState } from './types.js'

const oauth = (status: number, error: string, description: string) => ({
  status,
  body: { error, error_description: description, error_code: status },
})

export function installOauth(app: FastifyInstance, state: NinjaState): void {
  const issue = (user: boolean, refresh: boolean) => {
    const access = `ninja-at-${randomUUID()}`
    state.accessTokens[access] = { expiresAt: Date.now() + state.tokenLifetimeSeconds * 1000, user }
    const body: Record<string, unknown> = {
      access_token: access,
      token_type: 'Bearer',
      expires_in: state.tokenLifetimeSeconds,
      scope: user ? 'monitoring management offline_access' : 'monitoring management',
    }
    if (refresh) {
      const next = `ninja-rt-${randomUUID()}`
      state.refreshTokens[next] = 'live'
      body.refresh_token = next
    }
    return { status: 200, body }
  }

  const token = (form: Record<string, string> | null) => {
    if (!form) return oauth(400, 'invalid_request', 'The token request must be form-encoded.')
    const { clientId, clientSecret } = state.credentials
    if (form.client_id !== clientId) return oauth(404, 'invalid_client', 'Client app not exist')
    if (form.client_secret !== clientSecret) return oauth(401, 'invalid_client', 'Bad client credentials')
    switch (form.grant_type) {
      case 'client_credentials':
        return issue(false, false)
      case 'refresh_token': {
        const given = form.refresh_token ?? ''
        if (state.refreshTokens[given] !== 'live')
          return oauth(400, 'invalid_grant', 'The refresh token is invalid, expired or spent.')
        if (!state.rotate) return issue(true, false)
        state.refreshTokens[given] = 'spent'
        return issue(true, true)
      }
      case 'authorization_code': {
        const code = state.codes[form.code ?? '']
        if (!code || code.expiresAt < Date.now())
          return oauth(400, 'invalid_grant', 'Unknown or expired code.')
        delete state.codes[form.code ?? '']
        if (code.redirectUri !== form.redirect_uri)
          return oauth(400, 'invalid_grant', 'redirect_uri does not match the authorization request.')
        const challenge = createHash('sha256')
          .update(form.code_verifier ?? '')
          .digest('base64url')
        if (challenge !== code.challenge) return oauth(400, 'invalid_grant', 'PKCE verification failed.')
        return issue(true, true)
      }
      default:
        return oauth(400, 'unsupported_grant_type', `grant_type '${form.grant_type ?? ''}' is not supported.`)
    }
  }

  for (const path of ['/ws/oauth/token', '/oauth/token'])
    app.post(path, async (request, reply) => {
      const form = request.headers['content-type']?.startsWith('application/x-www-form-urlencoded')
        ? (request.body as Record<string, string>)
        : null
      const a = token(form)
      return reply.code(a.status).send(a.body)
    })

  app.get('/ws/oauth/authorize', async (request, reply) => {
    const q = request.query as Record<string, string | undefined>
    const problems = [
      q.response_type !== 'code' && 'response_type must be code',
      q.client_id !== state.credentials.clientId && 'unknown client_id',
      !q.redirect_uri && 'redirect_uri is required',
      q.code_challenge_method !== 'S256' && 'code_challenge_method must be S256',
      !q.code_challenge && 'code_challenge is required',
      !(q.scope ?? '').split(' ').includes('offline_access') && 'scope must include offline_access',
    ].filter(Boolean)
    if (problems.length > 0)
      return reply
        .code(400)
        .type('text/html')
        .send(`<p>${problems.join('; ')}</p>`)
    const code = `ninja-code-${randomUUID()}`
    state.codes[code] = {
      challenge: q.code_challenge ?? '',
      redirectUri: q.redirect_uri ?? '',
      expiresAt: Date.now() + 10 * 60 * 1000,
    }
    const target = new URL(q.redirect_uri ?? '')
    target.searchParams.set('code', code)
    if (q.state !== undefined) target.searchParams.set('state', q.state)
    const href = target.toString().replace(/&/g, '&amp;').replace(/"/g, '&quot;')
    return reply
      .type('text/html')
      .send(
        `<!doctype html><title>NinjaOne - Authorize</title><h1>Allow alertbridge to access NinjaOne?</h1><p>Scopes: ${q.scope}</p><a id="approve" role="button" href="${href}">Approve</a>`,
      )
  })
}
