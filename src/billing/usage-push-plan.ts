// Pushing a vendor's usage count to the partner's PSA
// (docs/partner-api.md#usage-counts-reach-the-psas-billing), as pure decisions: where a count goes (a
// billing line the partner named for the account, or the line of the mapped product on the account's
// company's agreements), which line a product names, and what an attempt's result means for the state the
// partner sees. The job (billing/usage-push.ts) does the I/O around them.
import { asSentence } from '../platform/core/text.js'

/** pending: waiting for its push; pushed: the PSA took it; retrying: the PSA failed, tried again
 * later; failed: refused or out of retries; unmapped: nowhere to push it (kept, visible). */
export type UsagePushStatus = 'pending' | 'pushed' | 'retrying' | 'failed' | 'unmapped'

/** The last push of a service's usage for one account, as the partner sees it. */
export interface UsagePush {
  serviceId: string
  accountId: string
  /** The count this state is about: the latest the vendor sent when it was written. */
  usageId: string
  unitCount: number
  status: UsagePushStatus
  /** The billing line it went (or was going) to. */
  psaLineId: string | null
  /** The line's quantity before the push, where the PSA said. */
  previousQuantity: number | null
  /** Attempts at pushing this count. */
  attempts: number
  /** Why it is not pushed (the PSA's own words), or what is retried. */
  detail: string | null
  updatedAt: string
  /** The last count the PSA took, and when: kept while a later one is pending or failing. */
  pushedCount: number | null
  pushedAt: string | null
}

/** What the partner mapped for a service and account. */
export interface UsageMappings {
  /** The billing line named for this account. */
  line: string | null
  /** The PSA product named for the service, for every account. */
  product: string | null
  /** The PSA company the account maps to. */
  company: string | null
}

export type UsageTarget =
  | { kind: 'line'; lineId: string }
  | { kind: 'product'; productId: string; companyId: string }
  | { kind: 'unmapped'; detail: string }

/** Where a count of `serviceId` for `accountId` goes: the account's own line first, then the product's. */
export function usageTarget(m: UsageMappings, serviceId: string, accountId: string): UsageTarget {
  if (m.line !== null) return { kind: 'line', lineId: m.line }
  if (m.product === null)
    return {
      kind: 'unmapped',
      detail: `Service '${serviceId}' is not mapped to a PSA product or billing line; the count is kept and not pushed.`,
    }
  if (m.company === null)
    return {
      kind: 'unmapped',
      detail: `Account '${accountId}' is not mapped to a PSA company, so its billing line cannot be found; the count is kept and not pushed.`,
    }
  return { kind: 'product', productId: m.product, companyId: m.company }
}

export interface LineCandidate {
  id: string
  productId: string | null
  name: string
  agreementName: string
}

/**
 * The company's billing line of a product: the one whose product is `productId` (or, for a PSA whose
 * lines name their product only by name, whose name is it). None, or several, is the partner's to
 * resolve: the detail says which.
 */
export function lineForProduct(
  lines: readonly LineCandidate[],
  productId: string,
  companyId: string,
): { ok: true; lineId: string } | { ok: false; detail: string } {
  const norm = (s: string) => s.trim().replace(/\s+/g, ' ').toLowerCase()
  let found = lines.filter((l) => l.productId !== null && l.productId === productId)
  if (found.length === 0) found = lines.filter((l) => norm(l.name) === norm(productId))
  if (found.length === 1 && found[0]) return { ok: true, lineId: found[0].id }
  if (found.length === 0)
    return {
      ok: false,
      detail: `PSA company '${companyId}' has no billing line for product '${productId}' on its agreements: add one in the PSA, or map this account to a line.`,
    }
  const named = found
    .slice(0, 5)
    .map((l) => `${l.id} (${l.agreementName})`)
    .join(', ')
  return {
    ok: false,
    detail: `PSA company '${companyId}' has ${found.length} billing lines for product '${productId}' (${named}): map this account to one of them.`,
  }
}

export interface AttemptFailure {
  message: string
  retryable: boolean
}

/** What an attempt that failed leaves: retried while the schedule allows and the failure is transient. */
export function afterFailure(
  f: AttemptFailure,
  canRetry: boolean,
): { status: Extract<UsagePushStatus, 'retrying' | 'failed'>; detail: string } {
  const text = asSentence(f.message)
  if (f.retryable && canRetry) return { status: 'retrying', detail: `The PSA failed; retrying: ${text}` }
  return {
    status: 'failed',
    detail: f.retryable ? `The PSA kept failing; not retried any more: ${text}` : `The PSA refused: ${text}`,
  }
}
