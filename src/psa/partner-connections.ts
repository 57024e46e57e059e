// A partner's PSA connection as the partner works with it: testing it (one sentence saying what is
// wrong) and the look-ups of the mapping screens, read from the PSA through every page and kept a few
// minutes per connection (fingerprinted by its settings, so changed settings start afresh), then
// searched and paged here with a cursor of ours.
import { LRUCache } from 'lru-cache'
import { ok, type Result, refuse } from '../platform/core/result.js'
import { asSentence } from '../platform/core/text.js'
import type { BillingLine, LookupKind, PsaEntity, PsaOperations } from './adapter.js'
import { fingerprint } from './core/connections.js'
import type { PsaRegistry } from './registry.js'
import type { StoredPsa } from './stored.js'

export interface ConnectionTest {
  ok: boolean
  detail: string
}

export interface LookupQuery {
  board?: string
  search?: string
  cursor?: string
  limit: number
  /** Read the PSA again instead of the kept list. */
  refresh?: boolean
}

/** How long a look-up list is kept per connection. */
const keepMs = 5 * 60 * 1000

export class PsaConnections {
  private readonly lists = new LRUCache<string, PsaEntity[]>({ max: 2000, ttl: keepMs })
  /** Billing lines per company: a mapping screen reads them for every line it shows. */
  private readonly lines = new LRUCache<string, BillingLine[]>({ max: 2000, ttl: 60 * 1000 })

  constructor(private readonly deps: { psa: PsaRegistry; timeoutMs: number }) {}

  async test(partnerId: string, stored: StoredPsa): Promise<ConnectionTest> {
    const connected = this.deps.psa.connect(partnerId, stored)
    if (!connected.ok) return { ok: false, detail: asSentence(connected.failure.message) }
    // A test makes several requests (discovery, the areas it reads), each with its own budget.
    const result = await connected.client.test({ signal: AbortSignal.timeout(this.deps.timeoutMs * 6) })
    return result.ok
      ? { ok: true, detail: result.value.detail }
      : { ok: false, detail: asSentence(result.failure.message) }
  }

  async lookup(
    partnerId: string,
    stored: StoredPsa,
    what: LookupKind,
    q: LookupQuery,
  ): Promise<Result<{ data: PsaEntity[]; nextCursor: string | null }>> {
    const key = `${fingerprint({ partnerId, kind: stored.kind, settings: stored.settings })}:${what}:${q.board ?? ''}`
    let list = q.refresh ? undefined : this.lists.get(key)
    if (!list) {
      const client = this.client(partnerId, stored)
      if (!client.ok) return client
      // Every page of a large list may take several calls: a longer budget than one alert's call.
      const signal = AbortSignal.timeout(this.deps.timeoutMs * 6)
      const result = await client.value.lookup(what, { board: q.board }, { signal })
      if (!result.ok) {
        if (result.failure.kind === 'needs-input')
          return refuse('VALIDATION_FAILED', `${result.failure.message}.`)
        return refuse('PSA_ERROR', `The PSA failed to answer: ${result.failure.message}.`)
      }
      list = result.value
      this.lists.set(key, list)
    }
    const needle = q.search?.trim().toLowerCase()
    const found = needle
      ? list.filter((e) => e.name.toLowerCase().includes(needle) || e.id.toLowerCase() === needle)
      : list
    const offset = offsetOf(q.cursor)
    if (offset === null)
      return refuse('VALIDATION_FAILED', 'cursor is not a cursor this API returned; start again without it.')
    const data = found.slice(offset, offset + q.limit)
    const more = offset + q.limit < found.length
    return ok({
      data,
      nextCursor: more ? Buffer.from(JSON.stringify({ o: offset + q.limit })).toString('base64url') : null,
    })
  }

  /** The billing lines of a PSA company's agreements (the usage mapping screen), kept a minute. */
  async billingLines(
    partnerId: string,
    stored: StoredPsa,
    q: BillingLinesQuery,
  ): Promise<Result<BillingLine[]>> {
    const key = `${fingerprint({ partnerId, kind: stored.kind, settings: stored.settings })}:${q.companyId}`
    const kept = q.refresh ? undefined : this.lines.get(key)
    if (kept) return ok(kept)
    const client = this.client(partnerId, stored)
    if (!client.ok) return client
    const result = await client.value.billingLines(q.companyId, {
      signal: AbortSignal.timeout(this.deps.timeoutMs * 6),
    })
    if (!result.ok) {
      if (result.failure.kind === 'not-found')
        return refuse('NOT_FOUND', `The PSA has no company '${q.companyId}': ${result.failure.message}.`)
      return refuse('PSA_ERROR', `The PSA failed to answer: ${asSentence(result.failure.message)}`)
    }
    this.lines.set(key, result.value)
    return ok(result.value)
  }

  /** The partner's connection, or the refusal that says why it cannot be used. */
  private client(partnerId: string, stored: StoredPsa): Result<PsaOperations> {
    const connected = this.deps.psa.connect(partnerId, stored)
    if (!connected.ok)
      return refuse('PSA_ERROR', `Your PSA connection cannot be used: ${connected.failure.message}.`)
    return ok(connected.client)
  }
}

export interface BillingLinesQuery {
  companyId: string
  refresh?: boolean
}

/** The offset a look-up cursor of ours names; null for a cursor this API did not hand out. */
function offsetOf(cursor: string | undefined): number | null {
  if (!cursor) return 0
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { o?: unknown }
    if (typeof parsed.o === 'number' && Number.isInteger(parsed.o) && parsed.o >= 0) return parsed.o
  } catch {
    // fall through
  }
  return null
}
