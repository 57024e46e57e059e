// Autotask billing lines (docs/psa/autotask.md, "Usage push"): the services of a company's active contracts,
// each addressed as "{contractId}:{contractServiceId}". A contract service holds no unit count of its
// own: its units live per billing period in ContractServiceUnits (read-only), and change only through
// ContractServiceAdjustments, a create-only entity whose unitChange is a delta from effectiveDate on.
// So an absolute count is pushed as: read the units now in effect, post the difference (nothing when
// there is none). A retry after a lost answer reads the units again first, so it never adds twice.
// Field names are read in any case (Autotask's own are camelCase; some clients show PascalCase).
import {
  type BillingLine,
  fail,
  ok,
  type PsaCall,
  type PsaFailure,
  type PsaResult,
  type UsageCall,
} from '../adapter.js'
import { type AutotaskClient, autotaskErrorText, type Filter } from './client.js'

type Row = Record<string, unknown>

function field(row: Row | null | undefined, name: string): unknown {
  if (!row) return undefined
  if (name in row) return row[name]
  const key = Object.keys(row).find((k) => k.toLowerCase() === name.toLowerCase())
  return key === undefined ? undefined : row[key]
}

function num(row: Row | null | undefined, name: string): number | null {
  const v = field(row, name)
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v
  return typeof n === 'number' && Number.isFinite(n) ? n : null
}

function text(row: Row | null | undefined, name: string): string | null {
  const v = field(row, name)
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : null
}

/** The UTC day (yyyy-mm-dd) of a date, or null. */
function dayOf(value: string | null): string | null {
  if (!value) return null
  if (/^\d{4}-\d{2}-\d{2}/.test(value)) return value.slice(0, 10)
  const ms = Date.parse(value)
  return Number.isNaN(ms) ? null : new Date(ms).toISOString().slice(0, 10)
}

/**
 * The period whose units are in effect on `day`: the one containing it; else (a contract past its
 * periods) the latest begun; else (periods still to come) the first.
 */
function periodOn(periods: Row[], day: string): Row | null {
  const dated = periods
    .map((row) => ({ row, start: dayOf(text(row, 'startDate')), end: dayOf(text(row, 'endDate')) }))
    .sort((a, b) => (a.start ?? '').localeCompare(b.start ?? ''))
  const begun = dated.filter((p) => p.start !== null && p.start <= day)
  const containing = begun.filter((p) => p.end === null || day <= p.end)
  return (containing.at(-1) ?? begun.at(-1) ?? dated[0])?.row ?? null
}

const eq = (name: string, value: unknown): Filter => ({ op: 'eq', field: name, value })
const refusal = (message: string): PsaFailure => ({ kind: 'rejected', retryable: false, message })
const today = () => new Date().toISOString().slice(0, 10)

/** Services' names by id (an `or` of at most 500 ids a query, Autotask's limit). A refusal (the API user
 * may not read Services) leaves names to the contract services' own descriptions. */
async function serviceNames(
  client: AutotaskClient,
  ids: number[],
  call: PsaCall,
): Promise<PsaResult<Map<number, string>>> {
  const names = new Map<number, string>()
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500)
    const filter =
      chunk.length === 1 ? [eq('id', chunk[0])] : [{ op: 'or', items: chunk.map((id) => eq('id', id)) }]
    const found = await client.query<Row>('Services', filter, [], call)
    if (!found.ok) {
      if (found.failure.retryable) return found
      break
    }
    for (const s of found.value) {
      const id = num(s, 'id')
      const name = text(s, 'name') ?? text(s, 'invoiceDescription') ?? text(s, 'description')
      if (id !== null && name) names.set(id, name)
    }
  }
  return ok(names)
}

export async function billingLines(
  client: AutotaskClient,
  companyId: string,
  call: PsaCall,
): Promise<PsaResult<BillingLine[]>> {
  if (!/^\d+$/.test(companyId)) return fail(refusal(`Autotask company ids are numbers, not '${companyId}'`))
  // Status 1 is Active (a system picklist value).
  const contracts = await client.query<Row>(
    'Contracts',
    [eq('companyID', Number(companyId)), eq('status', 1)],
    [],
    call,
  )
  if (!contracts.ok) return contracts
  const found: { contract: Row; line: Row; quantity: number | null }[] = []
  const on = today()
  for (const contract of contracts.value) {
    const contractId = num(contract, 'id')
    if (contractId === null) continue
    const lines = await client.query<Row>('ContractServices', [eq('contractID', contractId)], [], call)
    if (!lines.ok) return lines
    if (lines.value.length === 0) continue
    const units = await client.query<Row>('ContractServiceUnits', [eq('contractID', contractId)], [], call)
    if (!units.ok) return units
    for (const line of lines.value) {
      const periods = units.value.filter((u) => num(u, 'contractServiceID') === num(line, 'id'))
      const quantity = num(periodOn(periods, on), 'units') ?? num(line, 'units')
      found.push({ contract, line, quantity })
    }
  }
  const serviceIds = [...new Set(found.map((f) => num(f.line, 'serviceID')).filter((id) => id !== null))]
  const names = await serviceNames(client, serviceIds, call)
  if (!names.ok) return names
  return ok(
    found.map(({ contract, line, quantity }) => {
      const serviceId = num(line, 'serviceID')
      return {
        id: `${num(contract, 'id')}:${num(line, 'id')}`,
        productId: serviceId === null ? null : String(serviceId),
        name:
          (serviceId === null ? undefined : names.value.get(serviceId)) ??
          text(line, 'invoiceDescription') ??
          `Contract service ${num(line, 'id')}`,
        agreementId: String(num(contract, 'id')),
        agreementName: text(contract, 'contractName') ?? `Contract ${num(contract, 'id')}`,
        quantity,
      }
    }),
  )
}

/** "{contractId}:{contractServiceId}", both Autotask ids. */
export function parseLineId(lineId: string): { contractId: number; contractServiceId: number } | null {
  const m = /^(\d+):(\d+)$/.exec(lineId.trim())
  return m?.[1] && m[2] ? { contractId: Number(m[1]), contractServiceId: Number(m[2]) } : null
}

export async function setQuantity(
  client: AutotaskClient,
  lineId: string,
  quantity: number,
  call: UsageCall,
): Promise<PsaResult<{ previous: number | null }>> {
  const ids = parseLineId(lineId)
  if (!ids)
    return fail(
      refusal(
        `'${lineId}' is not an Autotask billing line: expected "{contractId}:{contractServiceId}", e.g. "29684001:7001"`,
      ),
    )
  // unitChange is an integer in Autotask's model: a fractional count cannot be expressed.
  if (!Number.isInteger(quantity) || quantity < 0)
    return fail(refusal(`Autotask counts contract service units in whole numbers, not ${quantity}`))
  const rows = await client.query<Row>('ContractServices', [eq('id', ids.contractServiceId)], [], call)
  if (!rows.ok) return rows
  const line = rows.value.find((r) => num(r, 'id') === ids.contractServiceId)
  if (!line || num(line, 'contractID') !== ids.contractId) {
    return fail({
      kind: 'not-found',
      retryable: false,
      message: `Autotask has no contract service ${ids.contractServiceId} on contract ${ids.contractId}`,
    })
  }
  // The units in effect on the day the change takes effect: the adjustment changes them from then on.
  const day = dayOf(call.effectiveDate) ?? today()
  const periods = await client.query<Row>(
    'ContractServiceUnits',
    [eq('contractServiceID', ids.contractServiceId)],
    [],
    call,
  )
  if (!periods.ok) return periods
  const period = periodOn(periods.value, day)
  const current = num(period, 'units') ?? num(line, 'units')
  if (current === null)
    return fail(refusal(`Autotask shows no units for contract service ${ids.contractServiceId} on ${day}`))
  if (quantity === current) return ok({ previous: current })
  const price = num(line, 'adjustedPrice') ?? num(line, 'unitPrice') ?? num(period, 'price')
  const serviceId = num(line, 'serviceID')
  const posted = await client.api('POST', 'ContractServiceAdjustments', call, {
    contractID: ids.contractId,
    contractServiceID: ids.contractServiceId,
    ...(serviceId === null ? {} : { serviceID: serviceId }),
    effectiveDate: day,
    unitChange: quantity - current,
    ...(price === null ? {} : { adjustedUnitPrice: price }),
  })
  if (!posted.ok) return posted
  // Autotask may answer a refused business rule with 200 and its errors.
  const refused = autotaskErrorText(posted.value.body)
  return refused ? fail(refusal(refused)) : ok({ previous: current })
}
