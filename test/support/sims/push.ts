// How a simulator pushes ticket changes to a URL registered through its API, the way its PSA does:
// signed (each simulator says how), retried on a failed delivery on the PSA's schedule, and — where the
// PSA does — deactivated after a run of consecutive failures, calling the subscription's deactivation
// URL. A test drops pushes (`drop`) so that only the reconciliation poll can hear a change, and waits
// for every push in flight (`settled`).
import type { FastifyInstance } from 'fastify'
import { hold } from '../wait.js'

export interface PushSubscription {
  id: string
  url: string
  /** The secret the PSA signs with or authenticates by (Basic auth, a shared key). */
  secret: string | null
  deactivationUrl: string | null
  active: boolean
  /** Consecutive failed deliveries (a success resets it). */
  failures: number
}

export interface PushDelivery {
  subscriptionId: string
  url: string
  body: string
  /** The headers it was sent with (its signature): a test replays the delivery as it was. */
  headers: Record<string, string>
  attempt: number
  /** The HTTP status the receiver answered, or null when it could not be reached. */
  status: number | null
  at: number
}

export interface PushPolicy {
  /** The waits before each retry of a failed delivery (Autotask: 5 tries within about 2 minutes). */
  retryDelaysMs: number[]
  /** Deactivate a subscription after this many consecutive failed deliveries (null: never). */
  deactivateAfter: number | null
  /** The headers a delivery carries (its signature, its content type). */
  headers(body: string, sub: PushSubscription): Record<string, string>
}

export class PushSender {
  readonly deliveries: PushDelivery[] = []
  private dropping: number | null = 0
  private readonly inFlight = new Set<Promise<void>>()

  constructor(private readonly policy: PushPolicy) {}

  /** Drop the next `count` pushes (every one while null; 0 stops dropping): the PSA loses them. */
  drop(count: number | null): void {
    this.dropping = count
  }

  /** Sends `body` to every active subscription, in the background. */
  push(subs: readonly PushSubscription[], body: unknown): void {
    const text = JSON.stringify(body)
    for (const sub of subs) {
      if (!sub.active) continue
      if (this.dropping === null || this.dropping > 0) {
        if (this.dropping !== null) this.dropping--
        continue
      }
      const sending = this.deliver(sub, text).finally(() => this.inFlight.delete(sending))
      this.inFlight.add(sending)
    }
  }

  /** Every push in flight has been answered or given up. */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight])
  }

  private async deliver(sub: PushSubscription, body: string): Promise<void> {
    const tries = [0, ...this.policy.retryDelaysMs]
    for (const [i, delay] of tries.entries()) {
      if (delay > 0) await hold(delay, 'the PSA’s pause before it pushes again')
      if (!sub.active) return
      const headers = this.policy.headers(body, sub)
      const status = await send(sub.url, body, headers)
      this.deliveries.push({
        subscriptionId: sub.id,
        url: sub.url,
        body,
        headers,
        attempt: i + 1,
        status,
        at: Date.now(),
      })
      if (status !== null && status >= 200 && status < 300) {
        sub.failures = 0
        return
      }
      sub.failures++
      if (this.policy.deactivateAfter !== null && sub.failures >= this.policy.deactivateAfter) {
        sub.active = false
        if (sub.deactivationUrl) await send(sub.deactivationUrl, JSON.stringify({ id: sub.id }), {})
        return
      }
    }
  }
}

async function send(url: string, body: string, headers: Record<string, string>): Promise<number | null> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
      signal: AbortSignal.timeout(10_000),
    })
    await res.arrayBuffer()
    return res.status
  } catch {
    return null
  }
}

/**
 * A technician working tickets in the simulated PSA (not through its API user), with `id` the ticket id
 * as the PSA's API gives it. Each simulator's handle has one (`sim.technician`) and serves it over HTTP
 * too: `POST /__sim/technician/{close|reopen|merge|delete|note|time}` with `{ "id": "…", "into": "…" }`.
 * A change a technician makes is pushed to the registered subscriptions (where the PSA pushes).
 */
export interface Technician {
  close(id: string): Promise<void>
  reopen(id: string): Promise<void>
  merge(id: string, into: string): Promise<void>
  delete(id: string): Promise<void>
  note(id: string, text: string): Promise<void>
  time(id: string): Promise<void>
}

/** The ticket a technician action names is not the PSA's (the route answers 404). */
export class UnknownTicket extends Error {}

const technicianActions = ['close', 'reopen', 'merge', 'delete', 'note', 'time'] as const
type TechnicianAction = (typeof technicianActions)[number]

/**
 * `POST /__sim/technician/{action}` `{id, into, text}` (204; 404 for an unknown action or an
 * `UnknownTicket`) and `PUT /__sim/pushes` `{drop}`, for a simulator whose technician is a `Technician`.
 */
export function technicianRoutes(app: FastifyInstance, technician: Technician, pushes: PushSender): void {
  app.post<{ Params: { action: string } }>('/__sim/technician/:action', async (request, reply) => {
    const action = request.params.action as TechnicianAction
    if (!technicianActions.includes(action))
      return reply.code(404).send({ error: `No technician action ${action}` })
    const b = (request.body ?? {}) as { id?: unknown; into?: unknown; text?: unknown }
    const id = String(b.id ?? '')
    try {
      if (action === 'merge') await technician.merge(id, String(b.into ?? ''))
      else if (action === 'note') await technician.note(id, String(b.text ?? 'Worked on it'))
      else await technician[action](id)
    } catch (e) {
      if (e instanceof UnknownTicket) return reply.code(404).send({ error: e.message })
      throw e
    }
    return reply.code(204).send()
  })
  app.put('/__sim/pushes', async (request, reply) => {
    const drop = (request.body as { drop?: unknown } | null)?.drop
    pushes.drop(typeof drop === 'number' ? drop : null)
    return reply.code(204).send()
  })
}
