// `alertbridge-vendor trigger [event]`: a sample event marked `test: true`, sent to this vendor
// through the normal signed delivery (POST /api/vendor-api/webhook/test): to its webhook URL, and to
// a running `listen`.
import { parseArgs } from 'node:util'
import type { TestEventName } from '@alertbridge/vendor'
import { connect, connectionHelp, connectionOptions, type Io, UsageError } from './io.js'

export const triggerHelp = `alertbridge-vendor trigger [event] [options]

Sends this vendor a sample webhook event marked "test": true, signed and delivered like a real one;
prints the answer (the delivery id and the event's body). The event is a status_update name (default
"Ticket Created", e.g. "Ticket Not Found", "Ticket Closed In PSA") or state_snapshot.

  --integration-id <id>     the integration the sample names (default: the token's, or the first)

${connectionHelp}`

export async function trigger(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: connectionOptions,
    allowPositionals: true,
    strict: true,
  })
  // An event name has spaces: "Ticket Created" quoted, or its words unquoted.
  const event = positionals.length > 0 ? positionals.join(' ') : undefined
  if (event !== undefined && event.trim() === '') throw new UsageError('the event name is empty')
  const { client, integrationId } = connect(io, values)
  const sent = await client.sendTestEvent({
    // The service checks the name and lists the ones it knows.
    ...(event ? { event: event as TestEventName } : {}),
    ...(integrationId ? { integrationId } : {}),
  })
  io.out(JSON.stringify(sent, null, 2))
  io.err(`sent ${event ?? 'Ticket Created'} as delivery ${sent.deliveryId} (${sent.status})`)
  return 0
}
