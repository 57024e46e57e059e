// `alertbridge-vendor verify`: a saved webhook (its raw body, and its headers from a file or flags)
// checked against a webhook secret, with the SDK's verifier (standardwebhooks). Exit 0 when it
// verifies, 1 when it does not.
import { parseArgs } from 'node:util'
import { verifyWebhook, WebhookVerificationError } from '@alertbridge/vendor'
import { type Io, readText, UsageError } from './io.js'

export const verifyHelp = `alertbridge-vendor verify --body <file> (--headers <file> | --id … --timestamp … --signature …) [options]

Checks a saved webhook's Standard Webhooks signature. Exit 0: it verifies; 1: it does not (the reason
is printed).

  --body <file>             the body exactly as received (the bytes that were signed)
  --headers <file>          its headers: a JSON object ({"webhook-id": …}) or "Name: value" lines
  --id <webhook-id>         or the three headers one by one
  --timestamp <webhook-timestamp>
  --signature <webhook-signature>
  --secret <whsec_…>        ALERTBRIDGE_WEBHOOK_SECRET; repeat it for both secrets during a rotation
  --tolerance <seconds>     how old (or new) the timestamp may be (default 300, as a receiver should)
  --ignore-timestamp        skip the timestamp check: for a webhook saved a while ago`

/** Headers from a file: a JSON object, or HTTP-style "Name: value" lines (a request dump's header part). */
function parseHeaderFile(text: string, file: string): Record<string, string> {
  const trimmed = text.trim()
  if (trimmed.startsWith('{')) {
    let parsed: unknown
    try {
      parsed = JSON.parse(trimmed)
    } catch (err) {
      throw new UsageError(`${file} is not JSON: ${(err as Error).message}`)
    }
    const out: Record<string, string> = {}
    for (const [k, v] of Object.entries(parsed as Record<string, unknown>))
      out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v)
    return out
  }
  const out: Record<string, string> = {}
  for (const line of trimmed.split(/\r?\n/)) {
    const at = line.indexOf(':')
    if (at > 0) out[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim()
  }
  return out
}

export async function verify(argv: string[], io: Io): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      body: { type: 'string' },
      headers: { type: 'string' },
      id: { type: 'string' },
      timestamp: { type: 'string' },
      signature: { type: 'string' },
      secret: { type: 'string', multiple: true },
      tolerance: { type: 'string' },
      'ignore-timestamp': { type: 'boolean' },
    },
    strict: true,
  })
  if (!values.body) throw new UsageError('--body <file> is required')
  const secrets =
    values.secret ?? (io.env.ALERTBRIDGE_WEBHOOK_SECRET ? [io.env.ALERTBRIDGE_WEBHOOK_SECRET] : [])
  if (secrets.length === 0) throw new UsageError('missing --secret (ALERTBRIDGE_WEBHOOK_SECRET)')
  const headers = values.headers ? parseHeaderFile(readText(io, values.headers), values.headers) : {}
  if (values.id) headers['webhook-id'] = values.id
  if (values.timestamp) headers['webhook-timestamp'] = values.timestamp
  if (values.signature) headers['webhook-signature'] = values.signature
  let toleranceSeconds: number | null = 300
  if (values['ignore-timestamp']) toleranceSeconds = null
  else if (values.tolerance !== undefined) {
    toleranceSeconds = Number(values.tolerance)
    if (!Number.isInteger(toleranceSeconds) || toleranceSeconds < 0)
      throw new UsageError('--tolerance: a whole number of seconds')
  }
  const body = readText(io, values.body)
  try {
    const event = verifyWebhook<{ eventType?: unknown; payload?: { event?: unknown } }>(
      body,
      headers,
      secrets,
      {
        toleranceSeconds,
      },
    )
    const name = typeof event?.payload?.event === 'string' ? ` "${event.payload.event}"` : ''
    io.out(`valid: ${headers['webhook-id']} ${String(event?.eventType ?? '')}${name}`.trimEnd())
    return 0
  } catch (err) {
    if (!(err instanceof WebhookVerificationError) && !(err instanceof SyntaxError)) throw err
    io.out(`invalid: ${err.message}`)
    return 1
  }
}
