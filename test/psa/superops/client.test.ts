// The SuperOps wire (src/psa/superops/client.ts), against the simulator and a stub endpoint: the token
// and the subdomain in headers only, throttling inside an HTTP 200 body waited like a 429 with
// Retry-After (the connection pauses, no call reaches SuperOps meanwhile), a real 429 with Retry-After
// too, errors with data taken as written, and lists paged by hasMore or, where it is null, totalCount.
import assert from 'node:assert/strict'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, test } from 'node:test'
import { call, superOpsClient, ticketCall } from '../../support/psa/superops.js'
import {
  API_TOKEN,
  SUBDOMAIN,
  type SuperOpsSimOptions,
  startSuperOpsSim,
} from '../../support/sims/superops/server.js'

const ticket = {
  companyId: '1001',
  board: null,
  priority: null,
  type: null,
  status: null,
  summary: 'Disk full',
  description: 'x',
}

const connect = (endpoint: string) => superOpsClient(endpoint)

async function withSim(
  o: SuperOpsSimOptions,
  run: (sim: Awaited<ReturnType<typeof startSuperOpsSim>>) => Promise<void>,
) {
  const sim = await startSuperOpsSim(o)
  try {
    await run(sim)
  } finally {
    await sim.close()
  }
}

/** A GraphQL endpoint answering `body` to every call. */
async function stub(body: (query: string) => unknown): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const { query } = JSON.parse(Buffer.concat(chunks).toString()) as { query: string }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body(query)))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}/msp`, close: () => new Promise((r) => server.close(() => r())) }
}

describe('SuperOps client', () => {
  test('the token and the subdomain travel in headers, never in the URL', async () => {
    await withSim({}, async (sim) => {
      const made = await connect(sim.endpoint).createTicket(ticket, ticketCall())
      assert.ok(made.ok)
      for (const c of sim.calls) {
        assert.ok(!c.url.includes(API_TOKEN))
        assert.equal(c.headers.authorization, `Bearer ${API_TOKEN}`)
        assert.equal(c.headers.customersubdomain, SUBDOMAIN)
      }
    })
  })

  test('rate_limit_exceeded in an HTTP 200 body is a wait: throttled, its Retry-After, the connection paused', async () => {
    await withSim({ perMinute: 3, retryAfterSeconds: 2 }, async (sim) => {
      const client = connect(sim.endpoint)
      let r = await client.createTicket(ticket, ticketCall())
      for (let i = 0; i < 4 && r.ok; i++) r = await client.createTicket(ticket, ticketCall())
      assert.equal(r.ok, false)
      const f = r.ok ? null : r.failure
      assert.deepEqual(
        [f?.kind, f?.throttled, f?.retryable, f?.retryAfterMs],
        ['rate-limited', true, true, 2000],
      )
      const calls = sim.calls.length
      const held = await client.createTicket(ticket, ticketCall())
      assert.equal(held.ok ? null : held.failure.throttled, true)
      assert.equal(sim.calls.length, calls, 'no call reached SuperOps while it asked to wait')
    })
  })

  test('without a Retry-After, a throttled token waits the minute out', async () => {
    await withSim({ perMinute: 1 }, async (sim) => {
      const client = connect(sim.endpoint)
      await client.lookup('priorities', {}, call())
      const r = await client.lookup('statuses', {}, call())
      assert.equal(r.ok ? null : r.failure.retryAfterMs, 60_000)
    })
  })

  test('a real 429 with Retry-After is a wait too', async () => {
    await withSim({ perMinute: 1, rateStyle: 'http', retryAfterSeconds: 3 }, async (sim) => {
      const client = connect(sim.endpoint)
      await client.lookup('priorities', {}, call())
      const r = await client.lookup('priorities', {}, call())
      const f = r.ok ? null : r.failure
      assert.deepEqual([f?.kind, f?.throttled, f?.retryAfterMs, f?.status], ['rate-limited', true, 3000, 429])
    })
  })

  test('errors with data: SuperOps wrote it, the create answers its ticket', async () => {
    const s = await stub(() => ({
      data: { createTicket: { ticketId: '777' } },
      errors: [{ message: 'notification failed', extensions: { clientError: [{ code: 'x', param: {} }] } }],
    }))
    try {
      const r = await connect(s.url).createTicket(ticket, ticketCall())
      assert.deepEqual(r, { ok: true, value: { ticketId: '777', adopted: false } })
    } finally {
      await s.close()
    }
  })

  test('a list whose hasMore is null is paged by totalCount, and stops when it is reached', async () => {
    const seen: number[] = []
    const s = await stub((query) => {
      const page = seen.length + 1
      seen.push(page)
      const clients = Array.from({ length: page < 3 ? 100 : 20 }, (_, i) => ({
        accountId: `${page}-${i}`,
        name: `C${page}-${i}`,
      }))
      return {
        data: { getClientList: { clients, listInfo: { page, totalCount: 220, hasMore: null } } },
        query,
      }
    })
    try {
      const r = await connect(s.url).lookup('companies', {}, call())
      assert.equal(r.ok ? r.value.length : r.failure.message, 220)
      assert.deepEqual(seen, [1, 2, 3])
    } finally {
      await s.close()
    }
  })
})
