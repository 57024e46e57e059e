// Serves the partner portal (web/dist, built by `npm run build`) at `/` (docs/decisions/portal/serving.md).
// Hashed files under /assets/ never change, so browsers keep them for a year; index.html is asked for again
// every time, so a new build is seen at once. Every path that is not an API route or a file answers
// index.html, so the portal's deep links survive a reload. The portal's pages carry a strict
// Content-Security-Policy: scripts, styles and data only from this origin, nothing inline.
import { existsSync } from 'node:fs'
import { join, sep } from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyReply } from 'fastify'
import { appRoot } from '../platform/http/app-root.js'
import type { App } from '../platform/http/app-types.js'
import type { PageFallback } from '../platform/http/error-handler.js'

/** web/dist beside src/ (tsx) and beside dist/ (the build): both are one level under the root. */
/** web/dist/, with its trailing separator: the files' paths are appended to it. */
export const portalDir = join(appRoot, 'web', 'dist') + sep

export const contentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ')

const assetPath = /^\/assets\/[A-Za-z0-9._-]+$/
/** Files at the top of web/dist that are not index.html (the icon, robots.txt), kept an hour. */
const topFile = /^\/[A-Za-z0-9_-]+\.(svg|png|ico|txt|webmanifest)$/

function secure(reply: FastifyReply): FastifyReply {
  return reply
    .header('content-security-policy', contentSecurityPolicy)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'same-origin')
    .header('x-frame-options', 'DENY')
    .header('cross-origin-opener-policy', 'same-origin')
}

/**
 * The portal's pages, as the service's answer to a GET no route matched (installErrorHandling's
 * `pages`): the router's own matching and refusals stand, and every API route wins. Answers undefined
 * for what is not the portal's (an unknown API path, a missing asset): that is the API's 404.
 */
export function portalPages(app: App, dir: string = portalDir): PageFallback {
  // Built later than the service started (npm run build:web beside a running service): seen at once.
  let built = existsSync(`${dir}index.html`)
  // Only the reply.sendFile decorator: the fallback decides what is served and how long it is kept.
  app.register(fastifyStatic, { root: dir, serve: false })
  return (request, reply) => {
    const path = request.url.split('?')[0] ?? '/'
    if (path === '/api' || path.startsWith('/api/') || (path.startsWith('/assets/') && !assetPath.test(path)))
      return undefined
    if (!built) built = existsSync(`${dir}index.html`)
    if (!built) {
      return reply
        .code(404)
        .type('text/plain; charset=utf-8')
        .send('The partner portal is not built: run `npm run build`, then start the service again.\n')
    }
    if (assetPath.test(path)) {
      if (!existsSync(`${dir}${path.slice(1)}`)) return undefined
      return secure(reply).sendFile(path.slice(1), { maxAge: '365d', immutable: true })
    }
    if (topFile.test(path) && existsSync(`${dir}${path.slice(1)}`))
      return secure(reply).sendFile(path.slice(1), { maxAge: '1h', immutable: false })
    return secure(reply).header('cache-control', 'no-cache').sendFile('index.html', { cacheControl: false })
  }
}
