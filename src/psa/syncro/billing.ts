// Usage counts in Syncro (docs/psa/syncro.md, "Usage push"): recurring billing is an Invoice Schedule per
// customer (`GET /schedules?customer_id=`), each with line items (a product and its quantity) that
// Syncro copies onto every invoice the schedule makes. A count sets a line's quantity with
// `PUT /schedules/{id}/line_items/{lineItemId}`; the next invoice bills it. Syncro's public API
// leaves these bodies untyped, so the answers are read in either shape (the schedule under `schedule`
// or bare, its lines under `line_items` or `schedule_line_items`) and the quantity is sent both flat
// and under `line_item`.
import type { BillingLine, PsaCall, PsaResult } from '../adapter.js'
import { itemOf, type SyncroClient } from './client.js'
import { customerId } from './lookups.js'

interface SyncroSchedule {
  id: number | string
  customer_id?: number | string | null
  name?: string | null
  frequency?: string | null
  line_items?: SyncroLineItem[] | null
  schedule_line_items?: SyncroLineItem[] | null
}

interface SyncroLineItem {
  id: number | string
  product_id?: number | string | null
  name?: string | null
  item?: string | null
  description?: string | null
  quantity?: number | string | null
}

const linesOf = (s: SyncroSchedule): SyncroLineItem[] | null =>
  Array.isArray(s.line_items)
    ? s.line_items
    : Array.isArray(s.schedule_line_items)
      ? s.schedule_line_items
      : null

const quantityOf = (line: SyncroLineItem): number | null => {
  const n = typeof line.quantity === 'string' ? Number(line.quantity) : line.quantity
  return typeof n === 'number' && Number.isFinite(n) ? n : null
}

const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null)

/** A schedule with its line items: as listed, or read by id where the list leaves them out. */
async function withLines(
  client: SyncroClient,
  s: SyncroSchedule,
  call: PsaCall,
): Promise<PsaResult<{ schedule: SyncroSchedule; lines: SyncroLineItem[] }>> {
  const listed = linesOf(s)
  if (listed) return { ok: true, value: { schedule: s, lines: listed } }
  const res = await client.api('GET', `/schedules/${s.id}`, call)
  if (!res.ok) return res
  const full = itemOf<SyncroSchedule>(res.value.body, 'schedule') ?? s
  return { ok: true, value: { schedule: { ...s, ...full }, lines: linesOf(full) ?? [] } }
}

export async function billingLines(
  client: SyncroClient,
  company: string,
  call: PsaCall,
): Promise<PsaResult<BillingLine[]>> {
  const id = await customerId(client, company, call)
  if (!id.ok) return id
  const schedules = await client.all<SyncroSchedule>('/schedules', 'schedules', call, {
    customer_id: id.value,
  })
  if (!schedules.ok) return schedules
  const lines: BillingLine[] = []
  // Where a server ignores the filter, the customer's own schedules are kept here.
  for (const s of schedules.value.filter(
    (s) =>
      s.customer_id === undefined || s.customer_id === null || String(s.customer_id) === String(id.value),
  )) {
    const got = await withLines(client, s, call)
    if (!got.ok) return got
    const { schedule, lines: items } = got.value
    const agreementName =
      text(schedule.name) ??
      `Invoice schedule ${schedule.id}${text(schedule.frequency) ? ` (${text(schedule.frequency)})` : ''}`
    for (const line of items) {
      lines.push({
        id: `${schedule.id}:${line.id}`,
        productId: line.product_id === null || line.product_id === undefined ? null : String(line.product_id),
        // `item` is the product's name on Syncro's line items, `name` the line's own text.
        name: text(line.item) ?? text(line.name) ?? text(line.description) ?? `Line item ${line.id}`,
        agreementId: String(schedule.id),
        agreementName,
        quantity: quantityOf(line),
      })
    }
  }
  return { ok: true, value: lines }
}

export async function setQuantity(
  client: SyncroClient,
  lineId: string,
  quantity: number,
  call: PsaCall,
): Promise<PsaResult<{ previous: number | null }>> {
  const m = /^(\d+):(\d+)$/.exec(lineId.trim())
  if (!m) {
    return {
      ok: false,
      failure: {
        kind: 'rejected',
        retryable: false,
        message: `'${lineId}' is not a Syncro invoice schedule line (scheduleId:lineItemId)`,
      },
    }
  }
  const [, scheduleId, itemId] = m
  const got = await withLines(client, { id: scheduleId! }, call)
  if (!got.ok) return got
  const line = got.value.lines.find((l) => String(l.id) === itemId)
  if (!line) {
    return {
      ok: false,
      failure: {
        kind: 'not-found',
        retryable: false,
        message: `Syncro's invoice schedule ${scheduleId} has no line item ${itemId}`,
      },
    }
  }
  const put = await client.api('PUT', `/schedules/${scheduleId}/line_items/${itemId}`, call, {
    body: { quantity, line_item: { quantity } },
  })
  return put.ok ? { ok: true, value: { previous: quantityOf(line) } } : put
}
