// Usage counts into Kaseya BMS recurring services (docs/psa/kaseya-bms.md, "Usage push"). An account's contracts
// come from /v2/finance/contracts/lookup?AccountId=; a contract's recurring services are read from
// /v2/finance/contracts/recurringservices/{contractId}/services (or, where a server answers the
// contract with its services instead, /recurringservices/{contractId}) — the published spec declares
// only the POST of that route, so the GET is the route's natural reading. A line is
// `{contractId}:{serviceId}`; its quantity is the service's Units.
//
// Units change through the documented POST …/recurringservices/{contractId}/services
// `[{ServiceId, Units, EffectiveDate, …}]`, which BMS describes as adding services or units. Whether
// Units there is added to the line or replaces it is not documented, so the first change sends the
// difference and reads the line back: the count it wanted means the units were added; the difference
// itself means they replace, and the count is then sent as it is. Either way the line ends at the
// count, and the connection remembers which it was.
import { uriComponent } from '../../platform/core/text.js'
import type { BillingLine, PsaCall, PsaFailure, PsaResult, UsageCall } from '../adapter.js'
import type { V2Client } from './client.js'
import { bool, field, num, rows, str } from './wire.js'

export interface ServiceLine {
  rowId: number | null
  serviceId: number
  name: string
  units: number | null
  unitCost: number | null
  unitPrice: number | null
}

/** What a connection learned about the services routes. */
export interface ServicesWay {
  read: 'services' | 'contract' | null
  units: 'added' | 'replaced' | null
}

const refused = (message: string): PsaFailure => ({ kind: 'rejected', retryable: false, message })
const isRefusal = (f: PsaFailure) => f.kind === 'rejected' || f.kind === 'not-found'

function line(row: unknown): ServiceLine | null {
  const serviceId = num(row, 'serviceId')
  if (serviceId === null) return null
  return {
    rowId: num(row, 'id'),
    serviceId,
    name:
      str(row, 'serviceName')?.trim() ||
      str(row, 'description')?.trim() ||
      str(row, 'serviceDescription')?.trim() ||
      `Service ${serviceId}`,
    units: num(row, 'units') ?? num(row, 'quantity'),
    unitCost: num(row, 'unitCost'),
    unitPrice: num(row, 'unitPrice'),
  }
}

/** The recurring services of one contract (a refusal: the contract has none, e.g. block hours). */
export async function servicesOf(
  client: V2Client,
  way: ServicesWay,
  contractId: string,
  call: PsaCall,
): Promise<PsaResult<ServiceLine[]>> {
  const base = `/finance/contracts/recurringservices/${uriComponent(contractId)}`
  const parse = (list: unknown[]) => list.map(line).filter((l): l is ServiceLine => l !== null)
  if (way.read !== 'contract') {
    const res = await client.api('GET', `${base}/services`, call)
    if (res.ok) {
      way.read = 'services'
      return { ok: true, value: parse(rows(res.value.result)) }
    }
    if (!isRefusal(res.failure) || way.read === 'services') return res
  }
  const res = await client.api('GET', base, call)
  if (!res.ok) return res
  way.read = 'contract'
  return { ok: true, value: parse(rows(field(res.value.result, 'services'))) }
}

export async function billingLines(
  client: V2Client,
  way: ServicesWay,
  accountId: string,
  call: PsaCall,
): Promise<PsaResult<BillingLine[]>> {
  if (!/^\d+$/.test(accountId))
    return { ok: false, failure: refused(`${client.psa.name} account ids are numbers, not '${accountId}'`) }
  const contracts = await client.api('GET', '/finance/contracts/lookup', call, {
    query: { AccountId: accountId },
  })
  if (!contracts.ok) return contracts
  const lines: BillingLine[] = []
  const refusals: string[] = []
  for (const c of rows(contracts.value.result)) {
    const id = num(c, 'id')
    if (id === null || bool(c, 'isActive') === false) continue
    const name = str(c, 'name') ?? str(c, 'contractName') ?? `Contract ${id}`
    const services = await servicesOf(client, way, String(id), call)
    if (!services.ok) {
      if (!isRefusal(services.failure)) return services
      refusals.push(`${name}: ${services.failure.message}`)
      continue
    }
    for (const s of services.value) {
      lines.push({
        id: `${id}:${s.serviceId}`,
        productId: String(s.serviceId),
        name: s.name,
        agreementId: String(id),
        agreementName: name,
        quantity: s.units,
      })
    }
  }
  if (lines.length === 0 && refusals.length > 0)
    return {
      ok: false,
      failure: refused(
        `${client.psa.name} lists no recurring services for account ${accountId} (${refusals.join('; ')})`,
      ),
    }
  return { ok: true, value: lines }
}

export async function setQuantity(
  client: V2Client,
  way: ServicesWay,
  lineId: string,
  quantity: number,
  call: UsageCall,
): Promise<PsaResult<{ previous: number | null }>> {
  const m = /^(\d+):(\d+)$/.exec(lineId)
  if (!m)
    return {
      ok: false,
      failure: refused(`'${lineId}' is not a ${client.psa.name} billing line ({contractId}:{serviceId})`),
    }
  const [, contractId = '', serviceId = ''] = m
  const find = async (): Promise<PsaResult<ServiceLine>> => {
    const services = await servicesOf(client, way, contractId, call)
    if (!services.ok) return services
    const found = services.value.find((s) => String(s.serviceId) === serviceId)
    return found
      ? { ok: true, value: found }
      : { ok: false, failure: refused(`contract ${contractId} has no recurring service ${serviceId}`) }
  }
  const current = await find()
  if (!current.ok) return current
  const previous = current.value.units
  const had = previous ?? 0
  if (had === quantity) return { ok: true, value: { previous } }
  const send = (units: number) =>
    client.api('POST', `/finance/contracts/recurringservices/${contractId}/services`, call, {
      body: [
        {
          ServiceId: Number(serviceId),
          ServiceName: current.value.name,
          Units: units,
          ...(current.value.unitCost !== null ? { UnitCost: current.value.unitCost } : {}),
          ...(current.value.unitPrice !== null ? { UnitPrice: current.value.unitPrice } : {}),
          EffectiveDate: call.effectiveDate,
        },
      ],
    })
  const delta = quantity - had
  const sent = await send(way.units === 'replaced' ? quantity : delta)
  if (!sent.ok) return sent
  const after = await find()
  if (!after.ok) return after
  const now = after.value.units
  if (now === quantity) {
    if (way.units === null && had !== 0) way.units = 'added'
    return { ok: true, value: { previous } }
  }
  if (way.units === null && now === delta) {
    // The units sent replaced the line's: send the count itself.
    way.units = 'replaced'
    const again = await send(quantity)
    if (!again.ok) return again
    const last = await find()
    if (!last.ok) return last
    if (last.value.units === quantity) return { ok: true, value: { previous } }
  }
  return {
    ok: false,
    failure: refused(
      `${client.psa.name} shows ${now ?? 'no'} units of service ${serviceId} on contract ${contractId} after setting ${quantity}`,
    ),
  }
}
