// Examples of the webhook events (docs/webhooks.md#event-types), their signature headers and the
// answers a receiver may give, for the OpenAPI document's
// `webhooks` section and the tests that check them against the event types' schemas (event-types.ts types
// them).
const ids = {
  vendorOrganizationId: '0193a5b0-1111-7000-8000-00000000000a',
  partner: '0193a5b0-2222-7000-8000-00000000000b',
  integrationId: '0193a5b0-3333-7000-8000-00000000000c',
}

export const statusUpdateExamples = {
  created: {
    module: 'alerts',
    eventType: 'status_update',
    payload: {
      event: 'Ticket Created',
      messageId: '0193a5b4-7f00-7000-8000-0000000000f1',
      messageID: '0193a5b4-7f00-7000-8000-0000000000f1',
      correlationId: 'a3f1c2d4-0000-4000-8000-000000000001',
      vendorOrganizationId: ids.vendorOrganizationId,
      vendorUserOrganizationId: ids.partner,
      integrationId: ids.integrationId,
      payload: { status: 'success', message: 'The ticket was created.' },
      error: null,
      sequence: 1041,
      occurredAt: '2026-11-27T09:15:02.114Z',
      test: false,
    },
  },
  notFound: {
    module: 'alerts',
    eventType: 'status_update',
    payload: {
      event: 'Ticket Not Found',
      messageId: '0193a5b4-7f00-7000-8000-0000000000f2',
      messageID: '0193a5b4-7f00-7000-8000-0000000000f2',
      correlationId: 'no-such-ticket',
      vendorOrganizationId: ids.vendorOrganizationId,
      vendorUserOrganizationId: ids.partner,
      integrationId: ids.integrationId,
      payload: { status: 'failed', message: "No ticket has correlationId 'no-such-ticket'." },
      error: 'TICKET_NOT_FOUND',
      sequence: 1042,
      occurredAt: '2026-11-27T09:15:03.020Z',
      test: false,
    },
  },
  closedInPsa: {
    module: 'alerts',
    eventType: 'status_update',
    payload: {
      event: 'Ticket Closed In PSA',
      messageId: '0193a5b4-7f00-7000-8000-0000000000f3',
      messageID: '0193a5b4-7f00-7000-8000-0000000000f3',
      correlationId: 'a3f1c2d4-0000-4000-8000-000000000001',
      vendorOrganizationId: ids.vendorOrganizationId,
      vendorUserOrganizationId: ids.partner,
      integrationId: ids.integrationId,
      payload: {
        status: 'success',
        message: "The ticket was closed in Autotask by Tess Tech (status 'Complete').",
      },
      error: null,
      sequence: 1057,
      occurredAt: '2026-11-27T10:02:41.500Z',
      test: false,
    },
  },
}

export const stateSnapshotExample = {
  module: 'integrations',
  eventType: 'state_snapshot',
  payload: {
    isIntegrationActive: true,
    isAlertsEnabled: true,
    productGroups: { Backup: ['Backup Failed', 'Backup Warning'] },
    accounts: ['acme-001'],
    vendorOrganizationId: ids.vendorOrganizationId,
    vendorUserId: ids.partner,
    integrationId: ids.integrationId,
    sequence: 1040,
    occurredAt: '2026-11-27T09:14:58.003Z',
    test: false,
  },
}

export const signatureHeaders = [
  ['webhook-id', 'the delivery’s id (msg_…), the same on every retry and replay: de-duplicate on it'],
  ['webhook-timestamp', 'Unix seconds of this attempt; refuse one more than 5 minutes from your clock'],
  [
    'webhook-signature',
    'v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{raw body}" keyed with the base64 bytes after whsec_ of your secret>; space-separated during a secret rotation',
  ],
].map(([name, description]) => ({
  name,
  in: 'header',
  required: true,
  description,
  schema: { type: 'string' },
}))

export const answers = {
  '2XX': { description: 'Received: any 2xx within 15 s. Answer at once and process the event later.' },
  '410': { description: 'Gone: alertbridge disables the endpoint (replay once a URL is set again).' },
  default: {
    description:
      'Anything else (or no answer in 15 s) is retried: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h (±20 %), honouring Retry-After on 429/503.',
  },
}
