// The PSA kinds this build knows, from the list services.ts gives: each kind's settings schema, its
// secret fields and its adapter. A partner may only be connected to a kind of the list; its stored
// settings are checked against the kind's schema whenever a connection is made, so an adapter only
// ever sees settings of its own shape.
import { LRUCache } from 'lru-cache'
import Type, { type Static, type TObject } from 'typebox'
import type { PsaAdapter, PsaFailure, PsaOperations } from './adapter.js'
import {
  checkSettings,
  knownSettings,
  maskSettings,
  type SettingsCheck,
  TicketDefaults,
  type TicketDefaultsValue,
} from './settings.js'
import type { PsaKind, StoredPsa } from './stored.js'

export interface PsaKindDefinition<T extends TObject> {
  kind: PsaKind
  settings: T
  secretFields: readonly string[]
  adapter: PsaAdapter<Static<T>>
  /** Rules the schema cannot say (one of two fields, say): each problem is a sentence. */
  problems?: (settings: Static<T>) => string[]
  /**
   * The kind answers in this process, never slowly (the built-in sandbox): its partners' queued
   * alerts need no PARTNER_CONCURRENCY cap, which exists so that a slow PSA holds few worker slots.
   */
  inProcess?: boolean
}

/**
 * A partner's connection, ready or not: its operations and the ticket defaults its settings give (used
 * where a rule leaves a ticket setting empty), or why it cannot be used.
 */
export type Connected =
  | { ok: true; client: PsaOperations; defaults: TicketDefaultsValue }
  | { ok: false; failure: PsaFailure }

/** A kind with its types erased behind closures, so one registry holds every kind. */
export interface PsaKindEntry {
  kind: PsaKind
  secretFields: readonly string[]
  inProcess: boolean
  check(settings: unknown): SettingsCheck<Record<string, unknown>>
  connect(partnerId: string, settings: unknown): Connected
}

/** What every kind's settings share: the ticket defaults. */
const Common = Type.Object({ defaults: Type.Optional(TicketDefaults) })

export function psaKind<T extends TObject>(d: PsaKindDefinition<T>): PsaKindEntry {
  return {
    kind: d.kind,
    secretFields: d.secretFields,
    inProcess: d.inProcess ?? false,
    check(settings) {
      const checked = checkSettings(d.settings, settings)
      if (!checked.ok) return checked
      const problems = d.problems?.(checked.settings) ?? []
      return problems.length > 0 ? { ok: false, problems } : checked
    },
    connect(partnerId, settings) {
      const checked = checkSettings(d.settings, knownSettings(d.settings, settings))
      const common = checkSettings(Common, settings)
      if (!checked.ok || !common.ok) {
        const problems = checked.ok ? (common.ok ? [] : common.problems) : checked.problems
        return { ok: false, failure: unavailable(`the PSA settings are not valid: ${problems.join('; ')}`) }
      }
      const conn = { partnerId, kind: d.kind, settings: checked.settings }
      return { ok: true, client: d.adapter(conn), defaults: common.settings.defaults ?? {} }
    },
  }
}

const unavailable = (message: string): PsaFailure => ({ kind: 'unavailable', retryable: false, message })

export class PsaRegistry {
  private readonly entries = new Map<PsaKind, PsaKindEntry>()
  /**
   * Connections by partner and the exact settings they were made from: checking settings against
   * their schema was the worker's largest cost after SQLite (docs/psa/README.md, "One connection, made
   * once"). A partner whose settings change gets a new key, so nothing stale is ever used.
   */
  private readonly connections = new LRUCache<string, Connected>({ max: 2000 })

  constructor(entries: readonly PsaKindEntry[]) {
    for (const entry of entries) this.entries.set(entry.kind, entry)
  }

  /** The kinds a partner can be connected to: those of this build's list. */
  get kinds(): PsaKind[] {
    return [...this.entries.keys()]
  }

  /** Whether a partner can be connected to the kind (it is one of this build's list). */
  knows(kind: PsaKind): boolean {
    return this.entries.has(kind)
  }

  /** Whether the kind answers in this process (PsaKindDefinition.inProcess). */
  isInProcess(kind: PsaKind): boolean {
    return this.entries.get(kind)?.inProcess ?? false
  }

  /** The kind's secret fields (none for a kind this build does not know). */
  secretFieldsOf(kind: PsaKind): readonly string[] {
    return this.entries.get(kind)?.secretFields ?? []
  }

  /** Checks settings against their kind's schema. */
  check(kind: PsaKind, settings: unknown): SettingsCheck<Record<string, unknown>> {
    const entry = this.entries.get(kind)
    return entry ? entry.check(settings) : { ok: false, problems: [`PSA kind '${kind}' is unknown`] }
  }

  /** A partner's stored connection: its kind's operations on it. */
  connect(partnerId: string, stored: StoredPsa): Connected {
    const entry = this.entries.get(stored.kind)
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
    const secrets = [...this.entries.values()].flatMap((k) => k.secretFields)
    return { kind: stored.kind, ...maskSettings(stored.settings, secrets) }
  }
}
