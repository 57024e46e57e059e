// Usage counts into HaloPSA (docs/psa/halopsa.md, "Usage push"): a billing line is a line of one of the
// client's recurring invoices, addressed as "{invoiceId}:{lineId}" (recurring invoice ids may be
// negative). Its quantity is the line's qty_order, set by posting the invoice header back with every one
// of its lines (as read just before, only the one qty_order changed): Halo may drop lines a header post
// leaves out.
import type { BillingLine, PsaCall, PsaResult, UsageCall } from '../adapter.js'
import { fail, ok } from '../adapter.js'
import { firstOf, type HaloClient, type HaloItem, isItem } from './client.js'
import { idText } from './lists.js'

export async function billingLines(
  client: HaloClient,
  companyId: string,
  call: PsaCall,
): Promise<PsaResult<BillingLine[]>> {
  if (!/^\d+$/.test(companyId)) return fail(refusal(`HaloPSA client ids are numbers, not '${companyId}'`))
  const headers = await client.all('/RecurringInvoice', 'invoices', call, {
    client_id: companyId,
    includelines: true,
  })
  if (!headers.ok) return headers
  const lines: BillingLine[] = []
  // A server that ignores the client_id filter lists others' invoices too: they are left out.
  for (const listed of headers.value.filter(
    (h) => h.client_id === undefined || idText(h.client_id) === companyId,
  )) {
    let header = listed
    if (!Array.isArray(header.lines)) {
      const full = await readHeader(client, idText(listed.id) ?? '', call)
      if (!full.ok) return full
      header = full.value
    }
    lines.push(...linesOf(header))
  }
  return ok(lines)
}

export async function setQuantity(
  client: HaloClient,
  lineId: string,
  quantity: number,
  call: UsageCall,
): Promise<PsaResult<{ previous: number | null }>> {
  const m = /^(-?\d+):(-?\d+)$/.exec(lineId)
  if (!m) return fail(refusal(`'${lineId}' is not a HaloPSA recurring invoice line ({invoiceId}:{lineId})`))
  const [, headerId = '', id = ''] = m
  const header = await readHeader(client, headerId, call)
  if (!header.ok) return header
  const lines = header.value.lines
  if (!Array.isArray(lines))
    return fail(
      refusal(`HaloPSA did not list the lines of recurring invoice ${headerId}; nothing was changed`),
    )
  const line = lines.find((l) => isItem(l) && idText(l.id) === id) as HaloItem | undefined
  if (!line) {
    return fail({
      kind: 'not-found',
      retryable: false,
      message: `HaloPSA recurring invoice ${headerId} has no line ${id}`,
    })
  }
  const previous = quantityOf(line)
  if (previous === quantity) return ok({ previous })
  const posted = await client.api('POST', '/RecurringInvoice', call, {
    body: [
      { id: header.value.id, lines: lines.map((l) => (l === line ? { ...line, qty_order: quantity } : l)) },
    ],
  })
  return posted.ok ? ok({ previous }) : posted
}

async function readHeader(client: HaloClient, id: string, call: PsaCall): Promise<PsaResult<HaloItem>> {
  const res = await client.api('GET', `/RecurringInvoice/${id}`, call, { query: { includedetails: true } })
  if (!res.ok) return res
  const header = firstOf(res.value.body, 'invoices')
  return header
    ? ok(header)
    : fail({ kind: 'not-found', retryable: false, message: `HaloPSA has no recurring invoice ${id}` })
}

function linesOf(header: HaloItem): BillingLine[] {
  const headerId = idText(header.id)
  if (headerId === null || !Array.isArray(header.lines)) return []
  const agreementName = text(header.reference) ?? text(header.name) ?? `Recurring invoice ${headerId}`
  return header.lines.filter(isItem).flatMap((l) => {
    const id = idText(l.id)
    if (id === null) return []
    const item = idText(l._itemid ?? l.item_id)
    return [
      {
        id: `${headerId}:${id}`,
        productId: item !== null && item !== '0' && item !== '-1' ? item : text(l.item_code),
        name:
          text(l.item_shortdescription) ?? text(l.item_longdescription) ?? text(l.item_code) ?? `Line ${id}`,
        agreementId: headerId,
        agreementName,
        quantity: quantityOf(l),
      },
    ]
  })
}

function quantityOf(line: HaloItem): number | null {
  const q = typeof line.qty_order === 'string' ? Number(line.qty_order) : line.qty_order
  return typeof q === 'number' && Number.isFinite(q) ? q : null
}

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null)
const refusal = (message: string) => ({ kind: 'rejected' as const, retryable: false, message })
