// What every PSA simulator shares: a Fastify server on loopback, a log of the calls it received (with
// their headers, for the tests that look for credentials on the wire), and faults that a test (or a
// person trying the service out) switches on: answer with an error status for the next N calls, answer
// slowly, refuse with 429 beyond a rate, or lose the answer of the next N matching calls after their
// effect (the call is carried out, then the connection drops before the answer: a create's ticket is
// stored, the caller never hears of it). Faults are set in process (`sim.faults.set(...)`) or over
// HTTP on the simulator itself: `PUT /__sim/faults`, `DELETE /__sim/faults`, `GET /__sim/calls`,
// `GET /__sim/state`, `POST /__sim/reset`. The PSA's own routes are added by each simulator.
import type { AddressInfo } from 'node:net'
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify'
import { hold } from '../wait.js'

export interface SimCall {
  method: string
  /** The path and query as received. */
  url: string
  headers: Record<string, string | string[] | undefined>
  body: unknown
  at: number
}

export interface SimFaults {
  /**
   * Answer the next `count` matching calls (every one while `count` is null) with this status. A
   * fault names its call by path (`match`, a pattern of the path and query) and, to leave alone
   * what runs beside it (a poll, a look-up), by `method`: a test's fault hits the call it means.
   */
  fail?: {
    status: number
    count: number | null
    match?: string
    method?: string
    retryAfterSeconds?: number
    message?: string
  }
  /** Wait this long before answering each matching call. */
  latencyMs?: number
  latencyMatch?: string
  /** Carry out the next `count` matching calls, then drop the connection instead of answering. */
  loseAnswer?: { count: number; match?: string; method?: string }
  /** Refuse with 429 beyond this many calls per second (Cloudflare-style throttling). */
  ratePerSecond?: number
  retryAfterSeconds?: number
}

export interface SimOptions {
  /** The PSA's error body for a status and a sentence (each PSA has its own shape). */
  errorBody(status: number, message: string): unknown
  /** Extra headers on a 429 the harness makes. */
  logger?: boolean
  /**
   * What a fault's `match` is tried on (default: the path and query). A PSA whose every call goes to
   * one URL (a GraphQL endpoint) names the operation here, so that a fault hits the call it means.
   */
  faultTarget?(request: FastifyRequest): string
}

export interface Sim<S> {
  app: FastifyInstance
  url: string
  port: number
  state: S
  calls: SimCall[]
  faults: { set(f: SimFaults): void; clear(): void; current(): SimFaults }
  /** Calls whose path (without the query) matches. */
  callsTo(pattern: RegExp, method?: string): SimCall[]
  close(): Promise<void>
}

/** Builds the Fastify app with the harness installed; the simulator adds its routes, then `listen`s. */
export function simApp(o: SimOptions): {
  app: FastifyInstance
  calls: SimCall[]
  faults: Sim<unknown>['faults']
} {
  const app = Fastify({ logger: o.logger ?? false, bodyLimit: 10 * 1024 * 1024 })
  const calls: SimCall[] = []
  let faults: SimFaults = {}
  let window = { second: 0, count: 0 }
  const matches = (pattern: string | undefined, url: string) => !pattern || new RegExp(pattern).test(url)
  const target = (request: FastifyRequest) => o.faultTarget?.(request) ?? request.url

  app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.url.startsWith('/__sim/')) return
    calls.push({
      method: request.method,
      url: request.url,
      headers: { ...request.headers },
      body: request.body,
      at: Date.now(),
    })
    if (faults.latencyMs && matches(faults.latencyMatch, target(request))) {
      await hold(faults.latencyMs, 'the fault asked for: a PSA slow to answer')
    }
    if (faults.ratePerSecond !== undefined) {
      const second = Math.floor(Date.now() / 1000)
      if (window.second !== second) window = { second, count: 0 }
      window.count++
      if (window.count > faults.ratePerSecond) {
        return reply
          .code(429)
          .header('retry-after', String(faults.retryAfterSeconds ?? 1))
          .send(o.errorBody(429, 'Rate limit exceeded; retry later.'))
      }
    }
    const fail = faults.fail
    if (
      fail &&
      (fail.count === null || fail.count > 0) &&
      matches(fail.match, target(request)) &&
      (!fail.method || fail.method === request.method)
    ) {
      if (fail.count !== null) fail.count--
      if (fail.retryAfterSeconds !== undefined) reply.header('retry-after', String(fail.retryAfterSeconds))
      return reply
        .code(fail.status)
        .send(o.errorBody(fail.status, fail.message ?? `Simulated failure (HTTP ${fail.status}).`))
    }
  })

  // After the PSA's own handler: its effect is stored; the answer is lost with the connection.
  app.addHook('onSend', async (request, reply, payload) => {
    const lose = faults.loseAnswer
    if (
      lose &&
      lose.count > 0 &&
      reply.statusCode < 400 &&
      !request.url.startsWith('/__sim/') &&
      matches(lose.match, target(request)) &&
      (!lose.method || lose.method === request.method)
    ) {
      lose.count--
      request.raw.socket.destroy()
    }
    return payload
  })

  const control = {
    set(f: SimFaults) {
      faults = {
        ...f,
        ...(f.fail ? { fail: { ...f.fail } } : {}),
        ...(f.loseAnswer ? { loseAnswer: { ...f.loseAnswer } } : {}),
      }
      window = { second: 0, count: 0 }
    },
    clear() {
      faults = {}
    },
    current: () => faults,
  }
  app.put('/__sim/faults', async (request) => {
    control.set(request.body as SimFaults)
    return control.current()
  })
  app.delete('/__sim/faults', async (_request, reply) => {
    control.clear()
    return reply.code(204).send()
  })
  app.get('/__sim/calls', async () => calls.map(({ headers: _h, ...c }) => c))
  return { app, calls, faults: control }
}

/** Listens on loopback and returns the simulator's handle. */
export async function listen<S>(
  built: ReturnType<typeof simApp>,
  state: S,
  reset: () => void,
  port = 0,
): Promise<Sim<S>> {
  const { app, calls, faults } = built
  app.get('/__sim/state', async () => state)
  app.post('/__sim/reset', async (_request, reply) => {
    reset()
    calls.length = 0
    faults.clear()
    return reply.code(204).send()
  })
  await app.listen({ port, host: '127.0.0.1' })
  const address = app.server.address() as AddressInfo
  return {
    app,
    url: `http://127.0.0.1:${address.port}`,
    port: address.port,
    state,
    calls,
    faults,
    callsTo: (pattern, method) =>
      calls.filter((c) => pattern.test(c.url.split('?')[0] ?? '') && (!method || c.method === method)),
    close: () => app.close(),
  }
}

/** Pages of a list: `page` is 1-based. */
export function pageOf<T>(items: readonly T[], page: number, size: number): T[] {
  return items.slice((page - 1) * size, page * size)
}

/** A started simulator, as `npm run sim` prints it: `describe` says which credentials it accepts. */
export type StartedSim<S> = Sim<S> & { describe(): string }

/**
 * The calls whose answer a test loses, per ticket operation: the create, a note, the resolution note a
 * close writes, and the call that changes the status to closed (one call on PSAs that close with a
 * note). Each simulator exports its own, for the contract suite and the service tests alike.
 */
export type LosableOp = 'create' | 'note' | 'close-note' | 'close'
export type OpCalls = Record<LosableOp, { method: string; match: string }>

/** The next call of `op` is carried out and its answer lost. */
export function loseNextAnswer(sim: Pick<Sim<unknown>, 'faults'>, calls: OpCalls, op: LosableOp): void {
  sim.faults.set({ loseAnswer: { count: 1, ...calls[op] } })
}
