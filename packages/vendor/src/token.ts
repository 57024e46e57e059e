// The bearer token of the vendor calls: requested with the client credentials (POST /api/oauth/token,
// docs/contract.md#authentication), kept, and requested again shortly before it expires, so that no
// call is sent with a token about to run out. Concurrent calls share one request.

/** The token endpoint's answer (RFC 6749 spellings). */
export interface TokenAnswer {
  access_token: string
  expires_in: number
  token_type?: string
  scope?: string
  integration_id?: string | null
}

export interface TokenSourceOptions {
  /** Ask for a new token this many seconds before the current one expires (default 60; at most half its life). */
  refreshBeforeSeconds?: number
  /** The clock, in epoch ms (tests replace it). */
  now?: () => number
}

interface Held {
  token: string
  /** When to ask for the next one (epoch ms). */
  refreshAt: number
}

export class TokenSource {
  #held: Held | undefined
  #pending: Promise<Held> | undefined
  readonly #request: () => Promise<TokenAnswer>
  readonly #refreshBefore: number
  readonly #now: () => number

  constructor(request: () => Promise<TokenAnswer>, o: TokenSourceOptions = {}) {
    this.#request = request
    this.#refreshBefore = (o.refreshBeforeSeconds ?? 60) * 1000
    this.#now = o.now ?? Date.now
  }

  /** A token valid for a while yet: the one held, or a new one. */
  async get(): Promise<string> {
    const held = this.#held
    if (held && this.#now() < held.refreshAt) return held.token
    this.#pending ??= this.#fetch().finally(() => {
      this.#pending = undefined
    })
    return (await this.#pending).token
  }

  /** Forgets `token` (the service refused it: revoked, or its secret rotated out); the next get() asks anew. */
  invalidate(token: string): void {
    if (this.#held?.token === token) this.#held = undefined
  }

  async #fetch(): Promise<Held> {
    // Measured from before the request: the token's life started no earlier than this.
    const asked = this.#now()
    const answer = await this.#request()
    const lifeMs = Math.max(0, answer.expires_in) * 1000
    const held = {
      token: answer.access_token,
      refreshAt: asked + lifeMs - Math.min(this.#refreshBefore, lifeMs / 2),
    }
    this.#held = held
    return held
  }
}
