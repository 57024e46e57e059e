// The partner's operations in the OpenAPI document (see operations.ts): the MSP's API and portal calls,
// and the PSAs' pushes. Each is authenticated by the partner API key or the portal session.
import type { OperationDoc } from '../platform/http/openapi/operation-doc.js'
import { portalUserOperations } from '../tenants/people/openapi.js'

const key = 'Partner API key, or the portal session (a change also sends x-csrf-token).'
const admin = 'Portal admins only (a viewer gets 403); or the partner API key.'
const i = '/api/partner/integrations/{id}'

export const partnerOperations: Record<string, OperationDoc> = {
  'GET /api/partner/integrations': {
    id: 'listPartnerIntegrations',
    description: `Paged with \`cursor\`. ${key}`,
  },
  [`GET ${i}`]: {
    id: 'getPartnerIntegration',
    description: `Its state, toggles, de-duplication and closed-ticket policy. ${key}`,
  },
  [`PATCH ${i}`]: {
    id: 'updatePartnerIntegration',
    description: `Only the fields sent change. alertsEnabled false refuses the vendor's alerts (409 ALERTING_DISABLED). ${key}`,
    body: { alertsEnabled: true, deduplication: { enabled: true, windowMinutes: 60 } },
  },
  [`GET ${i}/product-groups`]: {
    id: 'getPartnerProductGroups',
    description: `The vendor's catalogue as it applies to this integration (static, dynamic or a fallback), for writing rules. ${key}`,
  },
  [`POST ${i}/complete-mapping`]: {
    id: 'completeMapping',
    description: `The last setup step: from now on the vendor's alerts become tickets (needs a mapped account; a rule decides which alerts). ${key}`,
  },
  [`GET ${i}/organization-oem-token`]: {
    id: 'getOrgTokenRotation',
    description: `Times only; the token itself is shown once, when minted. ${key}`,
  },
  [`POST ${i}/organization-oem-token/rotate`]: {
    id: 'rotateOrgToken',
    description: `Answers the new organizationOemToken once: hand it to the vendor (it goes in the alert body and, optionally, the token request). The replaced one works overlapSeconds more. ${key}`,
    body: { overlapSeconds: 86400 },
  },
  [`POST ${i}/organization-oem-token/end-overlap`]: {
    id: 'endOrgTokenOverlap',
    description: `Once the vendor uses the new token. ${key}`,
  },
  [`GET ${i}/accounts`]: { id: 'listPartnerAccounts', description: `Paged with \`cursor\`. ${key}` },
  [`PUT ${i}/accounts/{accountId}`]: {
    id: 'mapAccount',
    description: `Alerts for this account then open tickets for this PSA company (and board); its open catch-all tickets are moved there where the PSA can, else noted. ${key}`,
    body: { psaCompanyId: '100', board: 'Service Desk' },
  },
  [`PATCH ${i}/accounts`]: {
    id: 'mapAccounts',
    description: `Several accounts mapped in one transaction, all or none (an undeclared or repeated account refuses all): e.g. every confident suggestion of the setup wizard; each account's open catch-all tickets as for one. ${key}`,
    body: { mappings: [{ accountId: 'acme-001', psaCompanyId: '100' }] },
  },
  [`DELETE ${i}/accounts/{accountId}`]: {
    id: 'unmapAccount',
    description: `Its alerts are then refused (ACCOUNT_NOT_MAPPED), or go to the catch-all account where it is on. ${key}`,
  },
  [`GET ${i}/unmapped-accounts`]: {
    id: 'listUnmappedAccounts',
    description: `The accounts whose OPEN alerts were refused as unmapped or taken in by the catch-all account, with their counts. ${key}`,
  },
  [`GET ${i}/services`]: { id: 'listPartnerServices', description: `Paged with \`cursor\`. ${key}` },
  [`PUT ${i}/services/{serviceId}`]: {
    id: 'mapService',
    description: `Usage counts then update the PSA's billing lines. ${key}`,
    body: { psaProductId: 'EDR-SEAT' },
  },
  [`DELETE ${i}/services/{serviceId}`]: {
    id: 'unmapService',
    description: `Counts stop reaching the PSA. ${key}`,
  },
  [`GET ${i}/services/{serviceId}/accounts`]: {
    id: 'listServiceAccountLines',
    description: `The per-account exceptions to the service's product mapping. ${key}`,
  },
  [`PUT ${i}/services/{serviceId}/accounts/{accountId}`]: {
    id: 'mapServiceAccountLine',
    description: `Takes precedence over the service's product for this account. ${key}`,
    body: { psaLineId: '7741' },
  },
  [`DELETE ${i}/services/{serviceId}/accounts/{accountId}`]: {
    id: 'unmapServiceAccountLine',
    description: `The service's product mapping applies to the account again. ${key}`,
  },
  [`GET ${i}/usage`]: {
    id: 'getPartnerUsage',
    description: `With the accounts and services not mapped yet, whose counts reach no PSA. ${key}`,
  },
  [`GET ${i}/usage/history`]: { id: 'listPartnerUsageHistory', description: `Paged with \`cursor\`. ${key}` },
  [`POST ${i}/usage/push`]: {
    id: 'pushUsage',
    description: `Queues one push per latest count; each runs like a count the vendor sent. ${key}`,
  },
  [`GET ${i}/rules`]: {
    id: 'listRules',
    description: `The first enabled rule matching an alert's product group and type decides what it does. ${key}`,
  },
  [`POST ${i}/rules`]: {
    id: 'createRule',
    description: `Without a matching rule an alert is refused (NO_RULE). ${key}`,
    body: { productGroup: 'Endpoint Security', alertTypes: ['Malware Detected'], action: 'ticket' },
  },
  [`PATCH ${i}/rules/{ruleId}`]: {
    id: 'updateRule',
    description: `Only the fields sent change. ${key}`,
    body: { enabled: false },
  },
  [`DELETE ${i}/rules/{ruleId}`]: {
    id: 'deleteRule',
    description: `Open tickets it made stay; their next alerts find no rule unless another matches. ${key}`,
  },
  [`POST ${i}/template-preview`]: {
    id: 'previewTicketTemplate',
    description: `A rule's title and description templates rendered on a sample alert, escaped as the partner's PSA gets them. ${key}`,
    body: {
      templates: { title: '[{{accountName}}] {{title}}', description: '{{summary}}\n\n{{portalLink}}' },
    },
  },
  [`GET ${i}/extra-fields`]: {
    id: 'listExtraFields',
    description: `The data fields beyond the contract's that recent alerts carried, with examples: what a rule condition can name. ${key}`,
  },
  [`GET ${i}/maintenance-windows`]: {
    id: 'listMaintenanceWindows',
    description: `Each window with activeNow, activeUntil, nextStart and how many alerts it holds. ${key}`,
  },
  [`POST ${i}/maintenance-windows`]: {
    id: 'createMaintenanceWindow',
    description: `One-off (startsAt, endsAt) or recurring (an RFC 5545 RRULE in an IANA time zone, a local startTime and a duration); mode suppress or hold; optionally scoped to accounts, product groups and alert types. ${key}`,
    body: {
      name: 'Sunday patching',
      mode: 'hold',
      recurrence: {
        rrule: 'FREQ=WEEKLY;BYDAY=SU',
        timeZone: 'Europe/Berlin',
        startTime: '01:00',
        durationMinutes: 240,
      },
    },
  },
  [`GET ${i}/maintenance-windows/{windowId}`]: {
    id: 'getMaintenanceWindow',
    description: `The window with activeNow and nextStart. ${key}`,
  },
  [`PUT ${i}/maintenance-windows/{windowId}`]: {
    id: 'replaceMaintenanceWindow',
    description: `Replaces the definition; held alerts the window no longer holds are released. ${key}`,
    body: {
      name: 'Firewall swap',
      mode: 'suppress',
      startsAt: '2026-12-05T22:00:00Z',
      endsAt: '2026-12-06T02:00:00Z',
      scope: { accountIds: ['acme-001'] },
    },
  },
  [`DELETE ${i}/maintenance-windows/{windowId}`]: {
    id: 'deleteMaintenanceWindow',
    description: `The alerts it holds are released at once, through the rules. ${key}`,
  },
  'GET /api/partner/maintenance-occurrences': {
    id: 'listMaintenanceOccurrences',
    description: `For the dashboard's timeline: each occurrence (one-off, or a recurrence expanded in its time zone) of the windows of your integrations, or of integrationId, that overlaps since–until (at most 93 days), in start order; truncated when more than limit overlap. ${key}`,
  },
  [`POST ${i}/dry-run`]: {
    id: 'dryRunAlert',
    description: `The vendor's alert body without credentials: the same decision table as a real alert, nothing written, no PSA call. ${key}`,
    body: {
      data: {
        title: 'Malware detected on WS-042',
        alertType: 'Malware Detected',
        accountId: 'acme-001',
        productGroup: 'Endpoint Security',
        incidentStatus: 'OPEN',
      },
    },
  },
  [`POST ${i}/test-alert`]: {
    id: 'sendPartnerTestAlert',
    description: `A real alert through your rules to your PSA, the ticket's title starting "[TEST] ", answered with its link in the PSA; the vendor gets no webhook for it, and it closes by itself after closeAfterMinutes (default 5; 0 keeps it). 409 saying why when the integration cannot take it. ${key}`,
    body: { accountId: 'acme-001', closeAfterMinutes: 5 },
  },
  [`POST ${i}/test-alert/{correlationId}/close`]: {
    id: 'closePartnerTestAlert',
    description: `Closes a test ticket now; 409 for a ticket no test alert opened. ${key}`,
  },
  'GET /api/partner/tickets': { id: 'listPartnerTickets', description: `Paged with \`cursor\`. ${key}` },
  'GET /api/partner/tickets/{correlationId}': {
    id: 'getPartnerTicket',
    description: `409 when the correlationId names tickets of several integrations: name one with ?integrationId=. ${key}`,
  },
  'GET /api/partner/events': {
    id: 'listPartnerEvents',
    description: `What every alert did, with its stable error code where it failed; filter and page. ${key}`,
  },
  'GET /api/partner/metrics': { id: 'getPartnerMetrics', description: `For the dashboard's charts. ${key}` },
  'GET /api/partner/overview': { id: 'getPartnerOverview', description: `For the dashboard's list. ${key}` },
  'GET /api/partner/failures': {
    id: 'listPartnerFailures',
    description: `Grouped by cause, with what to do about each. ${key}`,
  },
  'GET /api/partner/psa': { id: 'getPsaConnection', description: `Secrets are never shown again. ${key}` },
  'PUT /api/partner/psa': {
    id: 'setPsaConnection',
    description: `The settings of each PSA kind: docs/psa/README.md. ${admin}`,
    body: { kind: 'sandbox' },
  },
  'POST /api/partner/psa/test': { id: 'testPsaConnection', description: `Reads only. ${key}` },
  'GET /api/partner/psa/agreements': {
    id: 'listPsaAgreementLines',
    description: `For PUT …/services/{serviceId}/accounts/{accountId}. ${key}`,
  },
  'GET /api/partner/psa/{what}': {
    id: 'listPsaLookups',
    description: `For mapping accounts (companies, boards) and writing rules (priorities, statuses, types). ${key}`,
  },
  'GET /api/partner/psa/sync': {
    id: 'getPsaSync',
    description: `Two-way sync: how ticket changes made in the PSA come back (docs/psa/sync.md). ${key}`,
  },
  'POST /api/partner/psa/sync/register': {
    id: 'registerPsaPush',
    description: `Read GET /api/partner/psa/sync for the outcome. ${key}`,
  },
  'GET /api/partner/sandbox/tickets': {
    id: 'listSandboxTickets',
    description: `Only with the sandbox PSA (409 otherwise). ${key}`,
  },
  'PATCH /api/partner/sandbox/tickets/{ticketId}': {
    id: 'updateSandboxTicket',
    description: `Two-way sync then reports it, as from a real PSA. Only with the sandbox PSA. ${key}`,
    body: { status: 'Closed' },
  },
  'PUT /api/partner/sandbox/fault': {
    id: 'setSandboxFault',
    description: `Only with the sandbox PSA. ${key}`,
    body: { mode: 'error', operations: ['create'], count: 3 },
  },
  'DELETE /api/partner/sandbox/fault': {
    id: 'clearSandboxFault',
    description: `Only with the sandbox PSA. ${key}`,
  },
  'GET /api/partner/api-key': { id: 'getApiKeyRotation', description: `Times only. ${key}` },
  'POST /api/partner/api-key/rotate': {
    id: 'rotateApiKey',
    description: `Answers the new key once; the replaced one works overlapSeconds more. ${admin}`,
    body: { overlapSeconds: 86400 },
  },
  'POST /api/partner/api-key/end-overlap': {
    id: 'endApiKeyOverlap',
    description: `Once every client uses the new key. ${admin}`,
  },
  ...portalUserOperations,
  'GET /api/partner/deliveries': {
    id: 'listPartnerDeliveries',
    description: `The webhook deliveries of your integrations' events (the vendor's endpoint receives them). ${key}`,
  },
  'GET /api/partner/deliveries/{id}': { id: 'getPartnerDelivery', description: `With its attempts. ${key}` },
  'POST /api/partner/deliveries/{id}/replay': {
    id: 'replayPartnerDelivery',
    description: `Same webhook-id, so the vendor de-duplicates it. 409 if it is not dead. ${key}`,
  },
  'POST /api/partner/deliveries/replay': {
    id: 'replayPartnerDeliveries',
    description: `After the vendor fixed its endpoint. ${key}`,
    body: { since: '2026-01-31T00:00:00Z' },
  },
  'POST /api/psa-push/{token}': {
    id: 'receivePsaPush',
    description:
      'Called by the PSA, at the secret URL alertbridge registered with it (docs/psa/sync.md); not for API clients. The body is the PSA’s own: JSON (415 otherwise) of at most 1 MiB, naming at most 1,000 tickets (413 beyond either).',
  },
  'POST /api/psa-push/{token}/deactivated': {
    id: 'receivePsaPushDeactivated',
    description:
      'Called by Autotask when it stops pushing. Believed only once Autotask reads the webhook back inactive (409 while it reads active); alertbridge then polls until the partner registers the push again. For any other PSA a 404 (docs/psa/sync.md).',
  },
}
