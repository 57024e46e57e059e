// The operator's operations in the OpenAPI document, and the health and metrics endpoints (see
// operations.ts). Every /api/admin call takes the operator token (ADMIN_TOKEN) as a bearer token.
import type { OperationDoc } from '../platform/http/openapi/operation-doc.js'

const op = 'Operator token (ADMIN_TOKEN); the change is in the operator audit log (GET /api/admin/audit).'
const read = 'Operator token (ADMIN_TOKEN).'
const shownOnce =
  'The new value is answered once; the replaced one keeps working overlapSeconds (default 24 h).'

export const adminOperations: Record<string, OperationDoc> = {
  'GET /healthz': {
    id: 'getHealth',
    description: 'For liveness probes: answers while the process runs; no auth.',
  },
  'GET /readyz': { id: 'getReadiness' },
  'GET /metrics': {
    id: 'getMetrics',
    description: 'For Prometheus (docs/operations.md#metrics); no auth: expose it to the scraper only.',
  },
  'POST /api/admin/vendors': {
    id: 'createVendor',
    description: `Answers clientId, clientSecret and webhookSecret once: hand them to the vendor. ${op}`,
    body: {
      name: 'Acme Security',
      webhookUrl: 'https://vendor.example.com/alertbridge/webhook',
      productGroups: { 'Endpoint Security': ['Malware Detected', 'Agent Offline'] },
    },
  },
  'GET /api/admin/vendors': { id: 'listVendors', description: `Paged with \`cursor\`. ${read}` },
  'GET /api/admin/vendors/{id}': { id: 'getVendor', description: `No secret is shown again. ${read}` },
  'PATCH /api/admin/vendors/{id}': {
    id: 'updateVendor',
    description: `Only the fields sent change; a webhook URL is checked before it is kept. ${op}`,
    body: { webhookUrl: 'https://vendor.example.com/alertbridge/webhook' },
  },
  'POST /api/admin/partners': {
    id: 'createPartner',
    description: `Answers the partner API key once. The PSA settings of each kind: docs/psa/README.md. ${op}`,
    body: { name: 'Best MSP', psa: { kind: 'sandbox' } },
  },
  'GET /api/admin/partners': { id: 'listPartners', description: `Paged with \`cursor\`. ${read}` },
  'GET /api/admin/partners/{id}': { id: 'getPartner', description: `PSA secrets masked. ${read}` },
  'PATCH /api/admin/partners/{id}': {
    id: 'updatePartner',
    description: `Only the fields sent change. ${op}`,
    body: { name: 'Best MSP Ltd' },
  },
  'POST /api/admin/partners/{id}/users': {
    id: 'invitePartnerUser',
    description: `The partner's first portal admin, typically. ${op}`,
    body: { email: 'tech@bestmsp.example', name: 'Jo Tech', role: 'admin' },
  },
  'POST /api/admin/integrations': {
    id: 'createIntegration',
    description: `Answers the integrationId and the organizationOemToken (once): both go to the vendor, which puts them in every alert. ${op}`,
    body: {
      vendorId: '01943b2a-1111-7000-8000-aaaaaaaaaaaa',
      partnerId: '01943b2b-77aa-7c00-9e00-112233445566',
    },
  },
  'GET /api/admin/integrations': {
    id: 'listAdminIntegrations',
    description: `Paged with \`cursor\`. ${read}`,
  },
  'GET /api/admin/integrations/{id}': { id: 'getAdminIntegration', description: read },
  'POST /api/admin/integrations/{id}/test-alert': {
    id: 'sendAdminTestAlert',
    description: `The partner's test alert (docs/partner-api.md#test-alerts) on any integration: a "[TEST] " ticket in the partner's PSA, no webhook for the vendor, closed after closeAfterMinutes. ${read}`,
    body: { accountId: 'acme-001', closeAfterMinutes: 5 },
  },
  'POST /api/admin/integrations/{id}/test-alert/{correlationId}/close': {
    id: 'closeAdminTestAlert',
    description: `Closes a test ticket now; 409 for a ticket no test alert opened. ${read}`,
  },
  'PATCH /api/admin/integrations/{id}': {
    id: 'updateAdminIntegration',
    description: op,
    body: { alertsEnabled: false },
  },
  'GET /api/admin/vendors/{id}/tokens': {
    id: 'listVendorTokens',
    description: `Their ids and times, never the tokens. ${read}`,
  },
  'POST /api/admin/vendors/{id}/tokens/{tokenId}/revoke': {
    id: 'revokeVendorToken',
    description: `It answers 401 at once. ${op}`,
  },
  'POST /api/admin/vendors/{id}/tokens/revoke': {
    id: 'revokeVendorTokens',
    description: `After a leak; the vendor requests new ones. ${op}`,
  },
  'POST /api/admin/vendors/{id}/client-secret/rotate': {
    id: 'rotateVendorClientSecret',
    description: `${shownOnce} ${op}`,
    body: { overlapSeconds: 86400 },
  },
  'POST /api/admin/vendors/{id}/client-secret/end-overlap': {
    id: 'endVendorClientSecretOverlap',
    description: op,
  },
  'POST /api/admin/vendors/{id}/webhook-secret/rotate': {
    id: 'rotateVendorWebhookSecret',
    description: `${shownOnce} ${op}`,
    body: { overlapSeconds: 86400 },
  },
  'POST /api/admin/vendors/{id}/webhook-secret/end-overlap': {
    id: 'endVendorWebhookSecretOverlap',
    description: op,
  },
  'POST /api/admin/integrations/{id}/organization-oem-token/rotate': {
    id: 'rotateIntegrationOrgToken',
    description: `${shownOnce} ${op}`,
    body: { overlapSeconds: 86400 },
  },
  'POST /api/admin/integrations/{id}/organization-oem-token/end-overlap': {
    id: 'endIntegrationOrgTokenOverlap',
    description: op,
  },
  'POST /api/admin/partners/{id}/api-key/rotate': {
    id: 'rotatePartnerApiKey',
    description: `${shownOnce} ${op}`,
    body: { overlapSeconds: 86400 },
  },
  'POST /api/admin/partners/{id}/api-key/end-overlap': { id: 'endPartnerApiKeyOverlap', description: op },
  'POST /api/admin/vendors/{id}/disable': {
    id: 'disableVendor',
    description: `Its credentials answer 403 TENANT_DISABLED with the reason. ${op}`,
    body: { reason: 'Contract ended; call the operator.' },
  },
  'POST /api/admin/vendors/{id}/enable': { id: 'enableVendor', description: op },
  'POST /api/admin/partners/{id}/disable': {
    id: 'disablePartner',
    description: `Its credentials answer 403 TENANT_DISABLED with the reason. ${op}`,
    body: { reason: 'Contract ended; call the operator.' },
  },
  'POST /api/admin/partners/{id}/enable': { id: 'enablePartner', description: op },
  'GET /api/admin/audit': { id: 'listOperatorAudit', description: `Filter and page. ${read}` },
  'POST /api/admin/sandbox': {
    id: 'createSandbox',
    body: { name: 'Acme Security (trial)', webhookUrl: 'https://vendor.example.com/alertbridge/webhook' },
  },
  'GET /api/admin/deliveries': {
    id: 'listAdminDeliveries',
    description: `Every vendor's deliveries; filter by vendor, status and integration. ${read}`,
  },
  'GET /api/admin/deliveries/{id}': { id: 'getAdminDelivery', description: read },
  'POST /api/admin/deliveries/{id}/replay': {
    id: 'replayAdminDelivery',
    description: `Same webhook-id, so the vendor de-duplicates it. 409 if it is not dead. ${op}`,
  },
  'POST /api/admin/deliveries/replay': {
    id: 'replayAdminDeliveries',
    description: `After a vendor fixed its endpoint; optionally one vendor's. ${op}`,
    body: { since: '2026-01-31T00:00:00Z' },
  },
}
