// What the simulated NinjaOne starts with: organizations over several pages, two ticket forms (one
// marked default), NinjaOne's system statuses with two custom ones (one whose display name only
// sounds closed, its parent WAITING; one named "Done" under CLOSED), system and custom boards, and
// tickets that are not ours.
import type { NinjaState, NinjaStatus, NinjaTicket } from './types.js'

export const seedOrganizations = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    name: i === 0 ? 'Acme Corp' : `Organization ${String(i + 1).padStart(4, '0')}`,
    description: '',
  }))

export const seedStatuses = (): NinjaStatus[] => [
  { statusId: 1000, name: 'NEW', displayName: 'New', parentId: null },
  { statusId: 2000, name: 'OPEN', displayName: 'Open', parentId: null },
  { statusId: 3000, name: 'WAITING', displayName: 'Waiting', parentId: null },
  { statusId: 4000, name: 'PAUSED', displayName: 'Paused', parentId: null },
  { statusId: 5000, name: 'RESOLVED', displayName: 'Resolved', parentId: null },
  { statusId: 6000, name: 'CLOSED', displayName: 'Closed', parentId: null },
  { statusId: 7001, name: 'CUSTOM_7001', displayName: 'Closed - Awaiting Customer', parentId: 3000 },
  { statusId: 7002, name: 'CUSTOM_7002', displayName: 'Done', parentId: 6000 },
]

export const closedStatusIds = (statuses: readonly NinjaStatus[]): number[] => {
  const closed = (s: NinjaStatus | undefined) => s?.name === 'RESOLVED' || s?.name === 'CLOSED'
  return statuses
    .filter((s) => closed(s) || closed(statuses.find((p) => p.statusId === s.parentId)))
    .map((s) => s.statusId)
}

export const seedForms = () => [
  { id: 1, name: 'Default', default: true },
  { id: 2, name: 'Security Alert', default: false },
]

export const seedBoards = () => [
  { id: 1, name: 'All tickets', system: true },
  { id: 2, name: 'Open tickets', system: true },
  { id: 10, name: 'Security team', system: false },
]

export function seedTickets(state: Pick<NinjaState, 'organizations'>, n: number): NinjaTicket[] {
  const now = Math.floor(Date.now() / 1000)
  return Array.from({ length: n }, (_, i) => ({
    id: 1001 + i,
    version: 1,
    clientId: state.organizations[i % 4 === 0 ? i % state.organizations.length : 0]?.id ?? 1,
    ticketFormId: 1,
    subject: `Printer offline on floor ${(i % 7) + 1}`,
    statusId: i % 3 === 0 ? 6000 : 1000,
    type: 'PROBLEM',
    priority: 'NONE',
    severity: 'NONE',
    tags: [],
    createTime: now - (n - i) * 60,
    lastUpdated: now - (n - i) * 60,
    deleted: false,
    requesterUid: null,
    totalTimeTracked: 0,
    log: [],
  }))
}
