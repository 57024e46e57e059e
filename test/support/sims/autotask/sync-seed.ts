// The two-way sync side of a fresh simulated tenant (docs/psa/autotask.md#two-way-sync): the field
// definitions of Resources, TimeEntries and the ticket webhook entities (TicketWebhooks,
// TicketWebhookFields, TicketWebhookExcludedResources), the `fieldID` picklist a webhook field names a
// ticket field by, and the seeded resources: the API user's own (whose writes the API records) and two
// technicians.
import type { FieldSpec } from './seed.js'
import type { AutotaskState, PicklistValue, Resource } from './types.js'

const f = (name: string, dataType: FieldSpec['dataType'], o: Omit<FieldSpec, 'name' | 'dataType'> = {}) => ({
  name,
  dataType,
  ...o,
})
const readOnly = { readOnly: true }

/** The resource the technician actions are recorded as (`sim.technician`). */
export const TECH_RESOURCE_ID = 29682885

export const syncFieldSpecs: Record<string, FieldSpec[]> = {
  Resources: [
    f('id', 'long', readOnly),
    f('userName', 'string', { length: 50, readOnly: true }),
    f('email', 'string', { length: 254, readOnly: true }),
    f('firstName', 'string', { length: 50, readOnly: true }),
    f('lastName', 'string', { length: 50, readOnly: true }),
    f('isActive', 'boolean', readOnly),
  ],
  TimeEntries: [
    f('id', 'long', readOnly),
    f('ticketID', 'integer', { reference: 'Ticket' }),
    f('resourceID', 'integer', { required: true, reference: 'Resource' }),
    f('dateWorked', 'datetime'),
    f('hoursWorked', 'double'),
    f('summaryNotes', 'string', { length: 8000 }),
    f('createDateTime', 'datetime', readOnly),
  ],
  TicketWebhooks: [
    f('id', 'long', readOnly),
    f('name', 'string', { length: 50, required: true }),
    f('webhookUrl', 'string', { length: 500, required: true }),
    f('deactivationUrl', 'string', { length: 500, required: true }),
    f('secretKey', 'string', { length: 64, required: true }),
    f('isActive', 'boolean', { required: true }),
    f('isReady', 'boolean', readOnly),
    f('isSubscribedToCreateEvents', 'boolean'),
    f('isSubscribedToUpdateEvents', 'boolean'),
    f('isSubscribedToDeleteEvents', 'boolean'),
    f('notificationEmailAddress', 'string', { length: 150 }),
    f('sendThresholdExceededNotification', 'boolean', { required: true }),
    f('ownerResourceID', 'integer', { readOnly: true, reference: 'Resource' }),
    f('webhookGUID', 'string', { length: 36, readOnly: true }),
  ],
  TicketWebhookFields: [
    f('id', 'long', readOnly),
    f('webhookID', 'integer', { required: true, reference: 'TicketWebhook' }),
    f('fieldID', 'integer', { required: true, picklist: true }),
    f('isSubscribedField', 'boolean', { required: true }),
    f('isDisplayAlwaysField', 'boolean', { required: true }),
  ],
  TicketWebhookExcludedResources: [
    f('id', 'long', readOnly),
    f('webhookID', 'integer', { required: true, reference: 'TicketWebhook' }),
    f('resourceID', 'integer', { required: true, reference: 'Resource' }),
  ],
}

/** The ticket fields a webhook field may name: its fieldID, the label, the Tickets field it stands for. */
export const webhookTicketFields: [id: number, label: string, field: string][] = [
  [4, 'Status', 'status'],
  [5, 'Priority', 'priority'],
  [7, 'Queue', 'queueID'],
  [9, 'Title', 'title'],
  [12, 'Primary Resource', 'assignedResourceID'],
  [28, 'Last Activity Date', 'lastActivityDate'],
  [31, 'External ID', 'externalID'],
]

const pick = (value: number, label: string, i: number): PicklistValue => ({
  value: String(value),
  label,
  isDefaultValue: false,
  sortOrder: i + 1,
  parentValue: '',
  isActive: true,
  isSystem: true,
})

export function syncPicklists(): AutotaskState['picklists'] {
  return { TicketWebhookFields: { fieldID: webhookTicketFields.map(([id, label], i) => pick(id, label, i)) } }
}

/** The API user's resource (its id is what the API records its writes as) and two technicians. */
export function seedResources(apiUser: string, apiResourceId: number): Resource[] {
  return [
    {
      id: TECH_RESOURCE_ID,
      userName: 'tess.tech',
      email: 'tess.tech@acme.example',
      firstName: 'Tess',
      lastName: 'Tech',
      isActive: true,
    },
    {
      id: 29682886,
      userName: 'niko.noc',
      email: 'niko.noc@acme.example',
      firstName: 'Niko',
      lastName: 'Noc',
      isActive: true,
    },
    {
      id: apiResourceId,
      userName: apiUser,
      email: apiUser,
      firstName: 'API User',
      lastName: 'alertbridge',
      isActive: true,
    },
  ].sort((a, b) => a.id - b.id)
}
