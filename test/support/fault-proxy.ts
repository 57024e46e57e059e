// An HTTP proxy on loopback in front of the service, for the SDK's retry tests: it records every
// request (method, path, headers) and, when a rule matches, answers in the service's place (a 429
// with Retry-After, a 503) or passes the request on and then loses the service's answer (a 502: the
// call had its effect, the client never heard).
import { once } from 'node:events'
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Seen {
  method: string
  path: string
  headers: http.IncomingHttpHeaders
  at: number
  /** What the client was answered. */
  status: number
  /** The service's own answer, when the request was passed on. */
  upstreamStatus?: number
  upstreamHeaders?: Headers
}

export type Fault =
  | { kind: 'answer'; status: number; headers?: Record<string, string>; body?: unknown }
  | { kind: 'lose-answer'; status: number }

export interface Rule {
  method: string
  /** The path, without the query. */
  path: string | RegExp
  /** How many matching requests to fault (then it passes them on). */
  times: number
  fault: Fault
}

export interface FaultProxy {
  url: string
  seen: Seen[]
  add(rule: Rule): void
  close(): Promise<void>
}

export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const rules: Rule[] = []
  const seen: Seen[] = []
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const c of req) chunks.push(c as Buffer)
    const body = Buffer.concat(chunks)
    const path = (req.url ?? '/').split('?')[0]!
    const entry: Seen = { method: req.method!, path, headers: req.headers, at: Date.now(), status: 0 }
    seen.push(entry)
    const rule = rules.find(
      (r) =>
        r.times > 0 &&
        r.method === req.method &&
        (typeof r.path === 'string' ? r.path === path : r.path.test(path)),
    )
    if (rule) rule.times--
    if (rule?.fault.kind === 'answer') {
      entry.status = rule.fault.status
      res.writeHead(rule.fault.status, { 'content-type': 'application/json', ...rule.fault.headers })
      res.end(JSON.stringify(rule.fault.body ?? { message: 'failed', error: 'INJECTED' }))
      return
    }
    const headers = new Headers()
    for (const [k, v] of Object.entries(req.headers)) {
      if (v === undefined || k === 'host' || k === 'connection' || k === 'content-length') continue
      headers.set(k, Array.isArray(v) ? v.join(', ') : v)
    }
    try {
      const upstream = await fetch(`${target}${req.url}`, {
        method: req.method,
        headers,
        body: body.length > 0 ? body : undefined,
      })
      const text = await upstream.text()
      entry.upstreamStatus = upstream.status
      entry.upstreamHeaders = upstream.headers
      if (rule?.fault.kind === 'lose-answer') {
        entry.status = rule.fault.status
        res.writeHead(rule.fault.status, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ message: 'failed', error: 'BAD_GATEWAY', detail: 'injected: answer lost' }))
        return
      }
      entry.status = upstream.status
      const out: Record<string, string> = {}
      upstream.headers.forEach((v, k) => {
        if (
          k !== 'content-length' &&
          k !== 'transfer-encoding' &&
          k !== 'connection' &&
          k !== 'content-encoding'
        )
          out[k] = v
      })
      res.writeHead(upstream.status, out)
      res.end(text)
    } catch (err) {
      entry.status = 599
      res.writeHead(502).end(String(err))
    }
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    add: (rule) => rules.push(rule),
    async close() {
      server.closeAllConnections()
      await new Promise((r) => server.close(r))
    },
  }
}
