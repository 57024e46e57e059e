// A vendor's GET /product-groups on loopback: records each request's headers and answers as the test
// says (body, status, delay).
import { once } from 'node:events'
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export interface ProductGroupAnswer {
  status?: number
  body?: unknown
  delayMs?: number
}

export interface VendorProductGroupServer {
  url: string
  requests: http.IncomingHttpHeaders[]
  /** Requests not answered yet (a delayed answer still to come). */
  unanswered(): number
  answer(a: ProductGroupAnswer): void
  close(): Promise<void>
}

export async function startVendorProductGroups(
  initial: ProductGroupAnswer = {},
): Promise<VendorProductGroupServer> {
  let current = initial
  const requests: http.IncomingHttpHeaders[] = []
  let unanswered = 0
  const server = http.createServer((req, res) => {
    requests.push(req.headers)
    unanswered++
    const { status = 200, body = { productGroups: [] }, delayMs = 0 } = current
    setTimeout(() => {
      unanswered--
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
    }, delayMs)
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/product-groups`,
    requests,
    unanswered: () => unanswered,
    answer: (a) => {
      current = a
    },
    async close() {
      server.closeAllConnections()
      await new Promise((r) => server.close(r))
    },
  }
}
