// The billing side of a fresh simulated tenant (docs/psa/autotask.md#usage-push-contract-services): the
// field definitions of Contracts, Services, ContractServices, ContractServiceUnits and
// ContractServiceAdjustments, and seeded data. The second company has an active Recurring Service contract
// with two services and an inactive one; the third has one service on a contract. Units are kept per
// monthly period: the simulator seeds last month, this month and next month around the day it starts.
import type { FieldSpec } from './seed.js'
import type { AutotaskState, Company, ContractServiceUnit, PicklistValue } from './types.js'

const f = (name: string, dataType: FieldSpec['dataType'], o: Omit<FieldSpec, 'name' | 'dataType'> = {}) => ({
  name,
  dataType,
  ...o,
})
const readOnly = { readOnly: true }

export const billingFieldSpecs: Record<string, FieldSpec[]> = {
  Contracts: [
    f('id', 'long', readOnly),
    f('companyID', 'integer', { required: true, reference: 'Company' }),
    f('contractName', 'string', { length: 100, required: true }),
    f('contractNumber', 'string', { length: 50 }),
    f('contractType', 'integer', { required: true, picklist: true }),
    f('status', 'integer', { required: true, picklist: true }),
    f('startDate', 'datetime', { required: true }),
    f('endDate', 'datetime', { required: true }),
    f('description', 'string', { length: 2000 }),
  ],
  Services: [
    f('id', 'long', readOnly),
    f('name', 'string', { length: 150, required: true }),
    f('description', 'string', { length: 400 }),
    f('invoiceDescription', 'string', { length: 1000 }),
    f('unitPrice', 'double'),
    f('unitCost', 'double'),
    f('isActive', 'boolean'),
  ],
  ContractServices: [
    f('id', 'long', readOnly),
    f('contractID', 'integer', { required: true, reference: 'Contract' }),
    f('serviceID', 'integer', { required: true, reference: 'Service' }),
    f('unitPrice', 'double'),
    f('unitCost', 'double'),
    f('adjustedPrice', 'double'),
    f('invoiceDescription', 'string', { length: 1000 }),
    f('internalDescription', 'string', { length: 1000 }),
    f('quoteItemID', 'long', { reference: 'QuoteItem' }),
  ],
  ContractServiceUnits: [
    f('id', 'long', readOnly),
    f('contractID', 'integer', { ...readOnly, reference: 'Contract' }),
    f('contractServiceID', 'integer', { ...readOnly, reference: 'ContractService' }),
    f('serviceID', 'integer', { ...readOnly, reference: 'Service' }),
    f('startDate', 'datetime', readOnly),
    f('endDate', 'datetime', readOnly),
    f('units', 'integer', readOnly),
    f('price', 'double', readOnly),
    f('cost', 'double', readOnly),
    f('approveAndPostDate', 'datetime', readOnly),
  ],
  ContractServiceAdjustments: [
    f('id', 'long', readOnly),
    f('contractID', 'integer', { required: true, reference: 'Contract' }),
    f('contractServiceID', 'integer', { reference: 'ContractService' }),
    f('serviceID', 'integer', { reference: 'Service' }),
    f('effectiveDate', 'datetime', { required: true }),
    f('unitChange', 'integer', { required: true }),
    f('adjustedUnitPrice', 'double'),
    f('adjustedUnitCost', 'double'),
    f('allowRepeatService', 'boolean'),
    f('quoteItemID', 'long', { reference: 'QuoteItem' }),
  ],
}

const value = (v: number, label: string, o: Partial<PicklistValue> = {}, i = 0): PicklistValue => ({
  value: String(v),
  label,
  isDefaultValue: false,
  sortOrder: i + 1,
  parentValue: '',
  isActive: true,
  isSystem: true,
  ...o,
})

export function billingPicklists(): AutotaskState['picklists'] {
  return {
    Contracts: {
      status: [value(0, 'Inactive'), value(1, 'Active', { isDefaultValue: true }, 1)],
      contractType: [
        [1, 'Time & Materials'],
        [3, 'Fixed Price'],
        [4, 'Block Hours'],
        [6, 'Retainer'],
        [7, 'Recurring Service'],
        [8, 'Per Ticket'],
      ].map(([v, label], i) => value(Number(v), String(label), {}, i)),
    },
  }
}

const day = (d: Date) => `${d.toISOString().slice(0, 10)}T00:00:00Z`
/** The first and last day of the month `offset` months from `now`'s (UTC). */
function month(now: Date, offset: number): { startDate: string; endDate: string } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1))
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset + 1, 0))
  return { startDate: day(start), endDate: day(end) }
}

type Billing = Pick<AutotaskState, 'contracts' | 'services' | 'contractServices' | 'contractServiceUnits'>

export function seedBilling(companies: Company[], now = new Date()): Billing {
  const services = [
    [501, 'Endpoint Protection (per device)', 'Endpoint protection', 4.5],
    [502, 'Cloud Backup (per TB)', 'Cloud backup storage', 12],
    [503, 'Email Security (per mailbox)', 'Email security', 1.5],
  ].map(([id, name, invoiceDescription, unitPrice]) => ({
    id: Number(id),
    name: String(name),
    description: null,
    invoiceDescription: String(invoiceDescription),
    unitPrice: Number(unitPrice),
    unitCost: Math.round(Number(unitPrice) * 55) / 100,
    isActive: true,
  }))
  const [, first, second] = companies
  const span = { startDate: month(now, -12).startDate, endDate: month(now, 24).endDate }
  const contract = (id: number, companyID: number, contractName: string, status: number) => ({
    id,
    companyID,
    contractName,
    contractNumber: `RS-${id}`,
    contractType: 7,
    status,
    ...span,
    description: null,
  })
  const contracts = [
    ...(first
      ? [
          contract(29684001, first.id, 'Managed Services', 1),
          contract(29684002, first.id, 'Legacy Hosting', 0),
        ]
      : []),
    ...(second ? [contract(29684003, second.id, 'Security Bundle', 1)] : []),
  ]
  // [contract service, contract, service, units, adjusted price]
  const lines: [number, number, number, number, number][] = [
    [7001, 29684001, 501, 5, 4.5],
    [7002, 29684001, 502, 2, 12],
    [7003, 29684002, 503, 10, 1.5],
    [7004, 29684003, 501, 40, 4.25],
  ]
  const present = lines.filter(([, contractID]) => contracts.some((c) => c.id === contractID))
  const contractServices = present.map(([id, contractID, serviceID, , adjustedPrice]) => {
    const service = services.find((s) => s.id === serviceID)
    return {
      id,
      contractID,
      serviceID,
      unitPrice: service?.unitPrice ?? 0,
      unitCost: service?.unitCost ?? 0,
      adjustedPrice,
      invoiceDescription: null,
      internalDescription: null,
      quoteItemID: null,
    }
  })
  let unitId = 31000
  const contractServiceUnits: ContractServiceUnit[] = present.flatMap(
    ([contractServiceID, contractID, serviceID, units, price]) =>
      [-1, 0, 1].map((offset) => ({
        id: unitId++,
        contractID,
        contractServiceID,
        serviceID,
        ...month(now, offset),
        units,
        price,
        cost: Math.round(price * 55) / 100,
        approveAndPostDate: null,
      })),
  )
  return { contracts, services, contractServices, contractServiceUnits }
}
