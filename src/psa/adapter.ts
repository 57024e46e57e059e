// One interface for every PSA. Adapters answer with values, never throw for a PSA's own failures:
// an exception out of an adapter is a defect (DESIGN §3 row 20), a PsaFailure is row 19.

export const psaKinds = ['sandbox', 'connectwise', 'autotask', 'halopsa', 'kaseya-bms', 'syncro'] as const
export type PsaKind = (typeof psaKinds)[number]

export interface PsaConnection {
  partnerId: string
  kind: PsaKind
  settings: Record<string, unknown>
}

export interface NewPsaTicket {
  companyId: string
  board: string | null
  priority: string | null
  type: string | null
  status: string | null
  summary: string
  description: string
}

export type PsaFailureKind = 'timeout' | 'unavailable' | 'rate-limited' | 'rejected' | 'auth' | 'not-found'

export interface PsaFailure {
  kind: PsaFailureKind
  message: string
  /** Worth trying again later (network trouble, 429, 5xx). */
  retryable: boolean
  retryAfterMs?: number
  status?: number
}

export type PsaResult<T> = { ok: true; value: T } | { ok: false; failure: PsaFailure }

export const lookupKinds = ['companies', 'boards', 'priorities', 'statuses'] as const
export type LookupKind = (typeof lookupKinds)[number]

export interface PsaEntity {
  id: string
  name: string
}

export interface PsaAdapter {
  readonly kind: PsaKind
  createTicket(conn: PsaConnection, ticket: NewPsaTicket): Promise<PsaResult<{ ticketId: string }>>
  appendNote(conn: PsaConnection, ticketId: string, note: string): Promise<PsaResult<null>>
  /** alreadyClosed: the PSA had the ticket closed before this call (DESIGN §3 row 17). */
  closeTicket(
    conn: PsaConnection,
    ticketId: string,
    note: string,
  ): Promise<PsaResult<{ alreadyClosed: boolean }>>
  lookup(conn: PsaConnection, what: LookupKind): Promise<PsaResult<PsaEntity[]>>
}

export const ok = <T>(value: T): PsaResult<T> => ({ ok: true, value })
export const fail = <T>(failure: PsaFailure): PsaResult<T> => ({ ok: false, failure })
