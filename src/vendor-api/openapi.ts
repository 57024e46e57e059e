// The vendor's operations in the OpenAPI document: the alert calls, the token, setup and self-service
// (see operations.ts). Examples here are the vendor flow of docs/vendor-api.md, written out.
import type { OperationDoc } from '../platform/http/openapi/operation-doc.js'

const integrationId = '01943b2c-5a7e-7b1c-9f3d-2e4a6c8b0d1f'
const messageId = '01943b2d-0c4e-7a10-8c2b-6d9e0f1a2b3c'
const at = '2026-01-31T12:00:00.000Z'

const alertBody = {
  clientId: 'ab_client_3f9c2e',
  clientSecret: 'ab_secret_redacted-example',
  grantType: 'client_credentials',
  scope: 'vendor_manage',
  organizationOemToken: 'org_7Hq2-redacted-example',
  integrationId,
  correlationId: 'edr-4711',
  data: {
    title: 'Malware detected on WS-042',
    summary: 'Trojan.GenericKD quarantined on WS-042 (user j.smith).',
    alertType: 'Malware Detected',
    accountId: 'acme-001',
    productGroup: 'Endpoint Security',
    incidentStatus: 'OPEN',
  },
}
const alertCalls =
  'Credentials travel in the body (camelCase: `grantType`, `clientId` …; no Authorization header). Send an `Idempotency-Key` to make a retry safe. Past the rate limit: 429 with Retry-After. docs/contract.md#alert-request'
const ticket = {
  correlationId: 'edr-4711',
  integrationId,
  status: 'open',
  psaKind: 'connectwise',
  psaTicketId: '48213',
  accountId: 'acme-001',
  productGroup: 'Endpoint Security',
  alertType: 'Malware Detected',
  title: 'Malware detected on WS-042',
  occurrenceCount: 1,
  createdAt: at,
  updatedAt: at,
  closedAt: null,
  closedBy: null,
  psaStatus: 'New',
  psaDeleted: false,
  mergedFrom: null,
}
const account = {
  vendorAccountId: 'acme-001',
  name: 'Acme Corp',
  externalId: 'ACME-001',
  createdAt: at,
  updatedAt: at,
}
const rotation = { rotatedAt: at, previousValidUntil: '2026-02-01T12:00:00.000Z' }
const bearer = 'Bearer token from POST /api/oauth/token.'

export const vendorOperations: Record<string, OperationDoc> = {
  'POST /api/oem-alerts-api/alert/sync': {
    id: 'sendAlertSync',
    description: `The synchronous strategy: the whole decision table runs on the request, the PSA included, and the answer is the outcome — final, not a preview. OPEN creates a ticket (201 created) or appends to the open one (200 updated/suppressed under de-duplication, whose correlationID may differ from the one sent); UPDATE appends; RESOLVED closes (200 "closed"). Keep the answer's correlationID for the UPDATE and RESOLVED of the same ticket. ${alertCalls}`,
    body: alertBody,
    answers: {
      '201': { statusCode: 201, message: 'created', data: { messageId, correlationID: 'edr-4711' } },
      '200': { statusCode: '200', message: 'closed', data: { messageId, correlationID: 'edr-4711' } },
    },
    responses: {
      '201': 'created: a ticket was opened in the PSA.',
      '200':
        'updated, suppressed or closed: what happened to the existing ticket (statusCode is the string "200" for closed).',
      '502':
        'The PSA failed or timed out; with Retry-After when the PSA asked to wait: send the same alert again then. Error code: PSA_ERROR.',
    },
  },
  'POST /api/oem-alerts-api/alert': {
    id: 'sendAlert',
    description: `The webhook strategy: checks the credentials, the rate limit and the integration, previews the decision from what is stored, queues the alert and answers at once. The answer is a preview; the outcome arrives as a signed status_update webhook (docs/webhooks.md), which is final. ${alertCalls}`,
    body: alertBody,
    answers: { '201': { message: 'created', data: { messageId, correlationId: 'edr-4711' } } },
    responses: {
      '201': 'created (preview): the alert is queued; the status_update event says what happened.',
      '200': 'updated, closed, suppressed or failed (preview; failed with `error` and `detail`).',
    },
  },
  'POST /api/oem-alerts-api/alerts': {
    id: 'sendAlertAlias',
    description: `The same call as POST /api/oem-alerts-api/alert, under the contract's other spelling. ${alertCalls}`,
    body: alertBody,
    answers: { '201': { message: 'created', data: { messageId, correlationId: 'edr-4711' } } },
  },
  'GET /api/oem-alerts-api/alert': {
    id: 'listTickets',
    description: `The tickets your alerts made, newest first, paged with \`cursor\`. ${bearer}`,
    answers: { '200': { data: [ticket], nextCursor: null } },
  },
  'GET /api/oem-alerts-api/alert/{correlationId}': {
    id: 'getTicket',
    description: `One ticket by the correlationId its alerts carry, with its events (what each alert did). 409 when the correlationId names tickets of several integrations and the token is unbound: name one with ?integrationId=. ${bearer}`,
  },
  'POST /api/oauth/token': {
    id: 'getToken',
    answers: {
      '200': {
        access_token: 'abt_9b1f-redacted-example',
        token_type: 'Bearer',
        expires_in: 3600,
        scope: 'vendor_manage',
        integration_id: integrationId,
      },
    },
    responses: { '200': 'A bearer token (Cache-Control: no-store).' },
  },
  'POST /api/vendor-api/organization/accounts': {
    id: 'createAccounts',
    description: `The partner maps these accounts to PSA companies; an alert's data.accountId names one. ${bearer}`,
    body: { vendorAccountId: 'acme-001', name: 'Acme Corp', externalId: 'ACME-001' },
    answers: { '201': account, '200': account },
  },
  'GET /api/vendor-api/organization/accounts': {
    id: 'listAccounts',
    description: `Paged by vendorAccountId with \`cursor\`. ${bearer}`,
    answers: { '200': { data: [account], nextCursor: null } },
  },
  'POST /api/vendor-api/organization/services': {
    id: 'createService',
    description: `A service (a product the partner bills), for usage counts. ${bearer}`,
    body: { id: 'edr-seat', name: 'EDR seat', description: 'One protected endpoint' },
  },
  'GET /api/vendor-api/organization/services': {
    id: 'listServices',
    description: `Paged by id with \`cursor\`. ${bearer}`,
  },
  'GET /api/vendor-api/status/mapping': {
    id: 'getIntegrationStatus',
    description: `created → mapping (you) → pending (the partner completed the mapping) → connected (first alert or count). Alerts need pending or connected. ${bearer}`,
    answers: { '200': { integrationId, state: 'pending' } },
  },
  'PATCH /api/vendor-api/status/mapping': {
    id: 'startMapping',
    description: `Tells the partner the integration is ready to be mapped (created → mapping); the partner then maps accounts, adds a rule and completes the mapping. An unbound token names the integration with \`id\`. ${bearer}`,
    body: {},
    answers: { '200': { integrationId, state: 'mapping' } },
  },
  'POST /api/vendor-api/service/{serviceId}/count': {
    id: 'sendUsageCount',
    description: `The units of a service an account uses now; the partner's PSA billing line follows it. Needs pending or connected. ${bearer}`,
    body: { unitCount: 42, accountId: 'acme-001' },
  },
  'GET /api/vendor-api/service/{serviceId}/count': {
    id: 'listUsageCounts',
    description: `Every count sent for a service, newest first, paged. ${bearer}`,
  },
  'PUT /api/vendor-api/product-groups': {
    id: 'setProductGroups',
    description: `Replaces your static catalogue: the product groups and alert types partners write rules for, and alerts name. ${bearer}`,
    body: {
      productGroups: [
        { productGroup: 'Endpoint Security', alertTypes: ['Malware Detected', 'Agent Offline'] },
        { productGroup: 'Backup', alertTypes: 'Backup Failed,Backup Warning' },
      ],
    },
  },
  'GET /api/vendor-api/product-groups': {
    id: 'getProductGroups',
    description: `Your static list, your endpoint for a dynamic one, and the list in effect for the bound integration. ${bearer}`,
  },
  'GET /api/vendor-api/usage': {
    id: 'listLatestUsage',
    description: `The latest count per service and account of the integration, paged. ${bearer}`,
  },
  'GET /api/oem-api/integration/list': {
    id: 'listIntegrations',
    description: `Every integration of yours (or the bound one) with what an alert needs: state, alerting, product groups, mapped accounts. ${bearer}`,
    answers: {
      '200': {
        data: [
          {
            integrationId,
            vendorUserId: '01943b2b-77aa-7c00-9e00-112233445566',
            partnerName: 'Best MSP',
            state: 'pending',
            isIntegrationActive: true,
            isAlertsEnabled: true,
            productGroups: { 'Endpoint Security': ['Malware Detected', 'Agent Offline'] },
            accounts: [{ vendorAccountId: 'acme-001', name: 'Acme Corp', psaCompanyId: '100' }],
            createdAt: at,
            updatedAt: at,
          },
        ],
        nextCursor: null,
      },
    },
  },
  'GET /api/vendor-api/credentials': {
    id: 'getCredentialRotations',
    description: `Rotation times only; no secret is ever shown again. ${bearer}`,
    answers: { '200': { clientSecret: rotation, webhookSecret: rotation } },
  },
  'POST /api/vendor-api/credentials/client-secret/rotate': {
    id: 'rotateClientSecret',
    description: `Answers the new secret once; the replaced one keeps working overlapSeconds (default 24 h) so that every process can switch. ${bearer}`,
    body: { clientSecret: 'ab_secret_redacted-example', overlapSeconds: 86400 },
  },
  'POST /api/vendor-api/credentials/client-secret/end-overlap': {
    id: 'endClientSecretOverlap',
    description: `Once every process uses the new secret. ${bearer}`,
    body: { clientSecret: 'ab_secret_redacted-example' },
  },
  'POST /api/vendor-api/credentials/webhook-secret/rotate': {
    id: 'rotateWebhookSecret',
    description: `Answers the new whsec_ secret once; until the overlap ends each delivery carries a signature by each secret, so a verifier with either passes. ${bearer}`,
    body: { clientSecret: 'ab_secret_redacted-example', overlapSeconds: 86400 },
  },
  'POST /api/vendor-api/credentials/webhook-secret/end-overlap': {
    id: 'endWebhookSecretOverlap',
    description: `Once your verifier has the new secret. ${bearer}`,
    body: { clientSecret: 'ab_secret_redacted-example' },
  },
  'GET /api/vendor-api/webhook': {
    id: 'getWebhookSettings',
    description: `Where your events go and whether deliveries currently work. ${bearer}`,
    answers: {
      '200': {
        url: 'https://vendor.example.com/alertbridge/webhook',
        hasAuthHeader: false,
        state: 'active',
        stateReason: null,
        failingSince: null,
        secretRotation: rotation,
        listeningUntil: null,
      },
    },
  },
  'PUT /api/vendor-api/webhook': {
    id: 'setWebhookSettings',
    body: { url: 'https://vendor.example.com/alertbridge/webhook', authHeader: null },
  },
  'POST /api/vendor-api/webhook/test': {
    id: 'sendTestEvent',
    body: { event: 'Ticket Created' },
  },
  'GET /api/vendor-api/integrations': {
    id: 'listVendorIntegrations',
    description: `Richer than GET /api/oem-api/integration/list: partner, state, alerting, mapped account count, last alert time and organizationOemToken rotation. ${bearer}`,
  },
  'GET /api/vendor-api/events': { id: 'pollEvents' },
  'POST /api/vendor-api/test-alert': {
    id: 'sendTestAlert',
    body: { incidentStatus: 'OPEN', title: 'Checking the integration' },
    answers: {
      '201': { statusCode: 201, message: 'created', data: { messageId, correlationID: 'test-4711' } },
    },
  },
  'GET /api/vendor-api/deliveries': {
    id: 'listDeliveries',
    description: `Your webhook deliveries, newest first, with every attempt (your endpoint's answers included); filter by status and integration. ${bearer}`,
  },
  'GET /api/vendor-api/deliveries/{id}': {
    id: 'getDelivery',
    description: `One delivery (its id is the webhook-id header) with its attempts and the payload as sent. ${bearer}`,
  },
  'POST /api/vendor-api/deliveries/{id}/replay': {
    id: 'replayDelivery',
    description: `A dead delivery is sent once more with the same webhook-id (de-duplicate on it). 409 if it is not dead. ${bearer}`,
  },
  'POST /api/vendor-api/deliveries/replay': {
    id: 'replayDeliveries',
    description: `Every delivery of yours that died since a time, sent again (after fixing your endpoint). ${bearer}`,
    body: { since: '2026-01-31T00:00:00Z' },
  },
}
