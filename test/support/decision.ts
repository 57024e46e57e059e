// Builders for the decision table's inputs, shared by the domain tests: a connected integration with
// one rule, one mapped account and a small catalogue; each test overrides what it is about.

import type { DecisionContext } from '../../src/alerts/domain/decide.js'
import type { Rule } from '../../src/alerts/rules/rules.js'
import type { AlertFacts, Ticket } from '../../src/platform/core/types.js'
import type { IntegrationSettings } from '../../src/tenants/integrations/integration.js'
import { toProductGroups } from '../../src/tenants/product-groups/product-groups.js'

export const now = new Date('2026-11-22T12:00:00.000Z')

export const rule = (over: Partial<Rule> = {}): Rule => ({
  id: 'rule-1',
  precedence: 10,
  enabled: true,
  productGroup: 'Endpoint Security',
  alertTypes: [],
  action: 'ticket',
  suppressStatuses: [],
  ticket: { board: null, priority: null, type: null, status: null, closedStatus: null },
  conditions: [],
  templates: { title: null, description: null },
  createdAt: '2026-11-01T00:00:00.000Z',
  ...over,
})

export const ticket = (over: Partial<Ticket> = {}): Ticket => ({
  id: 'ticket-1',
  correlationId: 'cid-1',
  status: 'open',
  accountId: 'acme',
  productGroup: 'Endpoint Security',
  alertType: 'Malware Detected',
  title: 'Malware',
  ruleId: 'rule-1',
  psaKind: 'sandbox',
  psaTicketId: 'SBX-1001',
  dedupKey: 'key',
  occurrenceCount: 1,
  leaseUntil: null,
  lastOccurrenceAt: '2026-11-22T11:55:00.000Z',
  createdAt: '2026-11-22T11:55:00.000Z',
  closedAt: null,
  closedBy: null,
  psaStatus: null,
  psaDeleted: false,
  ...over,
})

export const settings = (over: Partial<IntegrationSettings> = {}): IntegrationSettings => ({
  state: 'connected',
  alertsEnabled: true,
  ticketCreation: true,
  selfHealing: true,
  deduplication: {
    enabled: true,
    keyFields: ['accountId', 'productGroup', 'alertType'],
    windowMinutes: null,
  },
  closedTickets: { policy: 'refuse', reopenWindowMinutes: 1440, closeOnlyUntouched: false },
  ...over,
})

export function ctx(alert: Partial<AlertFacts> = {}, over: Partial<DecisionContext> = {}): DecisionContext {
  return {
    alert: {
      incidentStatus: 'OPEN',
      correlationId: undefined,
      title: 'Malware',
      summary: '',
      accountId: 'acme',
      productGroup: 'Endpoint Security',
      alertType: 'Malware Detected',
      ...alert,
    },
    integration: settings(),
    catalogue: toProductGroups({
      'Endpoint Security': ['Malware Detected', 'Agent Offline'],
      Backup: ['Backup Failed'],
    }),
    accountKnown: true,
    mappings: new Map([['acme', { accountId: 'acme', psaCompanyId: '100', board: null }]]),
    rules: [rule()],
    ticket: null,
    dedupKey: 'key',
    dedupTicket: null,
    newCorrelationId: 'new-cid',
    now,
    ...over,
  }
}
