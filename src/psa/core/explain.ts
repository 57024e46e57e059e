// The connection test's sentences, shared by every PSA: what a failure means for the partner, in
// words naming what to fix. Each adapter adds the credential fields of its own kind.
import { asSentence } from '../../platform/core/text.js'
import type { PsaFailure, PsaResult } from '../adapter.js'

export interface Wording {
  /** The PSA's name, e.g. ConnectWise. */
  psa: string
  /** Where it was called, e.g. its root URL. */
  where: string
  /** The fields a refused login names, e.g. "username, secret, integrationCode". */
  credentials: string
  /** The account the PSA's permissions belong to, e.g. "API member". */
  account: string
  /** What a denied call was reading, e.g. "service tickets". */
  area?: string
}

export function explain(f: PsaFailure, w: Wording): string {
  switch (f.kind) {
    case 'unreachable':
    case 'timeout':
      return `${w.psa} at ${w.where} cannot be reached: ${f.message}`
    case 'auth':
      return `${w.psa} refused the credentials (${w.credentials}): ${f.message}`
    case 'forbidden':
      return `The ${w.account} may not read ${w.area ?? 'what the service needs'}; give it that permission: ${f.message}`
    default:
      return `${w.psa} answered: ${f.message}${f.status ? ` (HTTP ${f.status})` : ''}`
  }
}

/** A failed test, its detail one sentence. */
export function refused(detail: string): PsaResult<{ detail: string }> {
  return { ok: false, failure: { kind: 'rejected', retryable: false, message: asSentence(detail) } }
}

/** `next` moved onto `root`'s origin: a paging link never takes credentials to another host. */
export function sameOrigin(next: string, root: string): string {
  if (!URL.canParse(next)) return next
  const n = new URL(next)
  const r = new URL(root)
  return `${r.origin}${n.pathname}${n.search}`
}
