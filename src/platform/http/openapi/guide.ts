// The documentation beside the API reference (docs/vendors.md): every page of docs/ is served rendered
// at /docs/<path>.md, and the vendor guide at /docs/vendors too, so that a vendor reading /docs finds the
// guide without the repository. Pages are rendered once, on first request (marked), from the docs/
// folder beside src/ and dist/; an installation without the folder serves none of them.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import type { FastifyReply } from 'fastify'
import { marked } from 'marked'
import { appRoot } from '../app-root.js'
import type { App } from '../app-types.js'
import { notFound } from '../errors.js'

/** docs/ in the folder the service's files are read from (app-root.ts), beside src/ and dist/. */
const docsDir = join(appRoot, 'docs')

function pages(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name)
    if (e.isDirectory()) return pages(path)
    return e.name.endsWith('.md') ? [relative(docsDir, path).split('\\').join('/')] : []
  })
}

const style = `body{font:16px/1.55 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#1d2330}
pre{background:#f4f5f7;padding:.8rem;overflow:auto;border-radius:6px}code{font-size:.92em}
table{border-collapse:collapse}td,th{border:1px solid #d6d9de;padding:.3rem .5rem;vertical-align:top}
a{color:#0b5cad}nav{margin-bottom:1rem;font-size:.9rem}`

/** One page as HTML: the rendered Markdown with a link back to the API reference. */
export function renderPage(markdown: string, title: string): string {
  const body = marked.parse(markdown, { async: false })
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title} · alertbridge</title><style>${style}</style></head><body>
<nav><a href="/docs">API reference</a> · <a href="/docs/vendors.md">Vendor guide</a> · <a href="/openapi.json">openapi.json</a></nav>
${body}</body></html>`
}

export function registerGuide(app: App): void {
  if (!existsSync(docsDir)) return
  // The pages that exist, read once: a request names one of them or is not a guide page.
  const known = new Set(pages(docsDir))
  const rendered = new Map<string, string>()
  const serve = (page: string) => {
    let html = rendered.get(page)
    if (html === undefined) {
      const markdown = readFileSync(join(docsDir, page), 'utf8')
      html = renderPage(markdown, /^# (.+)$/m.exec(markdown)?.[1] ?? page)
      rendered.set(page, html)
    }
    return html
  }
  const send = (reply: FastifyReply, page: string) =>
    reply.type('text/html; charset=utf-8').header('cache-control', 'public, max-age=300').send(serve(page))
  app.get('/docs/vendors', { schema: { hide: true } }, async (_request, reply) => send(reply, 'vendors.md'))
  // One route for every page (a route per page made each start register some 260 routes).
  app.get('/docs/*', { schema: { hide: true } }, async (request, reply) => {
    const page = (request.params as { '*': string })['*']
    if (!known.has(page)) throw notFound(`The documentation page '${page}'`)
    return send(reply, page)
  })
}
