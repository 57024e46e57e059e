// The PSA's names for what alertbridge keeps as ids or names (companies, boards, priorities, types,
// statuses), read from the look-up lists PsaConnections keeps a few minutes per connection. A screen's
// page waits a short while at most for a list not read yet (the read goes on and is kept for the next
// page); a PSA that cannot answer leaves the names null for a minute, never the page waiting.
import { LRUCache } from 'lru-cache'
import type { Result } from '../platform/core/result.js'
import type { LookupKind, PsaEntity, StoredPsa } from '../psa/index.js'
import { fingerprint } from '../psa/index.js'

/** The kept look-up lists PsaNames reads: what partner-api's PsaConnections offers. */
export interface PsaLookups {
  lookup(
    partnerId: string,
    stored: StoredPsa,
    what: LookupKind,
    q: { board?: string; limit: number },
  ): Promise<Result<{ data: PsaEntity[] }>>
}

/** The entry a setting names, by its id or else its name (case ignored): settings may hold either. */
export function entryNamed(list: readonly PsaEntity[] | null, value: string | null): PsaEntity | null {
  if (!list || !value) return null
  const lower = value.toLowerCase()
  return list.find((e) => e.id === value) ?? list.find((e) => e.name.toLowerCase() === lower) ?? null
}

/** PSA kinds whose statuses and types belong to a board: asked for them only with one. */
export const boardScopedKinds: readonly string[] = ['connectwise']

export class PsaNames {
  private readonly failed = new LRUCache<string, true>({ max: 2000, ttl: 60_000 })
  private readonly reading = new Map<string, Promise<PsaEntity[] | null>>()

  constructor(
    private readonly connections: PsaLookups,
    private readonly waitMs = 2_000,
  ) {}

  /** Every entry of the list, or null when the PSA cannot answer it (in time). */
  async list(
    partnerId: string,
    stored: StoredPsa,
    what: LookupKind,
    board?: string | null,
  ): Promise<PsaEntity[] | null> {
    if ((what === 'statuses' || what === 'types') && !board && boardScopedKinds.includes(stored.kind))
      return null
    const key = `${fingerprint({ partnerId, kind: stored.kind, settings: stored.settings })}:${what}:${board ?? ''}`
    if (this.failed.has(key)) return null
    let read = this.reading.get(key)
    if (!read) {
      read = this.connections
        .lookup(partnerId, stored, what, { board: board ?? undefined, limit: Number.MAX_SAFE_INTEGER })
        .then(
          (r) => (r.ok ? r.value.data : null),
          () => null,
        )
        .then((list) => {
          if (!list) this.failed.set(key, true)
          this.reading.delete(key)
          return list
        })
      this.reading.set(key, read)
    }
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), this.waitMs)
      timer.unref()
    })
    try {
      return await Promise.race([read, late])
    } finally {
      clearTimeout(timer)
    }
  }
}
