// ConnectWise billing lines (docs/psa/connectwise.md, "Usage push"): a company's agreements and their
// additions, each addition a line addressed as "{agreementId}:{additionId}". A usage count sets the
// addition's quantity with a JSON-Patch replace: an absolute count, so a retry after a lost answer sets
// the same value again. Cancelled agreements and additions bill nothing and are left out; older servers
// say so with cancelledFlag / cancelledDate, newer ones also with agreementStatus "Cancelled": both are
// read.
import { type BillingLine, fail, ok, type PsaCall, type PsaFailure, type PsaResult } from '../adapter.js'
import type { ConnectWiseClient } from './client.js'

interface CwAgreement {
  id: number
  name?: string
  cancelledFlag?: boolean
  agreementStatus?: string
}

interface CwAddition {
  id: number
  product?: { id?: number; identifier?: string; description?: string; name?: string }
  quantity?: number
  cancelledDate?: string | null
  agreementStatus?: string
  description?: string
  invoiceDescription?: string
}

const cancelledStatus = (status: string | undefined) => status?.toLowerCase() === 'cancelled'

const agreementCancelled = (a: CwAgreement) => a.cancelledFlag === true || cancelledStatus(a.agreementStatus)

/** Cancelled: marked so, or cancelled as of a date already past (a later date is a cancellation to come). */
function additionCancelled(a: CwAddition, now = Date.now()): boolean {
  if (cancelledStatus(a.agreementStatus)) return true
  if (!a.cancelledDate) return false
  const at = Date.parse(a.cancelledDate)
  return Number.isNaN(at) || at <= now
}

/** The line's name: the product as the catalogue names it, else the addition's own description. */
function nameOf(a: CwAddition): string {
  const p = a.product
  const identifier = p?.identifier?.trim()
  const description = (p?.description ?? p?.name)?.trim()
  if (identifier && description && identifier !== description) return `${identifier} (${description})`
  return (
    identifier ||
    description ||
    a.description?.trim() ||
    a.invoiceDescription?.trim() ||
    `Addition ${a.id}${p?.id === undefined ? '' : ` (product ${p.id})`}`
  )
}

/** The conditions that pick a company's agreements: by id, or by identifier where one is given. */
function companyCondition(companyId: string): string {
  return /^\d+$/.test(companyId)
    ? `company/id=${companyId}`
    : `company/identifier="${companyId.replace(/["\\]/g, '\\$&')}"`
}

export async function billingLines(
  client: ConnectWiseClient,
  companyId: string,
  call: PsaCall,
): Promise<PsaResult<BillingLine[]>> {
  const agreements = await client.all<CwAgreement>('/finance/agreements', call, {
    conditions: companyCondition(companyId),
  })
  if (!agreements.ok) return agreements
  const lines: BillingLine[] = []
  for (const agreement of agreements.value.filter((a) => !agreementCancelled(a))) {
    const additions = await client.all<CwAddition>(`/finance/agreements/${agreement.id}/additions`, call)
    if (!additions.ok) return additions
    for (const a of additions.value.filter((x) => !additionCancelled(x))) {
      lines.push({
        id: `${agreement.id}:${a.id}`,
        productId: a.product?.id === undefined ? null : String(a.product.id),
        name: nameOf(a),
        agreementId: String(agreement.id),
        agreementName: agreement.name?.trim() || `Agreement ${agreement.id}`,
        quantity: typeof a.quantity === 'number' ? a.quantity : null,
      })
    }
  }
  return ok(lines)
}

/** "{agreementId}:{additionId}", both ConnectWise ids. */
export function parseLineId(lineId: string): { agreementId: string; additionId: string } | null {
  const m = /^(\d+):(\d+)$/.exec(lineId.trim())
  return m?.[1] && m[2] ? { agreementId: m[1], additionId: m[2] } : null
}

const refusal = (message: string): PsaFailure => ({ kind: 'rejected', retryable: false, message })

export async function setQuantity(
  client: ConnectWiseClient,
  lineId: string,
  quantity: number,
  call: PsaCall,
): Promise<PsaResult<{ previous: number | null }>> {
  const ids = parseLineId(lineId)
  if (!ids)
    return fail(
      refusal(
        `'${lineId}' is not a ConnectWise billing line: expected "{agreementId}:{additionId}", e.g. "112:3301"`,
      ),
    )
  if (!Number.isFinite(quantity) || quantity < 0)
    return fail(refusal(`a ConnectWise addition's quantity cannot be ${quantity}`))
  const path = `/finance/agreements/${ids.agreementId}/additions/${ids.additionId}`
  const got = await client.api('GET', path, call)
  if (!got.ok) return got
  const addition = got.value.body as CwAddition | null
  if (!addition || typeof addition !== 'object')
    return fail(refusal(`ConnectWise answered no addition ${ids.additionId} on agreement ${ids.agreementId}`))
  if (additionCancelled(addition))
    return fail(refusal(`addition ${ids.additionId} of agreement ${ids.agreementId} is cancelled`))
  const previous = typeof addition.quantity === 'number' ? addition.quantity : null
  if (previous === quantity) return ok({ previous })
  const patched = await client.api('PATCH', path, call, {
    body: [{ op: 'replace', path: 'quantity', value: quantity }],
  })
  return patched.ok ? ok({ previous }) : patched
}
