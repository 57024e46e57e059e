// The data a fresh ConnectWise simulator holds: boards with their statuses and types, priorities,
// companies, tickets (more than one page of the ticket list, some carrying another integration's
// externalXRef), and catalogue products billed on agreements. Ids are deliberately not 1..n in one run
// per kind (ConnectWise ids are global per table), so a client that guesses ids instead of looking them
// up is caught.
import type {
  CwAddition,
  CwAgreement,
  CwBoard,
  CwCompany,
  CwPriority,
  CwProduct,
  CwStatus,
  CwTicket,
  CwType,
} from './types.js'

interface SeedOptions {
  companies: number
}

function status(
  id: number,
  name: string,
  sortOrder: number,
  extra: Partial<Omit<CwStatus, 'id' | 'name' | 'sortOrder'>> = {},
): CwStatus {
  return {
    id,
    name,
    sortOrder,
    closedStatus: false,
    defaultFlag: false,
    inactive: false,
    displayOnBoard: true,
    escalationStatus: 'NotResponded',
    timeEntryNotAllowed: false,
    ...extra,
  }
}

function type(id: number, name: string, defaultFlag = false): CwType {
  return { id, name, category: 'Reactive', defaultFlag, inactiveFlag: false }
}

export function seedBoards(): CwBoard[] {
  return [
    {
      id: 1,
      name: 'Service Desk',
      inactiveFlag: false,
      projectFlag: false,
      statuses: [
        status(11, 'New', 0, { defaultFlag: true }),
        status(12, 'In Progress', 1, { escalationStatus: 'Responded' }),
        status(13, 'Waiting on Customer', 2, { escalationStatus: 'Responded' }),
        // Sounds closed, is not: the ticket stays open.
        status(14, 'Resolved', 3, { escalationStatus: 'Resolved' }),
        status(15, 'Closed (resolved)', 4, { closedStatus: true, escalationStatus: 'Resolved' }),
        status(16, 'Cancelled', 5, { closedStatus: true, escalationStatus: 'NoEscalation' }),
        status(17, 'Legacy Queue', 6, { inactive: true, displayOnBoard: false }),
        // What a technician's merge closes the absorbed ticket with (docs/psa/connectwise.md, "Two-way sync").
        status(18, 'Closed (merged)', 7, { closedStatus: true, escalationStatus: 'NoEscalation' }),
      ],
      types: [type(101, 'Incident', true), type(102, 'Service Request'), type(103, 'Problem')],
    },
    {
      id: 2,
      name: 'Security',
      inactiveFlag: false,
      projectFlag: false,
      statuses: [
        status(21, 'New', 0, { defaultFlag: true }),
        status(22, 'Investigating', 1, { escalationStatus: 'Responded' }),
        status(23, 'Resolved', 2, { escalationStatus: 'Resolved' }),
        status(24, 'Closed (resolved)', 3, { closedStatus: true, escalationStatus: 'Resolved' }),
      ],
      types: [type(201, 'Alert', true), type(202, 'Incident')],
    },
    {
      id: 4,
      name: 'Monitoring Alerts',
      inactiveFlag: false,
      projectFlag: false,
      statuses: [
        status(41, 'New (alert)', 0, { defaultFlag: true }),
        status(42, 'Acknowledged', 1, { escalationStatus: 'Responded' }),
        status(43, '>Closed', 2, { closedStatus: true, escalationStatus: 'Resolved' }),
      ],
      types: [type(401, 'Monitoring', true)],
    },
  ]
}

export function seedPriorities(): CwPriority[] {
  return [
    { id: 8, name: 'Priority 1 - Critical', color: 'Red', defaultFlag: false, sortOrder: 1 },
    { id: 7, name: 'Priority 2 - High', color: 'Orange', defaultFlag: false, sortOrder: 2 },
    { id: 4, name: 'Priority 3 - Medium', color: 'Yellow', defaultFlag: true, sortOrder: 3 },
    { id: 6, name: 'Priority 4 - Low', color: 'Green', defaultFlag: false, sortOrder: 4 },
  ]
}

const WORDS = ['Northwind', 'Contoso', 'Initech', 'Umbrella', 'Stark', 'Wayne', 'Hooli', 'Vandelay']
const SUFFIXES = ['Ltd', 'Inc', 'GmbH', 'LLC', 'Partners']

/** Company 1 is Acme, 2 is Globex, 3 is a deleted one; the rest are generated up to `companies`. */
export function seedCompanies(o: SeedOptions): CwCompany[] {
  const fixed: CwCompany[] = [
    { id: 1, identifier: 'AcmeCorp', name: 'Acme Corporation', deletedFlag: false, phoneNumber: '5550100' },
    { id: 2, identifier: 'Globex', name: 'Globex Corporation', deletedFlag: false, phoneNumber: '5550101' },
    { id: 3, identifier: 'DefunctCo', name: 'Defunct Company', deletedFlag: true, phoneNumber: '' },
  ]
  const out = fixed.slice(0, Math.max(0, o.companies))
  for (let i = out.length + 1; i <= o.companies; i++) {
    const word = WORDS[i % WORDS.length] ?? 'Company'
    const suffix = SUFFIXES[i % SUFFIXES.length] ?? 'Ltd'
    const n = String(i).padStart(4, '0')
    out.push({
      id: i,
      identifier: `${word}${n}`,
      name: `${word} ${n} ${suffix}`,
      deletedFlag: false,
      phoneNumber: `555${n}`,
    })
  }
  return out
}

export function seedProducts(): CwProduct[] {
  return [
    { id: 901, identifier: 'AV-SEAT', description: 'Endpoint protection, per seat' },
    { id: 902, identifier: 'BACKUP-TB', description: 'Cloud backup, per TB' },
    { id: 903, identifier: 'MAIL-SEC', description: 'Mail security, per mailbox' },
  ]
}

function addition(
  id: number,
  productId: number,
  quantity: number,
  unitPrice: number,
  cancelledDate: string | null = null,
): CwAddition {
  return {
    id,
    productId,
    quantity,
    lessIncluded: 0,
    unitPrice,
    unitCost: Math.round(unitPrice * 60) / 100,
    billCustomer: 'Billable',
    effectiveDate: '2024-01-01T00:00:00Z',
    cancelledDate,
    invoiceDescription: null,
    lastUpdated: '2024-01-15T12:00:00Z',
  }
}

/**
 * Acme (company 1) has a managed-services agreement with two live additions and one cancelled, and a
 * cancelled agreement; Globex (company 2) has one agreement with one addition.
 */
export function seedAgreements(): CwAgreement[] {
  const agreement = (id: number, name: string, companyId: number, additions: CwAddition[]) => ({
    id,
    name,
    companyId,
    typeName: 'Managed Services',
    startDate: '2024-01-01T00:00:00Z',
    cancelledFlag: false,
    dateCancelled: null,
    additions,
  })
  return [
    agreement(112, 'Acme - Managed Services', 1, [
      addition(3301, 901, 25, 4.5),
      addition(3302, 902, 4, 12),
      addition(3303, 903, 30, 1.5, '2024-06-30T00:00:00Z'),
    ]),
    {
      ...agreement(113, 'Acme - Legacy Backup', 1, [addition(3304, 902, 2, 15)]),
      cancelledFlag: true,
      dateCancelled: '2024-03-31T00:00:00Z',
    },
    agreement(118, 'Globex - Security Bundle', 2, [addition(3310, 901, 40, 4.25)]),
  ]
}

/**
 * `count` tickets from id `firstId` on, entered over the past days: spread over the boards and the live
 * companies, one in four closed, every third carrying an externalXRef of its own (a few in upper case,
 * as another integration might write them), each with a note or two.
 */
export function seedTickets(
  o: { count: number; firstId: number; firstNoteId: number; member: string },
  boards: CwBoard[],
  companies: CwCompany[],
): CwTicket[] {
  const live = companies.filter((c) => !c.deletedFlag)
  const tickets: CwTicket[] = []
  let noteId = o.firstNoteId
  const start = Date.now() - o.count * 60 * 60 * 1000
  for (let i = 0; i < o.count; i++) {
    const board = boards[i % boards.length]
    const company = live[i % live.length]
    if (!board || !company) break
    const closed = i % 4 === 3
    const status = closed
      ? board.statuses.find((s) => s.closedStatus)
      : (board.statuses.find((s) => s.defaultFlag) ?? board.statuses[0])
    const at = new Date(start + i * 60 * 60 * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z')
    const id = o.firstId + i
    const notes = Array.from({ length: 1 + (i % 2) }, (_, n) => ({
      id: noteId++,
      ticketId: id,
      text: `Checked by the technician (${n + 1}).\n\nMessage ID: seeded-${id}-${n}`,
      detailDescriptionFlag: false,
      internalAnalysisFlag: true,
      resolutionFlag: false,
      customerUpdatedFlag: false,
      dateCreated: at,
      createdBy: 'tech1',
      lastUpdated: at,
    }))
    tickets.push({
      id,
      summary: `${['Printer offline', 'VPN drops', 'Disk space low', 'New starter'][i % 4]} (${id})`,
      boardId: board.id,
      statusId: status?.id ?? 0,
      companyId: company.id,
      priorityId: [8, 7, 4, 6][i % 4] ?? 4,
      typeId: board.types.find((t) => t.defaultFlag)?.id ?? null,
      externalXRef: i % 3 === 0 ? (i % 9 === 0 ? `SEEDED-REF-${i}` : `seeded-ref-${i}`) : null,
      initialDescription: null,
      severity: 'Medium',
      impact: 'Medium',
      closedFlag: closed,
      closedDate: closed ? at : null,
      closedBy: closed ? 'tech1' : null,
      dateEntered: at,
      enteredBy: o.member,
      lastUpdated: at,
      updatedBy: 'tech1',
      notes,
    })
  }
  return tickets
}
