// Small helpers every PSA adapter uses: the tag that carries our correlationId into a PSA field of
// limited length, and resolving a configured setting (a PSA id or its name) against a look-up list.
import { createHash } from 'node:crypto'
import type { PsaEntity } from '../adapter.js'

/** The correlationId as the PSA field can hold it: as is when it fits, else a stable digest of it. */
export function externalRef(correlationId: string, maxLength: number): string {
  if (correlationId.length <= maxLength) return correlationId
  const digest = createHash('sha256').update(correlationId).digest('base64url')
  return `h:${digest}`.slice(0, maxLength)
}

/** The entry a setting names: by its id, else by its name (case and spacing ignored). */
export function byIdOrName<T extends PsaEntity>(list: readonly T[], value: string): T | null {
  const v = value.trim()
  const norm = (s: string) => s.trim().replace(/\s+/g, ' ').toLowerCase()
  return list.find((e) => e.id === v) ?? list.find((e) => norm(e.name) === norm(v)) ?? null
}
