// Syncro connection settings (docs/psa/syncro.md, "Settings").
import Type from 'typebox'
import { KindSettings, Str, TicketDefaults, Url } from '../settings.js'

export const SyncroSettings = KindSettings({
  baseUrl: Type.Optional({
    ...Url,
    description: "the account's root, e.g. https://acme.syncromsp.com (the API is {baseUrl}/api/v1)",
  }),
  subdomain: Type.Optional(
    Type.String({
      pattern: '^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$',
      maxLength: 63,
      description: 'the account subdomain, e.g. acme for https://acme.syncromsp.com',
    }),
  ),
  apiToken: Str(
    'an API token made in Admin → API Tokens (with the Tickets, Customers and Recurring Invoices permissions)',
  ),
  maxConcurrent: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 16, description: 'calls in flight at once (default 4)' }),
  ),
  defaults: Type.Optional(TicketDefaults),
})

export const syncroSecrets = ['apiToken'] as const
