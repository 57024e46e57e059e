// Usage counts in SuperOps (docs/psa/superops.md, "Usage push"): a client's recurring billing is its
// client contracts (`getClientContractList`, conditioned on the client), each billing one charge item
// with a quantity. A count sets the contract's quantity absolutely: `updateClientContract` with a
// change of `quantityChangeOperation: BASELINE` (INCREASE and DECREASE would add to what is there),
// dated when the vendor counted. One contract is one billing line; its id is the contract's.
import { type BillingLine, fail, ok, type PsaCall, type PsaResult, type UsageCall } from '../adapter.js'
import { type SuperOpsClient, superOpsTime } from './client.js'
import { getClientContract, getClientContractList, updateClientContract } from './documents.js'

interface SuperOpsContract {
  contractId: string
  name?: string | null
  client?: { accountId?: unknown; name?: unknown } | null
  billableContract?: {
    chargeItem?: { itemId?: unknown; name?: unknown } | null
    quantity?: number | null
    quantityCalculationType?: string | null
  } | null
}

const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null)
const quantityOf = (c: SuperOpsContract) => {
  const q = c.billableContract?.quantity
  return typeof q === 'number' && Number.isFinite(q) ? q : null
}

export function lineOf(c: SuperOpsContract): BillingLine {
  const item = c.billableContract?.chargeItem
  const name = text(c.name) ?? text(item?.name) ?? `Contract ${c.contractId}`
  return {
    id: String(c.contractId),
    productId: item?.itemId === undefined || item?.itemId === null ? null : String(item.itemId),
    name: text(item?.name) ?? name,
    agreementId: String(c.contractId),
    agreementName: name,
    quantity: quantityOf(c),
  }
}

export async function billingLines(
  client: SuperOpsClient,
  companyId: string,
  call: PsaCall,
): Promise<PsaResult<BillingLine[]>> {
  const condition = { attribute: 'client.accountId', operator: 'is', value: companyId }
  const all = await client.all<SuperOpsContract>(
    getClientContractList,
    'clientContracts',
    { condition },
    call,
  )
  if (!all.ok) return all
  // The client's own, should a server ignore the condition; contracts without billing are no lines.
  return ok(
    all.value
      .filter((c) => c.client?.accountId === undefined || String(c.client.accountId) === companyId)
      .filter((c) => c.billableContract)
      .map(lineOf),
  )
}

export async function setQuantity(
  client: SuperOpsClient,
  lineId: string,
  quantity: number,
  call: UsageCall,
): Promise<PsaResult<{ previous: number | null }>> {
  const before = await client.request<SuperOpsContract>(
    getClientContract,
    { input: { contractId: lineId } },
    call,
  )
  if (!before.ok) return before
  if (!before.value)
    return fail({ kind: 'not-found', retryable: false, message: `SuperOps has no client contract ${lineId}` })
  const date = Date.parse(call.effectiveDate)
  const change = {
    quantity,
    quantityChangeOperation: 'BASELINE',
    ...(Number.isNaN(date) ? {} : { effectiveDate: superOpsTime(new Date(date)) }),
  }
  const input = { contract: { contractId: lineId, billableContract: { change } } }
  const res = await client.request<SuperOpsContract>(updateClientContract, { input }, call)
  return res.ok ? ok({ previous: quantityOf(before.value) }) : res
}
