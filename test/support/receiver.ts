// A vendor's webhook endpoint on loopback: verifies every request with the `standardwebhooks`
// verifier and the vendor's secret, records what arrived, and answers as the test tells it to.
import { once } from 'node:events'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'
import { waitFor } from './wait.js'

export interface Received {
  id: string
  timestamp: string
  headers: http.IncomingHttpHeaders
  body: any
  /** The body exactly as it arrived (what the signatures cover). */
  raw: string
  /** The status this request was answered with. */
  answered: number
  /** When it arrived (epoch ms). */
  at: number
}

export interface Answer {
  status: number
  headers?: Record<string, string>
  /** Hold the answer back this long (a slow endpoint). */
  delayMs?: number
}

export interface Receiver {
  url: string
  /** Every request, in arrival order, including the ones answered with an error. */
  requests: Received[]
  /** Requests whose signature did not verify (must stay empty). */
  unverified: string[]
  /** Sets the secret to verify with (the vendor's webhookSecret). */
  setSecret(secret: string): void
  /** Decides the answer to each request (default 204). */
  respond(fn: (r: Received, n: number) => number | Answer): void
  /** The most requests that were open at once. */
  maxConcurrent(): number
  /** The accepted (2xx) requests of an event type. */
  accepted(eventType?: string): Received[]
  waitFor(predicate: () => boolean, what: string, timeoutMs?: number): Promise<void>
  close(): Promise<void>
}

export async function startReceiver(): Promise<Receiver> {
  let secret: string | null = null
  let decide: Parameters<Receiver['respond']>[0] = () => 204
  const requests: Received[] = []
  const unverified: string[] = []
  let open = 0
  let maxOpen = 0
  const server = http.createServer((req, res) => {
    open++
    maxOpen = Math.max(maxOpen, open)
    res.on('close', () => {
      open--
    })
    const chunks: Buffer[] = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8')
      let body: unknown = raw
      try {
        if (!secret) throw new Error('no secret set')
        body = new Webhook(secret).verify(raw, req.headers as Record<string, string>)
      } catch (err) {
        unverified.push(`${req.headers['webhook-id']}: ${(err as Error).message}`)
      }
      const r: Received = {
        id: String(req.headers['webhook-id']),
        timestamp: String(req.headers['webhook-timestamp']),
        headers: req.headers,
        body,
        raw,
        answered: 0,
        at: Date.now(),
      }
      const answer = decide(r, requests.length)
      const { status, headers, delayMs } = typeof answer === 'number' ? { status: answer } : answer
      r.answered = status
      const send = () => {
        requests.push(r)
        res.writeHead(status, headers).end(status === 204 ? undefined : `answer ${status}`)
      }
      if (delayMs) setTimeout(send, delayMs)
      else send()
    })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hooks/alertbridge`,
    requests,
    unverified,
    setSecret: (s) => {
      secret = s
    },
    respond: (fn) => {
      decide = fn
    },
    maxConcurrent: () => maxOpen,
    accepted: (eventType) =>
      requests.filter((r) => r.answered < 300 && (!eventType || r.body?.eventType === eventType)),
    async waitFor(predicate, what, timeoutMs = 15_000) {
      await waitFor(predicate, { what, timeoutMs })
    },
    async close() {
      server.closeAllConnections()
      await new Promise((r) => server.close(r))
    },
  }
}
