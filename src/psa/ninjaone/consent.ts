// "Connect NinjaOne" (docs/psa/ninjaone.md#connecting-the-consent-flow): NinjaOne's consent URL for the
// authorization-code grant with PKCE (S256) and the scope monitoring management offline_access, and
// the exchange of the code that comes back (with the verifier) for the user's refresh token at
// {baseUrl}/ws/oauth/token. Nothing here logs a token, and no token goes into a URL.
import { createHash } from 'node:crypto'
import type { OutboundHttp } from '../../platform/outbound/http.js'
import type { PsaFailure, PsaResult } from '../adapter.js'
import { statusFailure } from '../core/http.js'
import { ninjaErrorText, tokenFailure, tokensOf } from './client.js'

export const consentScope = 'monitoring management offline_access'
/** Where NinjaOne sends the browser back to, under the service's public address. */
export const callbackPath = '/api/partner/psa/ninjaone/callback'

export interface ConsentSettings {
  baseUrl: string
  clientId: string
  clientSecret: string
}

const root = (s: ConsentSettings) => s.baseUrl.replace(/\/+$/, '')

export const pkceChallenge = (verifier: string): string =>
  createHash('sha256').update(verifier).digest('base64url')

export function consentUrl(s: ConsentSettings, redirectUri: string, state: string, verifier: string): string {
  const url = new URL(`${root(s)}/ws/oauth/authorize`)
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: s.clientId,
    redirect_uri: redirectUri,
    scope: consentScope,
    state,
    code_challenge: pkceChallenge(verifier),
    code_challenge_method: 'S256',
  }).toString()
  return url.toString()
}

/** The code exchanged for the user's tokens; the refresh token is what is kept. */
export async function exchangeCode(
  http: Pick<OutboundHttp, 'send'>,
  s: ConsentSettings,
  o: { code: string; verifier: string; redirectUri: string; timeoutMs: number },
): Promise<PsaResult<{ refreshToken: string }>> {
  const res = await http.send({
    method: 'POST',
    url: `${root(s)}/ws/oauth/token`,
    headers: { accept: 'application/json' },
    contentType: 'application/x-www-form-urlencoded',
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: s.clientId,
      client_secret: s.clientSecret,
      code: o.code,
      code_verifier: o.verifier,
      redirect_uri: o.redirectUri,
    }).toString(),
    timeoutMs: o.timeoutMs,
    maxBodyBytes: 64 * 1024,
  })
  if (res.kind === 'error')
    return {
      ok: false,
      failure: {
        kind: 'unreachable',
        retryable: true,
        message: `NinjaOne cannot be reached: ${res.message}`,
      },
    }
  let body: unknown = null
  try {
    body = JSON.parse(res.body)
  } catch {
    body = res.body
  }
  if (res.status < 200 || res.status >= 300) {
    const text = ninjaErrorText(body) ?? `NinjaOne answered HTTP ${res.status}`
    return { ok: false, failure: tokenFailure(statusFailure(res.status, text, res.retryAfter, 10_000)) }
  }
  const tokens = tokensOf(body)
  if (!tokens.ok) return tokens
  if (tokens.value.refreshToken === null) return { ok: false, failure: noRefresh }
  return { ok: true, value: { refreshToken: tokens.value.refreshToken } }
}

const noRefresh: PsaFailure = {
  kind: 'rejected',
  retryable: false,
  message:
    "NinjaOne answered no refresh token: give the API application the 'Offline access' scope and the Refresh token grant",
}
