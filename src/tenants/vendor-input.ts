// What an operator or a vendor may send to change a vendor (provisioning.ts applies it): the input's
// shape, what the audit log says of it, and the webhook auth header as stored and as checked.
import { headerFieldProblem } from '../platform/http/header-fields.js'
import { clientSetHeaders } from '../platform/outbound/http.js'
import { type AuditSummary, fieldsSet, originOf } from './audit/operator-audit.js'
import type { ProductGroupsInput } from './product-groups/product-groups.js'
import type { ProductGroupsMapping } from './vendor.js'

export interface VendorInput {
  name?: string
  webhookUrl?: string | null
  webhookAuthHeader?: string | { name: string; value: string } | null
  productGroups?: ProductGroupsInput | null
  productGroupsUrl?: string | null
  productGroupsMapping?: ProductGroupsMapping | null
  rateLimitPerMinute?: number | null
  /** true: a paused or disabled webhook endpoint is active again. */
  webhookEnabled?: boolean
}

/** What the audit log says of a vendor change: the fields set, and only values that are never secret. */
export function vendorSummary(input: VendorInput): AuditSummary {
  const summary: Record<string, AuditSummary[string]> = { fields: fieldsSet(input) }
  if (input.name !== undefined) summary.name = input.name
  if (input.webhookUrl !== undefined) summary.webhookUrl = originOf(input.webhookUrl) ?? null
  if (input.productGroupsUrl !== undefined)
    summary.productGroupsUrl = originOf(input.productGroupsUrl) ?? null
  if (input.rateLimitPerMinute !== undefined) summary.rateLimitPerMinute = input.rateLimitPerMinute
  if (input.webhookEnabled !== undefined) summary.webhookEnabled = input.webhookEnabled
  return summary
}

const asHeader = (h: string | { name: string; value: string }) =>
  typeof h === 'string' ? { name: 'Authorization', value: h } : h

export function authHeader(h: VendorInput['webhookAuthHeader']): string | null | undefined {
  if (h === undefined || h === null) return h
  return JSON.stringify(asHeader(h))
}

/**
 * Why the vendor's webhook auth header cannot be sent (named as `field`), or null. The webhook sender
 * sets the signature's webhook-* headers and the client its own (content-type, user-agent).
 */
export function webhookAuthHeaderProblem(
  h: VendorInput['webhookAuthHeader'],
  field = 'webhookAuthHeader',
): string | null {
  if (h === undefined || h === null) return null
  return headerFieldProblem(field, asHeader(h), clientSetHeaders)
}
