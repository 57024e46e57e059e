// The PSA kinds this build knows, from the list services.ts gives: each kind's settings schema, its
// secret fields and, where this build can talk to it, its adapter. A partner may only be connected
// to a kind that has an adapter; its stored settings are checked against the kind's schema whenever
// a connection is made, so an adapter only ever sees settings of its own shape.
import { LRUCache } from 'lru-cache'
import Type, { type Static, type TObject } from 'typebox'
import type { PsaKind, StoredPsa } from '../domain/partner.js'
import type { PsaAdapter, PsaClient, PsaConnection, PsaFailure } from './adapter.js'
import { checkSettings, knownSettings, maskSettings, type SettingsCheck, TicketDefaults } from './settings.js'

export interface PsaKindDefinition<T extends TObject> {
  kind: PsaKind
  settings: T
  secretFields: readonly string[]
  /** null: the kind's settings are known, but this build cannot talk to it yet. */
  adapter: PsaAdapter<Static<T>> | null
  /** Rules the schema cannot say (one of two fields, say): each problem is a sentence. */
  problems?: (settings: Static<T>) => string[]
  /**
   * The kind answers in this process, never slowly (the built-in sandbox): its partners' queued
   * alerts need no PARTNER_CONCURRENCY cap, which exists so that a slow PSA holds few worker slots.
   */
  inProcess?: boolean
}

/** A kind with its types erased behind closures, so one registry holds every kind. */
export interface PsaKindEntry {
  kind: PsaKind
  secretFields: readonly string[]
  available: boolean
  inProcess: boolean
  check(settings: unknown): SettingsCheck<Record<string, unknown>>
  connect(
    partnerId: string,
    settings: unknown,
  ): { ok: true; client: PsaClient } | { ok: false; failure: PsaFailure }
}

/** What every kind's settings share: the ticket defaults. */
const Common = Type.Object({ defaults: Type.Optional(TicketDefaults) })

export function psaKind<T extends TObject>(d: PsaKindDefinition<T>): PsaKindEntry {
  return {
    kind: d.kind,
    secretFields: d.secretFields,
    available: d.adapter !== null,
    inProcess: d.inProcess ?? false,
    check(settings) {
      const checked = checkSettings(d.settings, settings)
      if (!checked.ok) return checked
      const problems = d.problems?.(checked.settings) ?? []
      return problems.length > 0 ? { ok: false, problems } : checked
    },
    connect(partnerId, settings) {
      const adapter = d.adapter
      if (adapter === null)
        return { ok: false, failure: unavailable(`PSA kind '${d.kind}' is not available`) }
      const checked = checkSettings(d.settings, knownSettings(d.settings, settings))
      const common = checkSettings(Common, settings)
      if (!checked.ok || !common.ok) {
        const problems = checked.ok ? (common.ok ? [] : common.problems) : checked.problems
        return { ok: false, failure: unavailable(`the PSA settings are not valid: ${problems.join('; ')}`) }
      }
      return {
        ok: true,
        client: bind(adapter, { partnerId, kind: d.kind, settings: checked.settings }, common.settings),
      }
    },
  }
}

function bind<S>(adapter: PsaAdapter<S>, conn: PsaConnection<S>, common: Static<typeof Common>): PsaClient {
  return {
    kind: conn.kind,
    defaults: common.defaults ?? {},
    test: (call) => adapter.test(conn, call),
    createTicket: (ticket, call) => adapter.createTicket(conn, ticket, call),
    appendNote: (ticketId, note, call) => adapter.appendNote(conn, ticketId, note, call),
    closeTicket: (ticketId, close, call) => adapter.closeTicket(conn, ticketId, close, call),
    lookup: (what, scope, call) => adapter.lookup(conn, what, scope, call),
    ticketUrl: (ticketId) => adapter.ticketUrl(conn, ticketId),
    billingLines: (companyId, call) => adapter.billingLines(conn, companyId, call),
    setQuantity: (lineId, quantity, call) => adapter.setQuantity(conn, lineId, quantity, call),
  }
}

const unavailable = (message: string): PsaFailure => ({ kind: 'unavailable', retryable: false, message })

type Connected = { ok: true; client: PsaClient } | { ok: false; failure: PsaFailure }

export class PsaRegistry {
  private readonly kinds = new Map<PsaKind, PsaKindEntry>()
  /**
   * Connections by partner and the exact settings they were made from: checking settings against
   * their schema was the worker's largest cost after SQLite (issue 11). A partner whose settings
   * change gets a new key, so nothing stale is ever used.
   */
  private readonly connections = new LRUCache<string, Connected>({ max: 2000 })

  constructor(entries: readonly PsaKindEntry[]) {
    for (const entry of entries) this.kinds.set(entry.kind, entry)
  }

  /** The kinds a partner can be connected to. */
  get available(): PsaKind[] {
    return [...this.kinds.values()].filter((k) => k.available).map((k) => k.kind)
  }

  isAvailable(kind: PsaKind): boolean {
    return this.kinds.get(kind)?.available ?? false
  }

  /** Whether the kind answers in this process (PsaKindDefinition.inProcess). */
  isInProcess(kind: PsaKind): boolean {
    return this.kinds.get(kind)?.inProcess ?? false
  }

  /** Checks settings against their kind's schema. */
  check(kind: PsaKind, settings: unknown): SettingsCheck<Record<string, unknown>> {
    const entry = this.kinds.get(kind)
    return entry ? entry.check(settings) : { ok: false, problems: [`PSA kind '${kind}' is unknown`] }
  }

  /** A partner's stored connection, bound to its kind's adapter. */
  connect(partnerId: string, stored: StoredPsa): Connected {
    const entry = this.kinds.get(stored.kind)
    if (!entry) return { ok: false, failure: unavailable(`PSA kind '${stored.kind}' is not available`) }
    const key = `${partnerId}\u0000${stored.kind}\u0000${JSON.stringify(stored.settings)}`
    let connected = this.connections.get(key)
    if (!connected) {
      connected = entry.connect(partnerId, stored.settings)
      this.connections.set(key, connected)
    }
    return connected
  }

  /** The connection as shown back: its kind and settings, secrets masked. */
  view(stored: StoredPsa): { kind: PsaKind } & Record<string, unknown> {
    // Every kind's secret field names, whatever the kind: a secret given under another kind's name
    // (settings may carry fields their kind does not use) is never shown either.
    const secrets = [...this.kinds.values()].flatMap((k) => k.secretFields)
    return { kind: stored.kind, ...maskSettings(stored.settings, secrets) }
  }
}
