// The words of the integration's settings, shared by the admin's form (pages/IntegrationSettings.tsx)
// and the viewer's text of them (components/SettingsFacts.tsx).
import type { Integration } from './api/types'

export const keyFields = [
  { id: 'accountId', label: 'Account' },
  { id: 'productGroup', label: 'Product group' },
  { id: 'alertType', label: 'Alert type' },
  { id: 'title', label: 'Title' },
] as const
export type KeyField = (typeof keyFields)[number]['id']

// Each switch: what it decides (whatever the box says), then what happens now, in words matching the box.
export const switches = [
  {
    id: 'alertsEnabled',
    label: 'Alerting',
    hint: "Whether this vendor's alerts are taken at all.",
    on: 'alerts are taken and handled by your rules.',
    off: 'the vendor is told alerting is disabled, and nothing is created.',
  },
  {
    id: 'ticketCreation',
    label: 'Ticket creation',
    hint: 'Whether new alerts open tickets in your PSA.',
    on: 'a new alert opens a ticket, as its rule says.',
    off: 'new alerts are recorded as suppressed, with no ticket.',
  },
  {
    id: 'selfHealing',
    label: 'Self-healing',
    hint: 'Whether a resolved alert closes its ticket.',
    on: 'a resolved alert closes its ticket with a resolution note.',
    off: 'a resolved alert is recorded and its ticket left as it is, for a technician to close.',
  },
] as const

export type Policy = Integration['closedTickets']['policy']
export const maxHours = 525600 / 60

/** Hours as typed from minutes as stored: 1440 → "24", 90 → "1.5". */
export const hoursOf = (minutes: number) => String(Math.round((minutes / 60) * 100) / 100)

export function policies(hours: string): { id: Policy; label: string; hint: string }[] {
  const n = Number(hours)
  const within =
    hours.trim() && Number.isFinite(n) && n > 0 ? `${hours.trim()} hour${n === 1 ? '' : 's'}` : 'N hours'
  return [
    {
      id: 'refuse',
      label: 'Refuse',
      hint: 'The vendor is told the ticket is closed; nothing changes in the PSA.',
    },
    {
      id: 'reopen',
      label: 'Reopen the ticket',
      hint: `Within ${within} of closing, the ticket is reopened with the alert as a note; older ones get a new ticket.`,
    },
    {
      id: 'new',
      label: 'Open a new ticket that links the closed one',
      hint: 'The closed ticket stays closed; the new one names it.',
    },
  ]
}
