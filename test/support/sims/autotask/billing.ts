// Contract service adjustments as Autotask takes them (docs/psa/autotask.md, "Usage push"): create-only
// (`POST /ContractServiceAdjustments` or `POST /Contracts/{id}/ServiceAdjustments`), a unit change
// that is a delta (+/−), never an absolute count, from `effectiveDate` (required) on: the units of the
// period that contains that date and of every later period change by `unitChange`. The contract
// service is named by `contractServiceID`, or by `serviceID` on the contract. Refused, with 500 and
// `{"errors":[...]}` like every failed business rule: a missing required field, an unknown or inactive
// contract, a service not on it, a date no period of the service reaches, and units that would go
// below zero. There is no way to read an adjustment back: the units show what it did.
import { coerce, fieldErrors, type Outcome, refuse } from './tickets.js'
import type { AutotaskState, ContractServiceAdjustment } from './types.js'

const dayOf = (iso: string) => iso.slice(0, 10)

export function createAdjustment(
  state: AutotaskState,
  body: unknown,
  parentContractId?: number,
): Outcome<number> {
  const fields = coerce('ContractServiceAdjustments', body)
  if (!fields.ok) return fields
  const { id: _ignored, ...sent } = fields.value
  if (parentContractId !== undefined) {
    if (sent.contractID !== undefined && sent.contractID !== null && sent.contractID !== parentContractId)
      return refuse([
        `The contractID ${sent.contractID} does not match the parent Contract ${parentContractId}.`,
      ])
    sent.contractID = parentContractId
  }
  const errors = fieldErrors(state, 'ContractServiceAdjustments', sent)
  if (sent.contractServiceID == null && sent.serviceID == null)
    errors.push('Either contractServiceID or serviceID is required.')
  if (errors.length) return refuse(errors)
  const contract = state.contracts.find((c) => c.id === sent.contractID)
  if (!contract) return refuse([`The contractID ${sent.contractID} does not reference an existing Contract.`])
  if (contract.status !== 1)
    return refuse([`Contract ${contract.id} is inactive: its services cannot be adjusted.`])
  const line = state.contractServices.find(
    (s) =>
      s.contractID === contract.id &&
      (sent.contractServiceID != null ? s.id === sent.contractServiceID : s.serviceID === sent.serviceID),
  )
  if (!line || (sent.serviceID != null && line.serviceID !== sent.serviceID)) {
    const named =
      sent.contractServiceID != null
        ? `contract service ${sent.contractServiceID}`
        : `service ${sent.serviceID}`
    return refuse([`The ${named} is not on contract ${contract.id}.`])
  }
  const effective = dayOf(String(sent.effectiveDate))
  const periods = state.contractServiceUnits.filter(
    (u) => u.contractServiceID === line.id && dayOf(u.endDate) >= effective,
  )
  if (periods.length === 0)
    return refuse([`Contract service ${line.id} has no period on or after the effectiveDate ${effective}.`])
  const change = Number(sent.unitChange)
  if (periods.some((p) => p.units + change < 0))
    return refuse([
      `The unitChange ${change} would take the units of contract service ${line.id} below zero.`,
    ])
  for (const p of periods) p.units += change
  const adjustment: ContractServiceAdjustment = {
    id: state.nextId.adjustment++,
    contractID: contract.id,
    contractServiceID: line.id,
    serviceID: line.serviceID,
    effectiveDate: String(sent.effectiveDate),
    unitChange: change,
    adjustedUnitPrice: typeof sent.adjustedUnitPrice === 'number' ? sent.adjustedUnitPrice : null,
    adjustedUnitCost: typeof sent.adjustedUnitCost === 'number' ? sent.adjustedUnitCost : null,
    allowRepeatService: typeof sent.allowRepeatService === 'boolean' ? sent.allowRepeatService : null,
    quoteItemID: typeof sent.quoteItemID === 'number' ? sent.quoteItemID : null,
  }
  state.adjustments.push(adjustment)
  return { ok: true, value: adjustment.id }
}

/** The units of a contract service in the period containing `at` (a test's view of the line). */
export function unitsOn(state: AutotaskState, contractServiceId: number, at = new Date()): number | null {
  const today = at.toISOString().slice(0, 10)
  const period = state.contractServiceUnits.find(
    (u) =>
      u.contractServiceID === contractServiceId && dayOf(u.startDate) <= today && today <= dayOf(u.endDate),
  )
  return period?.units ?? null
}
