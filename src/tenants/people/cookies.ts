// The partner portal's session cookie (docs/decisions/portal/session-cookie.md): read from the Cookie
// header, written with the flags that keep it from scripts (HttpOnly), from other sites' requests
// (SameSite=Strict) and, over https, from plain http (Secure). One cookie, so a small parser of our own
// instead of a dependency.
import type { FastifyRequest } from 'fastify'

export const sessionCookieName = 'alertbridge_session'

/** The value of cookie `name` in a Cookie header (RFC 6265 §5.4: `name=value` pairs joined by `; `). */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue
    const value = part.slice(eq + 1).trim()
    return value.startsWith('"') && value.endsWith('"') && value.length >= 2 ? value.slice(1, -1) : value
  }
  return undefined
}

/**
 * Whether the browser reached us over https: directly, or through a proxy that TRUST_PROXY believes
 * (Fastify then reads X-Forwarded-Proto into `protocol`).
 */
export const overHttps = (request: FastifyRequest): boolean => request.protocol === 'https'

function cookie(value: string, maxAgeSeconds: number, secure: boolean): string {
  const flags = [
    `Max-Age=${maxAgeSeconds}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Strict',
    ...(secure ? ['Secure'] : []),
  ]
  return `${sessionCookieName}=${value}; ${flags.join('; ')}`
}

export const sessionCookie = (value: string, maxAgeSeconds: number, request: FastifyRequest): string =>
  cookie(value, maxAgeSeconds, overHttps(request))

/** Tells the browser to drop the session cookie. */
export const clearedSessionCookie = (request: FastifyRequest): string => cookie('', 0, overHttps(request))
