// The PSA adapters this build can talk to. A partner may only be connected to an available kind.
import type { Clock } from '../clock.js'
import type { Store } from '../db/store.js'
import type { PsaAdapter, PsaKind } from './adapter.js'
import { SandboxPsa } from './sandbox.js'

export class PsaRegistry {
  private readonly adapters = new Map<PsaKind, PsaAdapter>()

  constructor(store: Store, clock: Clock) {
    for (const adapter of [new SandboxPsa(store, clock)]) this.adapters.set(adapter.kind, adapter)
  }

  get(kind: PsaKind): PsaAdapter | null {
    return this.adapters.get(kind) ?? null
  }

  get available(): PsaKind[] {
    return [...this.adapters.keys()]
  }
}
