// The examples of the alert calls in the OpenAPI document (docs/vendor-api.md#openapi-document): the
// vendor flow of docs/vendor-api.md, written out. The routes that answer them spread them into their
// `operation({...})`; the vendor's other routes use the same ids and times.

import { exampleId, exampleInstant } from '../platform/http/openapi/examples.js'

export const integrationId = exampleId
export const messageId = '01943b2d-0c4e-7a10-8c2b-6d9e0f1a2b3c'
export const at = exampleInstant

export const alertBody = {
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

/** How every alert call's description ends. */
export const alertCalls =
  'Credentials travel in the body (camelCase: `grantType`, `clientId` …; no Authorization header). Send an `Idempotency-Key` to make a retry safe. Past the rate limit: 429 with Retry-After. docs/contract.md#alert-request'

export const ticket = {
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
