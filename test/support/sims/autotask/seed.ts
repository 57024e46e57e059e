// What a fresh simulated Autotask tenant holds: the entity field definitions (what
// `{Entity}/entityInformation/fields` answers, and what validation and queries go by), the picklists
// (values taken from real tenants where public sources show them), and `companies` seeded companies.
// Contracts and their services live in billing-seed.ts.
import { billingFieldSpecs, billingPicklists } from './billing-seed.js'
import { syncFieldSpecs, syncPicklists } from './sync-seed.js'
import type { AutotaskState, Company, PicklistValue, Ticket } from './types.js'

export type DataType = 'integer' | 'long' | 'double' | 'string' | 'boolean' | 'datetime'

export interface FieldSpec {
  name: string
  dataType: DataType
  length?: number
  required?: boolean
  readOnly?: boolean
  picklist?: boolean
  reference?: string
  /** For a dependent picklist: the field whose value its `parentValue` names. */
  parentField?: string
}

const f = (name: string, dataType: DataType, o: Omit<FieldSpec, 'name' | 'dataType'> = {}): FieldSpec => ({
  name,
  dataType,
  ...o,
})

/** Entities this simulator serves, with their canonical (Autotask) spelling. */
export const fieldSpecs: Record<string, FieldSpec[]> = {
  Tickets: [
    f('id', 'long', { readOnly: true }),
    f('ticketNumber', 'string', { length: 50, readOnly: true }),
    f('companyID', 'integer', { required: true, reference: 'Company' }),
    f('title', 'string', { length: 255, required: true }),
    f('description', 'string', { length: 8000 }),
    f('status', 'integer', { required: true, picklist: true }),
    f('priority', 'integer', { required: true, picklist: true }),
    f('queueID', 'integer', { picklist: true }),
    f('issueType', 'integer', { picklist: true }),
    f('subIssueType', 'integer', { picklist: true, parentField: 'issueType' }),
    f('source', 'integer', { picklist: true }),
    f('ticketType', 'integer', { picklist: true }),
    f('ticketCategory', 'integer', { picklist: true }),
    f('externalID', 'string', { length: 50 }),
    f('resolution', 'string', { length: 32000 }),
    f('contactID', 'integer', { reference: 'Contact' }),
    f('companyLocationID', 'integer', { reference: 'CompanyLocation' }),
    f('assignedResourceID', 'integer', { reference: 'Resource' }),
    f('assignedResourceRoleID', 'integer', { reference: 'Role' }),
    f('dueDateTime', 'datetime'),
    f('createDate', 'datetime', { readOnly: true }),
    f('lastActivityDate', 'datetime', { readOnly: true }),
    f('completedDate', 'datetime', { readOnly: true }),
    f('completedByResourceID', 'integer', { readOnly: true, reference: 'Resource' }),
    f('lastActivityResourceID', 'integer', { readOnly: true, reference: 'Resource' }),
    f('lastActivityPersonType', 'integer', { readOnly: true }),
  ],
  TicketNotes: [
    f('id', 'long', { readOnly: true }),
    f('ticketID', 'integer', { required: true, reference: 'Ticket' }),
    f('title', 'string', { length: 250 }),
    f('description', 'string', { length: 32000, required: true }),
    f('noteType', 'integer', { required: true, picklist: true }),
    f('publish', 'integer', { required: true, picklist: true }),
    f('createDateTime', 'datetime', { readOnly: true }),
    f('lastActivityDate', 'datetime', { readOnly: true }),
    f('creatorResourceID', 'integer', { readOnly: true, reference: 'Resource' }),
    f('createdByContactID', 'integer', { reference: 'Contact' }),
  ],
  Companies: [
    f('id', 'long', { readOnly: true }),
    f('companyName', 'string', { length: 100, required: true }),
    f('companyNumber', 'string', { length: 50 }),
    f('companyType', 'integer', { required: true, picklist: true }),
    f('isActive', 'boolean'),
    f('phone', 'string', { length: 25 }),
    f('city', 'string', { length: 30 }),
    f('createDate', 'datetime', { readOnly: true }),
    f('lastActivityDate', 'datetime', { readOnly: true }),
  ],
  ...billingFieldSpecs,
  ...syncFieldSpecs,
}

/** The canonical entity name for a path segment ("tickets" → "Tickets"), or undefined. */
export function entityName(segment: string): string | undefined {
  return Object.keys(fieldSpecs).find((name) => name.toLowerCase() === segment.toLowerCase())
}

/** The canonical field name for any spelling of it (Autotask field names are case-insensitive). */
export function fieldName(entity: string, name: string): string | undefined {
  return fieldSpecs[entity]?.find((s) => s.name.toLowerCase() === name.toLowerCase())?.name
}

type Pick = [value: number, label: string, o?: Partial<PicklistValue>]

function picklist(values: Pick[]): PicklistValue[] {
  return values.map(([value, label, o], i) => ({
    value: String(value),
    label,
    isDefaultValue: false,
    sortOrder: i + 1,
    parentValue: '',
    isActive: true,
    isSystem: false,
    ...o,
  }))
}

const system = { isSystem: true }

export const COMPLETE = 5

export function seedPicklists(): AutotaskState['picklists'] {
  return {
    Tickets: {
      status: picklist([
        [1, 'New', { isDefaultValue: true, ...system }],
        [5, 'Complete', system],
        [7, 'Waiting Customer'],
        [8, 'In Progress'],
        [9, 'Waiting Materials'],
        [12, 'Waiting Vendor'],
        [29, 'Resolved - Pending Confirmation'],
        [21, 'Escalated (retired)', { isActive: false }],
      ]),
      priority: picklist([
        [1, 'High'],
        [2, 'Medium', { isDefaultValue: true }],
        [3, 'Low'],
        [4, 'Critical'],
      ]),
      queueID: picklist([
        [29682833, 'Client Portal'],
        [29682834, 'Monitoring Alerts'],
        [29682835, 'Service Desk', { isDefaultValue: true }],
        [29682836, 'Old Queue', { isActive: false }],
      ]),
      issueType: picklist([
        [3, 'Hardware'],
        [4, 'Software'],
        [7, 'Network'],
      ]),
      subIssueType: picklist([
        [10, 'Printer', { parentValue: '3' }],
        [11, 'Workstation', { parentValue: '3' }],
        [12, 'Email', { parentValue: '4' }],
        [13, 'Backup', { parentValue: '4' }],
        [14, 'Firewall', { parentValue: '7' }],
      ]),
      source: picklist([
        [-1, 'Client Portal', system],
        [1, 'Other'],
        [2, 'Phone'],
        [4, 'Email'],
        [8, 'Monitoring Alert'],
      ]),
      ticketCategory: picklist([
        [3, 'Standard', { isDefaultValue: true, ...system }],
        [2, 'AEM Alert', system],
        [4, 'RMA', system],
        [101, 'Managed Alerts'],
      ]),
      ticketType: picklist([
        [1, 'Service Request', { isDefaultValue: true, ...system }],
        [2, 'Incident', system],
        [3, 'Problem', system],
        [4, 'Change Request', system],
        [5, 'Alert', system],
      ]),
    },
    TicketNotes: {
      noteType: picklist([
        [1, 'Task Summary', system],
        [2, 'Task Detail', system],
        [3, 'Task Notes', { isDefaultValue: true, ...system }],
        [13, 'Workflow Rule Note', system],
        [18, 'Client Portal Note', system],
        [101, 'Email Note', system],
      ]),
      publish: picklist([
        [1, 'All Autotask Users', { isDefaultValue: true, ...system }],
        [2, 'Internal Project Team', system],
        [4, 'Internal & Co-Managed', system],
      ]),
    },
    Companies: {
      companyType: picklist([
        [1, 'Customer', { isDefaultValue: true, ...system }],
        [2, 'Lead', system],
        [3, 'Prospect', system],
        [7, 'Vendor', system],
        [8, 'Partner', system],
      ]),
    },
    ...billingPicklists(),
    ...syncPicklists(),
  }
}

const words = [
  'Northwind',
  'Contoso',
  'Fabrikam',
  "O'Brien & Sons",
  'Tailspin',
  'Woodgrove',
  'Adatum',
  'Litware',
]

/** Company 0 is the MSP's own company (as in every Autotask tenant); the others get sparse ids. */
export function seedCompanies(count: number): Company[] {
  const at = '2024-01-02T09:00:00Z'
  return Array.from({ length: count }, (_, i) => ({
    id: i === 0 ? 0 : 29683000 + i * 3,
    companyName: i === 0 ? 'Acme MSP' : `${words[i % words.length]} ${String(i).padStart(4, '0')}`,
    companyNumber: i === 0 ? null : `C${i}`,
    companyType: i === 0 ? 8 : 1,
    isActive: true,
    phone: null,
    city: i % 2 ? 'Leeds' : 'Utrecht',
    createDate: at,
    lastActivityDate: at,
  }))
}

/**
 * Tickets already in the tenant before the suite (more than one query page of 500), made by people and
 * by other integrations: some carry an externalID of their own, none of ours.
 */
export function seedTickets(count: number, companies: Company[]): Ticket[] {
  const at = '2024-03-04T08:00:00.000Z'
  return Array.from({ length: count }, (_, i) => ({
    id: 100001 + i,
    ticketNumber: `T20240304.${String(i + 1).padStart(4, '0')}`,
    companyID: companies[i % companies.length]?.id ?? 0,
    title: `${['Printer offline', 'VPN drops', 'Disk space low', 'New starter'][i % 4]} (${i + 1})`,
    description: null,
    status: i % 3 === 0 ? COMPLETE : 1,
    priority: 2,
    queueID: 29682835,
    issueType: null,
    subIssueType: null,
    source: 2,
    ticketType: 1,
    ticketCategory: 3,
    externalID: i % 2 === 0 ? `rmm-${i + 1}` : null,
    resolution: null,
    contactID: null,
    assignedResourceID: null,
    assignedResourceRoleID: null,
    dueDateTime: null,
    createDate: at,
    lastActivityDate: at,
    completedDate: i % 3 === 0 ? at : null,
    completedByResourceID: null,
    lastActivityResourceID: null,
    lastActivityPersonType: null,
    userDefinedFields: [],
  }))
}
