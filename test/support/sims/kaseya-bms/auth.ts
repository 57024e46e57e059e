// The simulated BMS login: POST /v2/security/authenticate takes a form (GrantType=password, UserName,
// Password, Tenant; the spec says multipart, url-encoded is what clients send) and answers
// {accessToken, refreshToken, accessTokenExpireOn, refreshTokenExpireOn}; POST /v2/security/refreshtoken
// (form AccessToken, RefreshToken) swaps a live refresh token for new ones (the old pair is then gone).
// A refused login is an envelope at HTTP 200. The access token is a JWT-shaped string; an expired or
// unknown one gets 401 with an empty body and a WWW-Authenticate header, as ASP.NET's JWT handler answers.
import { randomBytes } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { errorBody, input, okBody, refuse } from './envelope.js'
import type { BmsSession, KaseyaBmsState } from './types.js'

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url')

function issue(state: KaseyaBmsState): BmsSession {
  const now = Date.now()
  const accessExpiresAt = now + state.tokenLifetimeSeconds * 1000
  const accessToken = [
    b64({ alg: 'HS256', typ: 'JWT' }),
    b64({
      sub: state.credentials.username,
      tenant: state.credentials.tenant,
      exp: Math.floor(accessExpiresAt / 1000),
      jti: randomBytes(8).toString('hex'),
    }),
    randomBytes(24).toString('base64url'),
  ].join('.')
  const session = {
    accessToken,
    refreshToken: randomBytes(24).toString('base64url'),
    accessExpiresAt,
    refreshExpiresAt: now + state.refreshLifetimeSeconds * 1000,
  }
  state.sessions[accessToken] = session
  return session
}

const answer = (s: BmsSession) =>
  okBody({
    accessToken: s.accessToken,
    refreshToken: s.refreshToken,
    accessTokenExpireOn: new Date(s.accessExpiresAt).toISOString(),
    refreshTokenExpireOn: new Date(s.refreshExpiresAt).toISOString(),
  })

/** The token routes read forms only (ASP.NET [FromForm]): JSON gets 415. */
function formOnly(request: FastifyRequest, reply: FastifyReply): boolean {
  const type = String(request.headers['content-type'] ?? '')
  if (/^(application\/x-www-form-urlencoded|multipart\/form-data)/i.test(type)) return true
  reply.code(415).send(errorBody(415, 'Unsupported Media Type: send the fields as a form.'))
  return false
}

export function authRoutes(app: FastifyInstance, state: KaseyaBmsState): void {
  app.post('/v2/security/authenticate', async (request, reply) => {
    if (!formOnly(request, reply)) return reply
    const body = request.body
    const grant = input(body, 'GrantType')
    if (grant === undefined || grant === '') return refuse(reply, 400, 'The GrantType field is required.')
    if (String(grant).toLowerCase() !== 'password')
      return refuse(reply, 400, `GrantType '${grant}' is not supported.`)
    const { tenant, username, password } = state.credentials
    const given = ['Tenant', 'UserName', 'Password'].map((f) => String(input(body, f) ?? ''))
    if (given[0]?.toLowerCase() !== tenant.toLowerCase())
      return refuse(reply, 400, `Tenant '${given[0]}' was not found.`)
    if (given[1]?.toLowerCase() !== username.toLowerCase() || given[2] !== password)
      return refuse(reply, 400, 'Invalid username or password.')
    return answer(issue(state))
  })

  app.post('/v2/security/refreshtoken', async (request, reply) => {
    if (!formOnly(request, reply)) return reply
    const access = String(input(request.body, 'AccessToken') ?? '')
    const refresh = String(input(request.body, 'RefreshToken') ?? '')
    if (access === '') return refuse(reply, 400, 'The AccessToken field is required.')
    const session = Object.values(state.sessions).find((s) => s.refreshToken === refresh)
    if (!session || session.accessToken !== access || session.refreshExpiresAt <= Date.now())
      return refuse(reply, 401, 'The refresh token is invalid or has expired.')
    delete state.sessions[session.accessToken]
    return answer(issue(state))
  })
}

/** Checks the Bearer token of an API call; answers 401 itself when it is missing, unknown or expired. */
export function bearer(request: FastifyRequest, reply: FastifyReply, state: KaseyaBmsState): boolean {
  const m = /^Bearer\s+(\S+)$/i.exec(String(request.headers.authorization ?? ''))
  const session = m ? state.sessions[m[1] ?? ''] : undefined
  if (!session) {
    reply.code(401).header('www-authenticate', 'Bearer error="invalid_token"').send()
    return false
  }
  if (session.accessExpiresAt <= Date.now()) {
    const at = new Date(session.accessExpiresAt).toUTCString()
    reply
      .code(401)
      .header(
        'www-authenticate',
        `Bearer error="invalid_token", error_description="The token expired at '${at}'"`,
      )
      .send()
    return false
  }
  return true
}
