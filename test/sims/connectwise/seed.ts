// The data a fresh ConnectWise simulator holds: boards with their statuses and types, priorities and
// companies. Ids are deliberately not 1..n in one run per kind (ConnectWise ids are global per table),
// so a client that guesses ids instead of looking them up is caught.
import type { CwBoard, CwCompany, CwPriority, CwStatus, CwType } from './types.js'

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
